// The one stdio line policy of both sides (`src/protocol/stdio_lines.ts`): lines however the
// stream is cut, the bound, the lenient id finder and each refusal.
import { deepEqual, equal } from "node:assert/strict";
import fc from "fast-check";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE as CLIENT_LIMIT } from "@modelcontextprotocol/client";
import { STDIO_DEFAULT_MAX_BUFFER_SIZE as SERVER_LIMIT } from "@modelcontextprotocol/server";
import {
  type LineFault,
  lineId,
  STDIO_MAX_MESSAGE_BYTES,
  StdioLines,
} from "../../src/protocol/stdio_lines.ts";
import { runs } from "../fuzz/_runs.ts";

const encoder = new TextEncoder();

function read(chunks: readonly (string | Uint8Array)[], max = 1_000): (unknown | LineFault)[] {
  const seen: unknown[] = [];
  const lines = new StdioLines(
    (value) => {
      if (typeof value !== "object" || value === null || !("jsonrpc" in value)) {
        throw new TypeError("not JSON-RPC");
      }
      return value;
    },
    { message: (m) => void seen.push(m), refused: (fault) => void seen.push(fault) },
    max,
  );
  for (const chunk of chunks) lines.push(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
  return seen;
}

Deno.test("the line limit is the MCP SDK's, on both sides", () => {
  equal(STDIO_MAX_MESSAGE_BYTES, CLIENT_LIMIT);
  equal(STDIO_MAX_MESSAGE_BYTES, SERVER_LIMIT);
});

Deno.test("the same messages come out however the stream is cut", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('{"jsonrpc":"2.0","id":1}', '{"jsonrpc":"2.0","method":"é"}', ""), {
        maxLength: 6,
      }),
      fc.array(fc.nat(), { maxLength: 6 }),
      (messages, cuts) => {
        const bytes = encoder.encode(messages.map((m) => `${m}\n`).join(""));
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) =>
          bytes.slice(from, points[i] ?? bytes.length)
        );
        deepEqual(read(chunks), read([bytes]));
        deepEqual(read([bytes]), messages.filter((m) => m !== "").map((m) => JSON.parse(m)));
      },
    ),
    runs(),
  );
});

Deno.test("a line over the limit is skipped to its newline and refused with its id; the next is read", () => {
  const long = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"q":"${
    "x".repeat(200)
  }"}}\n`;
  deepEqual(
    read(
      [long.slice(0, 50), long.slice(50, 120), `${long.slice(120)}{"jsonrpc":"2.0","id":8}\n`],
      100,
    ),
    [
      { kind: "oversized", id: 7, bytes: long.length - 1, limit: 100 },
      { jsonrpc: "2.0", id: 8 },
    ],
  );
  // A line of exactly the limit is read.
  deepEqual(read(['{"jsonrpc":"2.0"}\n'], 17), [{ jsonrpc: "2.0" }]);
});

Deno.test("an oversized line whose kept start ends inside a multi-byte character is refused with its id", () => {
  // The start kept is 4,096 bytes: "é" (two bytes) straddles the cut.
  const head = '{"jsonrpc":"2.0","id":"straddle","method":"tools/call","params":{"q":"';
  const filler = "a".repeat(4_095 - head.length);
  const line = `${head}${filler}${"é".repeat(3_000)}"}}\n`;
  equal(encoder.encode(line).subarray(4_095, 4_097).join(), encoder.encode("é").join());
  deepEqual(read([line, '{"jsonrpc":"2.0","id":2}\n'], 8_000), [
    { kind: "oversized", id: "straddle", bytes: encoder.encode(line).length - 1, limit: 8_000 },
    { jsonrpc: "2.0", id: 2 },
  ]);
});

Deno.test("a line that is not UTF-8, not JSON or not a message is refused with the id it shows", () => {
  const invalid = Uint8Array.from([
    ...encoder.encode('{"jsonrpc":"2.0","id":1,"method":"ech'),
    0xff,
    ...encoder.encode('"}\n'),
  ]);
  deepEqual(read([invalid, "not json\n", '{"id":3,"method":"x"}\n', '{"id":9007199254740993}\n']), [
    { kind: "not_utf8", id: 1 },
    { kind: "not_json", id: null },
    { kind: "not_jsonrpc", id: 3, method: true, error: new TypeError("not JSON-RPC") },
    { kind: "not_jsonrpc", id: null, method: false, error: new TypeError("not JSON-RPC") },
  ]);
});

Deno.test("lineId() finds the top-level id first or last, never a nested one, never part of a number", () => {
  equal(lineId('{"jsonrpc":"2.0","id":7,"method":"x","params":{"id":8'), 7);
  equal(lineId('{"method":"x","jsonrpc":"2.0","id":"a\\"b"'), 'a"b');
  equal(lineId('{"result":{"a":', '"},"jsonrpc":"2.0","id":-4}'), -4);
  equal(lineId('{"jsonrpc":"2.0","method":"x","params":{"id":8', 'x"}}'), null);
  equal(lineId('{"jsonrpc":"2.0","method":"x","params":{"id":8}}'), null);
  equal(lineId('{"jsonrpc":"2.0","id":12345678901234567'), null);
  equal(lineId('{"jsonrpc":"2.0","id":1.5'), null);
  equal(lineId('{"jsonrpc":"2.0","id":null'), null);
});
