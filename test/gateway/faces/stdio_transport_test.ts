// The stdio face's transport (`HostStdioTransport`, `src/gateway/faces/stdio.ts`): the one line
// policy on the host's side (each bad line answered, with its id when it shows one, and the
// connection staying), messages held until started, the host's end seen at once, and whole
// messages written however little a pipe takes at a time.
import { deepEqual, equal } from "node:assert/strict";
import { HostStdioTransport } from "../../../src/gateway/faces/stdio.ts";
import { STDIO_MAX_MESSAGE_BYTES } from "../../../src/protocol/stdio_lines.ts";
import { init, rpc, stdioAnswers } from "../_stdio_host.ts";

const encoder = new TextEncoder();

async function exchange(chunks: (string | Uint8Array)[], maxMessageBytes?: number) {
  const written: unknown[] = [];
  const transport = new HostStdioTransport({
    input: ReadableStream.from(
      chunks.map((chunk) => typeof chunk === "string" ? encoder.encode(chunk) : chunk),
    ),
    output: new WritableStream<Uint8Array>({
      write: (chunk) => {
        for (const line of new TextDecoder().decode(chunk).split("\n")) {
          if (line !== "") written.push(JSON.parse(line));
        }
      },
    }),
    ...(maxMessageBytes === undefined ? {} : { maxMessageBytes }),
  });
  const seen: unknown[] = [];
  transport.onmessage = (message) => void seen.push(message);
  await transport.start();
  await transport.ended;
  return { seen, written: written as { id: unknown; error: { code: number; message: string } }[] };
}

Deno.test("a line over the bound is skipped to its newline and answered by id; the next is read", async () => {
  const long = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"q":"${
    "x".repeat(200)
  }"}}\n`;
  const { seen, written } = await exchange([
    long.slice(0, 50),
    long.slice(50, 120),
    `${long.slice(120)}{"jsonrpc":"2.0","id":8,"me`,
    'thod":"ping"}\nnot json\n{"jsonrpc":"1.0","id":9}\n',
  ], 100);
  deepEqual(seen, [{ jsonrpc: "2.0", id: 8, method: "ping" }]);
  deepEqual(written.map((m) => [m.id, m.error.code]), [[7, -32_600], [null, -32_700], [
    9,
    -32_600,
  ]]);
});

Deno.test("a line over 10 MiB whose kept start ends inside a character is answered by id, and the next ping too", async () => {
  // The face keeps a skipped line's first 4,096 bytes: "é" straddles the cut.
  const head = '{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"echo","q":"';
  const line = `${head}${"a".repeat(4_095 - head.length)}${
    "é".repeat(STDIO_MAX_MESSAGE_BYTES / 2)
  }"}}`;
  equal(new TextDecoder().decode(encoder.encode(line).subarray(4_095, 4_097)), "é");
  const written = await stdioAnswers([init(1, "2025-06-18"), line, rpc(42, "ping")]);
  deepEqual(written.slice(1), [
    {
      jsonrpc: "2.0",
      id: 41,
      error: {
        code: -32_600,
        message:
          `Invalid request: the message is over ${STDIO_MAX_MESSAGE_BYTES} bytes, the most this server reads; it was skipped`,
      },
    },
    { result: {}, jsonrpc: "2.0", id: 42 },
  ]);
});

Deno.test("a line that is not UTF-8 is answered with a parse error carrying its id", async () => {
  // "ech\xFF": a lenient decoder would read it as "ech\uFFFD".
  const { seen, written } = await exchange([
    Uint8Array.from([
      ...encoder.encode('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ech'),
      0xff,
      ...encoder.encode('"}}\n'),
    ]),
    '{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
  ]);
  deepEqual(seen, [{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  deepEqual(written, [{
    jsonrpc: "2.0",
    id: 1,
    error: { code: -32_700, message: "Parse error: the message is not UTF-8" },
  }]);
});

Deno.test("an id past the safe integers is never answered with the first digits of it", async () => {
  const { written } = await exchange([`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}\n`]);
  deepEqual(written.map((m) => m.id), [null]);
});

Deno.test("messages are held until the transport is started, and its input's end ends it", async () => {
  const { seen } = await exchange(['{"jsonrpc":"2.0","method":"notifications/initialized"}\n']);
  deepEqual(seen, [{ jsonrpc: "2.0", method: "notifications/initialized" }]);
});

Deno.test("the host closing stdin ends the transport before any message, unstarted", async () => {
  const transport = new HostStdioTransport({
    input: ReadableStream.from([]),
    output: new WritableStream(),
  });
  let closed = 0;
  transport.onclose = () => void closed++;
  await transport.ended;
  equal(closed, 1);
});

Deno.test("a synchronous writer gets whole messages, a pipe's part at a time", async () => {
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
  const transport = new HostStdioTransport({
    input: new ReadableStream({ pull: () => input.then(() => {}) }),
    output,
  });
  await transport.start();
  const message = { jsonrpc: "2.0" as const, id: 1, result: { text: "é".repeat(20) } };
  await transport.send(message);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (bytes.set(p, at), at + p.length), 0);
  deepEqual(JSON.parse(new TextDecoder().decode(bytes)), message);
  await transport.close();
  equal(closed, true);
  resolve();
});

Deno.test("a reader into a buffer (Deno.stdin) gives lines split across reads whole", async () => {
  // As Deno.stdin: each read overwrites the buffer it is given, so a line held across reads must
  // have been copied.
  const chunks = [
    '{"jsonrpc":"2.0","id":1,"method":"pi',
    'ng"}\n{"jsonrpc":"2.0","id":"a","meth',
    'od":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
  ].map((chunk) => encoder.encode(chunk));
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
  const transport = new HostStdioTransport({ input, output: { writeSync: (b) => b.length } });
  const seen: unknown[] = [];
  transport.onmessage = (message) => void seen.push(message);
  await transport.start();
  await transport.ended;
  deepEqual(seen, [
    { jsonrpc: "2.0", id: 1, method: "ping" },
    { jsonrpc: "2.0", id: "a", method: "ping" },
    { jsonrpc: "2.0", method: "notifications/initialized" },
  ]);
  equal(buffers.size, 1);
});
