/**
 * The gateway's result ceiling in process (`src/gateway/bounded.ts` through `Gateway.call`): a
 * describe of a large schema and a wide search are cut like an execute, each part's structured
 * copy follows BRIDGE_OUTPUT_SCHEMA and joins back to the whole copy; refs do not cross profiles
 * over one store; without a session nothing is kept and the marker says so; a store that fails
 * to keep still gets a bounded answer; `0` is no ceiling; the bridge says its ceiling, and a
 * pinned tool is listed without an output schema only under one.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import type { UpstreamPool } from "../../src/gateway/pool/upstreams.ts";
import { BRIDGE_OUTPUT_SCHEMA } from "../../src/bridge/output_schema.ts";
import { validateArguments } from "../../src/schema/validate.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { SessionKey } from "../../src/session/store.ts";
import type { McpTool } from "../../src/tool.ts";
import { estimateTokens } from "../../src/tokens.ts";
import type { GatewayOptions } from "../../src/gateway/config/parse.ts";

const CEILING = 200;
const SESSION: SessionKey = { tenant: "", session: "s1" };
const outputTool: McpTool = {
  server: "schema",
  name: "check",
  description: "",
  inputSchema: { ...BRIDGE_OUTPUT_SCHEMA },
};

// A tool with a schema of many properties (a describe of it is large), and many small tools.
const wide: McpTool = {
  server: "s",
  name: "wide",
  description: "Takes very many options",
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(
      Array.from({ length: 200 }, (_, i) => [`option_${i}`, {
        type: "string",
        description: `The option number ${i}, with a café ☕ in its words`,
      }]),
    ),
  },
  outputSchema: { type: "object", properties: { n: { type: "number" } } },
};
const many: McpTool[] = Array.from({ length: 60 }, (_, i) => ({
  server: "s",
  name: `read_${i}`,
  description: `Reads the file number ${i} of the project and returns its lines`,
  inputSchema: { type: "object" },
}));

function pool(text: string): UpstreamPool {
  const tools = [wide, ...many];
  return {
    tools: () => tools,
    statuses: () => [{ server: "s", state: "ready", tools: tools.length }],
    forward: () => Promise.resolve({ content: [{ type: "text", text }] }),
    onChange: () => () => {},
    close: () => Promise.resolve(),
  };
}

async function open(
  options: Partial<GatewayOptions> = {},
  store = new MemorySessionStore(),
  profile?: string,
  text = "word ".repeat(5_000),
) {
  return await Gateway.open(pool(text), {
    options: { pinned: [], describeFirst: "off", maxResultTokens: CEILING, ...options },
    store,
    ...(profile === undefined ? {} : { profile: { name: profile } }),
  });
}

type Result = {
  content: { type: string; text: string }[];
  structuredContent: Record<string, unknown>;
  isError?: boolean;
};

async function call(gateway: Gateway, args: unknown, session?: SessionKey): Promise<Result> {
  const outcome = await gateway.call("mcp", args, session === undefined ? {} : { session });
  ok(outcome.ok);
  return outcome.result as unknown as Result;
}

function within(result: Result): void {
  const text = result.content.map((b) => b.text).join("\n");
  ok(estimateTokens(text) <= CEILING + 100, `text: ${estimateTokens(text)}`);
  const copy = JSON.stringify(result.structuredContent);
  ok(estimateTokens(copy) <= CEILING + 150, `copy: ${estimateTokens(copy)}`);
  deepEqual(validateArguments(outputTool, result.structuredContent), [], copy.slice(0, 300));
}

// Every part of an answer: its structured copy's JSON joined.
async function joinedCopy(gateway: Gateway, first: Result, session: SessionKey): Promise<string> {
  let json = String(first.structuredContent.json ?? "");
  let next = (first.structuredContent.cut as { next?: { ref: string } } | undefined)?.next?.ref;
  const marker = first.content.at(-1)!.text;
  next ??= /"ref":"([^"]+)"/.exec(marker)?.[1];
  for (let parts = 0; next !== undefined; parts++) {
    ok(parts < 200);
    const part = await call(gateway, { action: "more", ref: next }, session);
    within(part);
    equal(part.structuredContent.action, "more");
    json += String(part.structuredContent.json ?? "");
    const cut = part.structuredContent.cut as { next?: { ref: string } } | undefined;
    next = cut?.next?.ref ?? /"ref":"([^"]+)"/.exec(part.content.at(-1)!.text)?.[1];
  }
  return json;
}

Deno.test("a describe of a large schema and a wide search are cut, and their copies join back whole", async () => {
  const whole = await open({ maxResultTokens: 0 });
  const gateway = await open();
  for (
    const args of [
      { action: "describe", name: "s/wide" },
      { action: "search", query: "reads the file lines", limit: 50 },
    ]
  ) {
    const full = await call(whole, args, SESSION);
    const first = await call(gateway, args, SESSION);
    within(first);
    equal(first.structuredContent.action, args.action);
    ok(first.structuredContent.cut, `${args.action} is cut`);
    const json = await joinedCopy(gateway, first, SESSION);
    deepEqual(JSON.parse(json), full.structuredContent, args.action);
  }
});

Deno.test("refs do not cross profiles over one store, nor sessions", async () => {
  const store = new MemorySessionStore();
  const a = await open({}, store, "a");
  const b = await open({}, store, "b");
  const first = await call(a, { action: "execute", name: "s/wide", arguments: {} }, SESSION);
  within(first);
  const ref = (first.structuredContent.cut as { next: { ref: string } }).next.ref;
  for (
    const [gateway, session] of [[b, SESSION], [a, { tenant: "", session: "s2" }], [a, {
      tenant: "t2",
      session: "s1",
    }]] as const
  ) {
    const refused = await call(gateway, { action: "more", ref }, session);
    equal(refused.isError, true);
    equal(refused.structuredContent.code, "unknown_ref");
  }
  const read = await call(a, { action: "more", ref }, SESSION);
  equal(read.isError, undefined);
  const counters = store.get(SESSION)?.counters;
  ok(counters !== undefined && counters.resultsCut === 1 && counters.moreCalls === 2);
});

Deno.test("without a session the marker says nothing is kept, and more is unknown", async () => {
  const gateway = await open();
  const first = await call(gateway, { action: "execute", name: "s/wide", arguments: {} });
  within(first);
  ok(/not kept without a session/.test(first.content.at(-1)!.text));
  const more = await call(gateway, { action: "more", ref: "aaaaaaaaaaaa.2" });
  equal(more.structuredContent.code, "unknown_ref");
  ok(/there is no session/.test(String(more.structuredContent.message)));
});

Deno.test("a store that fails to keep still gets an answer within the ceiling", async () => {
  const store = new MemorySessionStore();
  store.keep = () => {
    throw new Error("disk full");
  };
  const gateway = await open({}, store);
  const first = await call(gateway, { action: "execute", name: "s/wide", arguments: {} }, SESSION);
  within(first);
  equal(first.isError, undefined);
});

Deno.test("maxResultTokens 0 passes a result whole; the bridge says its ceiling; pinned schemas", async () => {
  const text = "word ".repeat(20_000);
  const none = await open({ maxResultTokens: 0, pinned: ["s/wide"] }, undefined, undefined, text);
  const whole = await call(none, { action: "execute", name: "s/wide", arguments: {} }, SESSION);
  equal(whole.content[0]!.text, text);
  const noneTools = none.tools();
  equal(/tokens are cut/.test(noneTools[0]!.description), false);
  ok(noneTools.find((t) => t.name === "s__wide")?.outputSchema, "no ceiling: listed as it is");
  const bounded = await open({ pinned: ["s/wide"] });
  const tools = bounded.tools();
  ok(/Answers over 200 tokens are cut/.test(tools[0]!.description), tools[0]!.description);
  equal(tools.find((t) => t.name === "s__wide")?.outputSchema, undefined);
  const pinned = await bounded.call("s__wide", {}, { session: SESSION });
  ok(pinned.ok);
  const blocks = pinned.result.content as { text: string }[];
  ok(/"action":"more"/.test(blocks.at(-1)!.text), blocks.at(-1)!.text);
});

Deno.test("an execute's text-only copy is cut as JSON and joins back to the text", async () => {
  const text = 'línea 😀 "q" \\ \u0001 '.repeat(3_000);
  const gateway = await open({}, undefined, undefined, text);
  const first = await call(gateway, { action: "execute", name: "s/wide", arguments: {} }, SESSION);
  within(first);
  const json = await joinedCopy(gateway, first, SESSION);
  equal((JSON.parse(json) as { text: string }).text, text);
});

Deno.test("a hostile ref is unknown in a bounded message; more without a ref says it is required", async () => {
  const gateway = await open();
  for (const ref of ["x".repeat(100_000), "../../etc.2", "aaaaaaaaaaaa.0", "AAAAAAAAAAAA.2"]) {
    const refused = await call(gateway, { action: "more", ref }, SESSION);
    equal(refused.structuredContent.code, "unknown_ref");
    ok(String(refused.structuredContent.message).length < 1_000);
  }
  const bare = await call(gateway, { action: "more" }, SESSION);
  equal(bare.structuredContent.code, "invalid_arguments");
  ok(/"ref" is required/.test(String(bare.structuredContent.message)));
});
