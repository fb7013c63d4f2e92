import { deepEqual } from "node:assert/strict";
import { openStdioWire, transportOf } from "../../../src/gateway/faces/stdio_wire.ts";

async function exchange(chunks: (string | Uint8Array)[], maxMessageBytes: number) {
  const encoder = new TextEncoder();
  const written: unknown[] = [];
  const output = new WritableStream<Uint8Array>({
    write: (chunk) => {
      for (const line of new TextDecoder().decode(chunk).split("\n")) {
        if (line !== "") written.push(JSON.parse(line));
      }
    },
  });
  const wire = openStdioWire(
    ReadableStream.from(
      chunks.map((chunk) => typeof chunk === "string" ? encoder.encode(chunk) : chunk),
    ),
    output,
    { maxMessageBytes },
  );
  const seen: unknown[] = [];
  const transport = transportOf(wire);
  transport.onmessage = (message) => void seen.push(message);
  await transport.start();
  await wire.ended;
  return { seen, written };
}

Deno.test("the stdio wire skips a line over the bound to its newline, answers it by id, and reads on", async () => {
  const long = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"q":"${
    "x".repeat(200)
  }"}}\n`;
  const { seen, written } = await exchange([
    long.slice(0, 50),
    long.slice(50, 120),
    `${long.slice(120)}{"jsonrpc":"2.0","id":8,"me`,
    'thod":"ping"}\nnot json\n{"jsonrpc":"1.0"}\n',
  ], 100);
  deepEqual(seen, [{ jsonrpc: "2.0", id: 8, method: "ping" }]);
  deepEqual(written.map((m) => (m as { id: unknown; error: { code: number } }).id), [
    7,
    null,
    null,
  ]);
  deepEqual(written.map((m) => (m as { error: { code: number } }).error.code), [
    -32_600,
    -32_700,
    -32_600,
  ]);
});

Deno.test("the stdio wire holds messages until it is started and ends when its input ends", async () => {
  const { seen } = await exchange(
    ['{"jsonrpc":"2.0","method":"notifications/initialized"}\n'],
    1_000,
  );
  deepEqual(seen, [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
});

Deno.test("the stdio wire answers a line that is not UTF-8 with a parse error and reads on", async () => {
  const encoder = new TextEncoder();
  // "ech\xFF": a lenient decoder read it as "ech\uFFFD".
  const { seen, written } = await exchange([
    Uint8Array.from([
      ...encoder.encode('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ech'),
      0xff,
      ...encoder.encode('"}}\n'),
    ]),
    '{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
  ], 1_000);
  deepEqual(seen, [{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  deepEqual(written, [{
    jsonrpc: "2.0",
    id: null,
    error: { code: -32_700, message: "Parse error: the message is not UTF-8" },
  }]);
});

Deno.test("the stdio wire writes to a synchronous writer whole messages, a pipe's part at a time", async () => {
  const parts: Uint8Array[] = [];
  let closed = false;
  // Like a pipe that takes at most 7 bytes per write.
  const output = {
    writeSync: (bytes: Uint8Array) => {
      parts.push(bytes.slice(0, 7));
      return Math.min(7, bytes.length);
    },
    close: () => void (closed = true),
  };
  const { promise: input, resolve } = Promise.withResolvers<void>();
  const wire = openStdioWire(
    new ReadableStream({ pull: () => input.then(() => {}) }),
    output,
  );
  const transport = transportOf(wire);
  await transport.start();
  const message = { jsonrpc: "2.0" as const, id: 1, result: { text: "é".repeat(20) } };
  await transport.send(message);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  deepEqual(JSON.parse(new TextDecoder().decode(bytes)), message);
  await wire.close();
  deepEqual(closed, true);
  resolve();
});

Deno.test("the stdio wire never answers a skipped line with the first digits of a longer id", async () => {
  const { written } = await exchange(
    [`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n`],
    1_000,
  );
  deepEqual(written.map((m) => (m as { id: unknown }).id), [null]);
});

Deno.test("the stdio wire reads a reader into its buffer: lines split across reads come whole", async () => {
  // As Deno.stdin: each read overwrites the buffer it is given, so a line held across reads must
  // have been copied.
  const chunks = [
    '{"jsonrpc":"2.0","id":1,"method":"pi',
    'ng"}\n{"jsonrpc":"2.0","id":"a","meth',
    'od":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
  ].map((chunk) => new TextEncoder().encode(chunk));
  const buffers = new Set<Uint8Array>();
  const input = {
    read(buffer: Uint8Array): Promise<number | null> {
      buffers.add(buffer);
      const chunk = chunks.shift();
      if (chunk === undefined) return Promise.resolve(null);
      buffer.fill(0x7b);
      buffer.set(chunk);
      return Promise.resolve(chunk.length);
    },
  };
  const wire = openStdioWire(input, { writeSync: (bytes) => bytes.length });
  const seen: unknown[] = [];
  const transport = transportOf(wire);
  transport.onmessage = (message) => void seen.push(message);
  await transport.start();
  await wire.ended;
  deepEqual(seen, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  deepEqual(buffers.size, 1);
});
