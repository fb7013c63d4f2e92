// Request bodies whose bytes are not UTF-8: refused as invalid JSON on every route that reads a
// body, never decoded with U+FFFD in their place.
import { equal, match } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { readBody } from "../../src/http/body.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";

const encoder = new TextEncoder();
const json = { "content-type": "application/json" };

// A body in chunks: text, and raw bytes between them.
function streamOf(...parts: (string | number[])[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) {
        controller.enqueue(typeof part === "string" ? encoder.encode(part) : Uint8Array.from(part));
      }
      controller.close();
    },
  });
}

const request = (body: BodyInit) =>
  new Request("http://x/", { method: "POST", headers: json, body });

Deno.test("readBody() refuses bytes that are not UTF-8, within a chunk, across chunks, at the end", async () => {
  const cases: [string, ReadableStream<Uint8Array>][] = [
    ["a lone 0xFF", streamOf('{"a":"', [0xff], '"}')],
    ["a surrogate as three bytes (CESU-8)", streamOf('{"a":"', [0xed, 0xa0, 0x80], '"}')],
    ["an overlong slash", streamOf('{"a":"', [0xc0, 0xaf], '"}')],
    ["a sequence cut between chunks", streamOf('{"a":"', [0xe2, 0x82], [0x41], '"}')],
    ["a sequence cut at the end", streamOf('{"a":"x"}', [0xe2, 0x82])],
  ];
  for (const [label, body] of cases) {
    const read = await readBody(request(body), 1_000);
    equal(read.ok, false, label);
    if (read.ok) continue;
    equal(read.response.status, 400, label);
    equal(read.response.headers.get("content-type"), "application/problem+json", label);
    const problem = await read.response.json();
    equal(problem.code, "invalid_json", label);
    match(problem.detail, /not UTF-8/, label);
  }
});

Deno.test("readBody() reads UTF-8 split between chunks as it was sent", async () => {
  const euro = [...encoder.encode("€")];
  const read = await readBody(
    request(streamOf('{"a":"', euro.slice(0, 1), euro.slice(1), '"}')),
    100,
  );
  equal(read.ok && read.value, '{"a":"€"}');
});

Deno.test("every route that reads a body answers 400 invalid_json to one that is not UTF-8", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  // A catalogue whose tool name holds a byte that is not UTF-8: it became "t\uFFFD" before.
  const bytes = (before: string, after: string) =>
    Uint8Array.from([...encoder.encode(before), 0xff, ...encoder.encode(after)]);
  const catalog = '{"catalog":[{"server":"s","name":"t';
  const tail = '","inputSchema":{"type":"object"}}]';
  const bodies: [string, Uint8Array<ArrayBuffer>][] = [
    ["/v1/inject", bytes(catalog, `${tail}}`)],
    ["/v1/route", bytes(catalog, `${tail},"call":{"action":"search","query":"x"}}`)],
    ["/v1/explain", bytes(catalog, `${tail},"query":"t"}`)],
    ["/v1/result", bytes('{"result":{"content":[{"type":"text","text":"', '"}]}}')],
    ["/v1/native/anthropic/tools", bytes(catalog, `${tail}}`)],
    ["/v1/native/openai/tools", bytes(catalog, `${tail}}`)],
  ];
  for (const [path, body] of bodies) {
    const response = await app.request(path, { method: "POST", headers: json, body });
    equal(response.status, 400, path);
    equal(response.headers.get("content-type"), "application/problem+json", path);
    const problem = await response.json();
    equal(problem.code, "invalid_json", `${path}: ${JSON.stringify(problem)}`);
  }
});
