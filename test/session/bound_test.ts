import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Injector, McpCatalog, type McpTool } from "../../mod.ts";
import { layOut, MAX_ANSWER_ITEMS } from "../../src/bridge/answer.ts";
import { resultCeiling } from "../../src/bridge/ceiling.ts";
import type { CutWork } from "../../src/bridge/cut.ts";
import { readPart } from "../../src/bridge/part.ts";
import { answerMore, boundResult } from "../../src/session/bound.ts";
import { handleBounded, routeBounded } from "../../src/session/bounded_route.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { estimateTokens } from "../../src/tokens.ts";
import { withoutMarker } from "../_contracts/result_store_contract.ts";

const readTool: McpTool = {
  server: "fs",
  name: "read",
  description: "Reads a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};
const wide: McpTool = {
  server: "fs",
  name: "wide",
  description: "A tool with a large schema",
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(
      Array.from(
        { length: 400 },
        (_, i) => [`field_${i}`, { type: "string", description: `Field ${i} of many` }],
      ),
    ),
  },
};
const catalog = new McpCatalog([readTool, wide]);
const execute = { action: "execute", name: "fs/read", arguments: { path: "/log" } };
const invoker = (result: unknown) => ({ invoke: () => result });

type Handled = {
  action: string;
  code?: string;
  toolResult: unknown;
  cut?: { next?: { action: "more"; ref: string }; notKept?: string };
};

// A session (describe-first off: these calls execute at once) and its handler.
function session(store = new MemorySessionStore(), name = "s", tenant = "") {
  const key = { tenant, session: name };
  const routing = { store, key, catalogHash: "c1", describeFirst: "off" as const };
  const handle = async (injector: Injector, args: unknown, result: unknown): Promise<Handled> => {
    const handled = await handleBounded(injector, args, invoker(result), routing, {
      results: store,
    });
    ok(handled.ok);
    return handled.value as Handled;
  };
  return { store, key, handle };
}

// Every part of a handled answer, reading on with `more` while its marker offers one.
async function parts(
  injector: Injector,
  first: Handled,
  handle: ReturnType<typeof session>["handle"],
): Promise<Handled[]> {
  const all = [first];
  for (let part = first; part.cut?.next !== undefined;) {
    all.push(part = await handle(injector, part.cut.next, null));
    equal(part.action, "more", JSON.stringify(part).slice(0, 300));
  }
  return all;
}

// The text of the content blocks of a result's part (its marker, the last block, left out).
function contentText(toolResult: unknown): string {
  const content = (toolResult as { content?: unknown }).content ?? toolResult;
  const blocks = content as { type: string; text?: string }[];
  return blocks.slice(0, -1).map((b) => b.text ?? "").join("");
}

Deno.test("handle() leaves an answer within the ceiling as it was", async () => {
  const injector = new Injector(catalog);
  const result = { content: [{ type: "text", text: "small" }], structuredContent: { a: 1 } };
  const handled = await injector.handle(execute, invoker(result));
  equal(handled.action === "execute" && handled.toolResult, result);
  equal("cut" in handled, false);
  const described = await injector.handle({ action: "describe", name: "fs/read" }, invoker(null));
  deepEqual(described, injector.route({ action: "describe", name: "fs/read" }));
  const value = { any: "value" };
  const odd = await injector.handle(execute, invoker(value));
  equal(odd.action === "execute" && odd.toolResult, value);
});

Deno.test("handle() cuts a describe over the ceiling, and its parts join to the whole describe", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 500 });
  const whole = injector.route({ action: "describe", name: "fs/wide" });
  ok(whole.action === "describe" && estimateTokens(whole.toolResult) > 2_000);
  const { handle } = session();
  const first = await handle(injector, { action: "describe", name: "fs/wide" }, null);
  equal(first.action, "describe");
  ok(estimateTokens(withoutMarker(first.toolResult as string)) <= 500);
  match(
    first.toolResult as string,
    /\n\[Cut by unfold: \d+ of [\d,]+ tokens shown \([\d.]+ %\)\. Next part: \{"action":"more","ref":"[a-z0-9]{12}\.2"\}\]$/,
  );
  const all = await parts(injector, first, handle);
  equal(
    all.map((p) => withoutMarker(p.toolResult as string)).join(""),
    whole.action === "describe" ? whole.toolResult : "",
  );
  match(
    all.at(-1)!.toolResult as string,
    /\[Part \d+, the last of an answer cut by unfold: all [\d,]+ tokens shown\.\]$/,
  );
});

Deno.test("handle() pages a text, a JSON text and a multi-byte text: the parts join exactly", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 200 });
  const texts = {
    log: Array.from({ length: 400 }, (_, i) => `2026-01-01 line ${i} ${"=".repeat(i % 30)}`).join(
      "\n",
    ),
    json: JSON.stringify({
      entities: Array.from({ length: 300 }, (_, i) => ({ name: `e${i}`, tags: ["a", "b"] })),
    }),
    multibyte: "日本語のテキスト🙂é\u0301".repeat(400),
  };
  for (const [what, text] of Object.entries(texts)) {
    const { handle } = session();
    const first = await handle(injector, execute, text);
    const all = await parts(injector, first, handle);
    ok(all.length > 3, what);
    const joined = all.map((p) => withoutMarker(p.toolResult as string)).join("");
    deepEqual(new TextEncoder().encode(joined), new TextEncoder().encode(text), what);
    for (const part of all) {
      ok(estimateTokens(withoutMarker(part.toolResult as string)) <= 200, what);
    }
  }
});

Deno.test("handle() cuts an MCP result's text and structured copy alike, each joining to its original", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 300 });
  // Quotes and backslashes: escaped again in the copy's piece, which must still fit.
  const text = Array.from({ length: 300 }, (_, i) => `line ${i}: "${"ü".repeat(i % 20)}" \\ \t`)
    .join("\n");
  const result = { content: [{ type: "text", text }], structuredContent: { content: text } };
  const { handle } = session();
  const first = await handle(injector, execute, result);
  const all = await parts(injector, first, handle);
  equal(all.map((p) => contentText(p.toolResult)).join(""), text);
  const structured = all.map((p) =>
    (p.toolResult as { structuredContent: { json?: string } }).structuredContent
  );
  equal(structured.map((s) => s.json ?? "").join(""), JSON.stringify(result.structuredContent));
  const note = structured[0] as { cut: { part: number; next?: { ref: string }; note: string } };
  equal(note.cut.part, 1);
  equal(note.cut.next?.ref, first.cut?.next?.ref);
  match(note.cut.note, /^\[Cut by unfold: /);
  // The whole copy, as a host shows it: the ceiling, and its marker's facts (under 100 tokens).
  for (const s of structured) ok(estimateTokens(JSON.stringify(s)) <= 300 + 100, JSON.stringify(s));
});

Deno.test("without a session the marker says the rest is not kept, and more is refused", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 100 });
  const first = await injector.handle(execute, invoker("word ".repeat(2_000)));
  ok(estimateTokens(withoutMarker(first.toolResult as string)) <= 100);
  match(
    first.toolResult as string,
    /The rest is not kept without a session: ask the tool for less/,
  );
  const more = await injector.handle({ action: "more", ref: "abcdefabcdef.2" }, invoker(null));
  equal(more.action === "error" && more.code, "unknown_ref");
  match(more.toolResult as string, /no part of an answer is kept here/);
});

Deno.test("a ref is unknown in another session or tenant, and an expired one says how to get the data", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 100 });
  const store = new MemorySessionStore();
  const a = session(store, "a");
  const first = await a.handle(injector, execute, "word ".repeat(2_000));
  const next = first.cut!.next!;
  for (const other of [session(store, "b"), session(store, "a", "tenant-2")]) {
    const refused = await other.handle(injector, next, null);
    equal(refused.action === "error" && refused.code, "unknown_ref");
    match(
      refused.toolResult as string,
      /is not kept in this session: it expired .* Run the call that gave it again/,
    );
  }
  equal((await a.handle(injector, next, null)).action, "more");
});

Deno.test("the session counts the tokens handed over, the results cut and the calls of more", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 100 });
  const { store, key, handle } = session();
  const first = await handle(injector, execute, "word ".repeat(200));
  const all = await parts(injector, first, handle);
  await handle(injector, { action: "more", ref: "zzzzzzzzzzzz.2" }, null);
  const counters = store.get(key)!.counters;
  equal(counters.resultsCut, 1);
  equal(counters.moreCalls, all.length);
  equal(counters.errors.unknown_ref, 1);
  const shown = all.reduce((sum, p) => sum + estimateTokens(p.toolResult as string), 0);
  ok(counters.tokensReturned >= shown, `${counters.tokensReturned} < ${shown}`);
});

Deno.test("maxResultTokens 0 leaves any answer whole", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 0 });
  const big = "x".repeat(1_000_000);
  const handled = await injector.handle(execute, invoker(big));
  equal(handled.action === "execute" && handled.toolResult, big);
});

Deno.test("an image or audio passes within the byte ceiling; a bigger one or a blob is a line naming it", async () => {
  const injector = new Injector(catalog, { maxResultBytes: 1_000 });
  const small = { type: "image", mimeType: "image/png", data: "iVBO".repeat(100) };
  const big = { type: "audio", mimeType: "audio/wav", data: "UklG".repeat(1_000) };
  const blob = {
    type: "resource",
    resource: {
      uri: "file:///data.bin",
      mimeType: "application/octet-stream",
      blob: "AAAA".repeat(1_000),
    },
  };
  const doc = { type: "resource", resource: { uri: "file:///notes.md", text: "# Notes" } };
  const result = { content: [small, big, blob, doc] };
  const handled = await injector.handle(execute, invoker(result));
  const content = (handled.action === "execute" ? handled.toolResult : {}) as {
    content: unknown[];
  };
  deepEqual(content.content, [
    small,
    {
      type: "text",
      text:
        "[audio (audio/wav, 2.9 KiB) not shown: over the 1000 B unfold passes on in one answer]",
    },
    {
      type: "text",
      text:
        '[resource "file:///data.bin" (application/octet-stream, 2.9 KiB) not shown: over the 1000 B unfold passes on in one answer]',
    },
    doc,
  ]);
  equal("cut" in handled, false);
});

Deno.test("images over the byte ceiling together go to the next parts, each within it", async () => {
  const injector = new Injector(catalog, { maxResultBytes: 1_000 });
  const image = (i: number) => ({
    type: "image",
    mimeType: "image/png",
    data: `${i}`.padEnd(800, "A"),
  });
  const result = { content: [0, 1, 2, 3].map(image) };
  const { handle } = session();
  const first = await handle(injector, execute, result);
  const all = await parts(injector, first, handle);
  equal(all.length, 4);
  const images = all.flatMap((p) =>
    (p.toolResult as { content: { type: string }[] }).content.filter((b) => b.type === "image")
  );
  deepEqual(images, result.content);
});

Deno.test("routeBounded() cuts a model error and a describe within the session, and answers more", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 300 });
  const store = new MemorySessionStore();
  const key = { tenant: "", session: "route" };
  const routing = { store, key, catalogHash: "c1" };
  // Execute before describe: the refusal carries the schema, over the ceiling.
  const refused = await routeBounded(
    injector,
    { action: "execute", name: "fs/wide" },
    { ...routing, key: { tenant: "", session: "refused" } },
    { results: store },
  );
  ok(refused.ok && refused.value.action === "error" && refused.value.code === "describe_first");
  ok(refused.value.cut?.next !== undefined);
  match(refused.value.toolResult, /^Error describe_first: /);
  const described = await routeBounded(injector, { action: "describe", name: "fs/wide" }, routing, {
    results: store,
  });
  ok(described.ok && described.value.action === "describe" && described.value.cut?.next);
  const next = described.value.cut!.next!;
  const more = await routeBounded(injector, next, routing, { results: store });
  ok(more.ok && more.value.action === "more");
  equal(more.value.ref, next.ref);
  const stateless = await routeBounded(injector, next);
  ok(stateless.ok && stateless.value.action === "error" && stateless.value.code === "unknown_ref");
  const counters = store.get(key)!.counters;
  equal(counters.describes, 1);
  equal(counters.moreCalls, 1);
  equal(counters.resultsCut, 1);
  equal(store.get({ tenant: "", session: "refused" })!.counters.resultsCut, 1);
});

Deno.test("a 64 MiB result costs work linear in its size, and its parts join to it exactly", async () => {
  const line =
    "2026-01-01T00:00:00Z INFO a line of a large log, some words and numbers 0123456789\n";
  const text = line.repeat(Math.ceil((64 * 1024 * 1024) / line.length));
  const ceiling = { maxResultTokens: 25_000, maxResultBytes: 0, estimateTokens };
  const work: CutWork = { units: 0 };
  const store = new MemorySessionStore({
    maxKeptBytesPerSession: 200 * 1024 * 1024,
    maxKeptBytes: 200 * 1024 * 1024,
  });
  const key = { tenant: "", session: "huge" };
  const first = await boundResult(
    { shape: "mapped", result: text },
    { ceiling, session: { store, key }, results: store, work },
  );
  // The first answer: one estimate of the whole and one part read.
  ok(work.units <= text.length + 2 * 8 * 25_000, `${work.units} units for ${text.length}`);
  // Each later part reads a window of its own size from the kept text, whatever the whole is.
  const laid = layOut({ shape: "text", text }, ceiling);
  let read = 0;
  let at = await readPart((a, b) => (read += b - a, text.slice(a, b)), laid.layout, {
    part: 1,
    content: { at: 0, inString: false, shown: 0 },
  }, ceiling);
  let count = 1;
  while (at.next !== undefined) {
    at = await readPart((a, b) => (read += b - a, text.slice(a, b)), laid.layout, at.next, ceiling);
    count++;
  }
  ok(read <= 2.1 * text.length, `${read} units read for ${text.length}`);
  ok(count > 600, `${count} parts`);
  // Through the store, every part joins to the original.
  const context = { ceiling, session: { store, key }, results: store };
  const pieces = [contentText(first.answer)];
  for (let cut = first.cut; cut?.next !== undefined;) {
    const more = await answerMore(cut.next.ref, context);
    ok(more.ok);
    pieces.push(contentText(more.value.answer));
    cut = more.value.cut;
  }
  equal(pieces.length, count);
  ok(pieces.join("") === text, "the parts join to the original");
});

Deno.test("a session's memory bound holds under 1,000 cut results", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 100 });
  const limit = 1024 * 1024;
  const store = new MemorySessionStore({ maxKeptBytesPerSession: limit });
  const { handle, key } = session(store);
  const refs: string[] = [];
  for (let i = 0; i < 1_000; i++) {
    const handled = await handle(injector, execute, `result ${i} `.repeat(1_000));
    refs.push(handled.cut!.next!.ref);
    ok(store.keptBytes <= limit, `${store.keptBytes} bytes kept after ${i + 1} results`);
  }
  equal(store.get(key)!.counters.resultsCut, 1_000);
  const oldest = await handle(injector, { action: "more", ref: refs[0]! }, null);
  equal(oldest.action === "error" && oldest.code, "unknown_ref");
  equal(
    (await handle(injector, { action: "more", ref: refs.at(-1)! }, null)).action,
    "more",
  );
});

Deno.test("a hostile result stays within the ceiling: 50,000 blocks, a huge link, a huge media type", async () => {
  const injector = new Injector(catalog, { maxResultTokens: 200, maxResultBytes: 1_000 });
  const { handle } = session();
  const many = {
    content: Array.from({ length: 50_000 }, (_, i) => ({ type: "text", text: `b${i}` })),
  };
  const laid = layOut({ shape: "mcp", result: many }, resultCeiling(injector.config));
  ok(laid.layout.items.length <= MAX_ANSWER_ITEMS);
  const link = {
    type: "resource_link",
    uri: "file:///x",
    name: "x",
    description: "d".repeat(100_000),
  };
  const image = { type: "image", mimeType: "m".repeat(100_000), data: "AAAA" };
  for (const result of [many, { content: [link] }, { content: [image] }]) {
    const first = await handle(injector, execute, result);
    const shown = JSON.stringify(first.toolResult);
    ok(
      estimateTokens(shown) <= 200 + 200,
      `${estimateTokens(shown)} tokens: ${shown.slice(0, 200)}`,
    );
  }
});
