import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type BridgeAction, Injector, McpCatalog } from "../../mod.ts";
import { sha256Hex } from "../../src/canonical_json.ts";
import {
  MemorySessionStore,
  routeInSession,
  SessionFullError,
  type SessionStore,
} from "../../src/session/mod.ts";
import { tool } from "../_data.ts";

const catalog = new McpCatalog([
  {
    ...tool("a", "b", "B", { n: { type: "integer" } }),
    inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
  },
]);
const injector = new Injector(catalog);

function options(session: string, extra = {}) {
  return {
    store: new MemorySessionStore(),
    key: { tenant: "", session },
    catalogHash: "c",
    hash: sha256Hex,
    ...extra,
  };
}

// The action of a call the session recorded.
async function route(
  args: unknown,
  o: Parameters<typeof routeInSession>[2],
): Promise<BridgeAction> {
  const routed = await routeInSession(injector, args, o);
  if (!routed.ok) throw routed.error;
  return routed.value;
}

Deno.test("routeInSession() answers describe_first with the schema, then executes", async () => {
  const o = options("s");
  const first = await route({
    action: "execute",
    name: "a/b",
    arguments: { n: 1 },
  }, o);
  if (first.action !== "error") throw new Error(first.action);
  equal(first.code, "describe_first");
  equal(first.id, "a/b");
  match(first.toolResult, /^Error describe_first: .*\na\/b: "B"\nInput schema: \{"type":"object"/);
  equal(
    (await route({ action: "execute", name: "a/b", arguments: { n: 1 } }, o))
      .action,
    "execute",
  );
});

Deno.test("routeInSession() checks arguments only after describe-first", async () => {
  const o = options("s");
  const bad = { action: "execute", name: "a/b", arguments: { n: "one" } };
  const first = await route(bad, o);
  equal(first.action === "error" && first.code, "describe_first");
  const second = await route(bad, o);
  if (second.action !== "error") throw new Error(second.action);
  equal(second.code, "invalid_arguments");
  deepEqual(second.problems, [{
    pointer: "/n",
    message: 'Instance type "string" is invalid. Expected "integer".',
  }]);
});

Deno.test("routeInSession() elides a second describe and records searches and errors", async () => {
  const o = options("s");
  const describe = { action: "describe", name: "a/b" };
  const first = await route(describe, o);
  const second = await route(describe, o);
  equal(first.action === "describe" && first.elided, false);
  equal(second.action === "describe" && second.elided, true);
  match(second.action === "describe" ? second.toolResult : "", /sent earlier in this session/);
  await route({ action: "search", query: "nothing-here" }, o);
  await route({ action: "describe", name: "b" }, o);
  const state = o.store.get(o.key)!;
  deepEqual(
    [state.counters.searches, state.counters.emptySearches, state.counters.errors.unknown_tool],
    [1, 1, 1],
  );
});

Deno.test("routeInSession() returns an event the session cannot record as a value, never a throw", async () => {
  // No event reaches a full session through the real stores (a full one forgets its oldest
  // schemas): a store answering "full" stands for one that could not hold even one event.
  const full: SessionStore = {
    apply: () => ({ kind: "full", bytes: 70_000, limit: 65_536 }),
    get: () => undefined,
    delete: () => false,
  };
  const o = { ...options("chat-1"), store: full };
  for (const args of [{ action: "describe", name: "a/b" }, { action: "execute", name: "a/b" }]) {
    const routed = await routeInSession(injector, args, o);
    if (routed.ok) throw new Error(`${args.action} was routed: ${routed.value.action}`);
    ok(routed.error instanceof SessionFullError);
    equal(
      routed.error.message,
      'Cannot record in session "chat-1": its state would take 70000 bytes, more than 65536 ' +
        "(MAX_SESSION_BYTES); delete the session or start a new one",
    );
  }
  // A search and a mistake only move counters: they are answered whatever the store says.
  equal((await routeInSession(injector, { action: "search", query: "b" }, o)).ok, true);
});

Deno.test("a tool's schema and describe text are hashed once per catalogue, not at each call", async () => {
  const hashed: string[] = [];
  const counting = (text: string) => {
    hashed.push(text);
    return sha256Hex(text);
  };
  const o = options("hashed-once", { hash: counting });
  equal((await route({ action: "describe", name: "a/b" }, o)).action, "describe");
  for (let n = 0; n < 5; n++) {
    equal((await route({ action: "execute", name: "a/b", arguments: { n } }, o)).action, "execute");
  }
  // The schema and the describe text, each once: the executes reuse them.
  equal(hashed.length, 2, hashed.join("\n"));
  // A catalogue of its own has its own tools: hashed again for it.
  const other = new Injector(new McpCatalog(catalog.tools.map((t) => ({ ...t }))));
  const routed = await routeInSession(other, {
    action: "execute",
    name: "a/b",
    arguments: { n: 1 },
  }, o);
  equal(routed.ok && routed.value.action, "execute");
  equal(hashed.length, 4);
  // A second session over the same catalogue is told the same hashes, so its describe elides nothing
  // it was not sent.
  const fresh = options("hashed-once-2", { hash: counting });
  const described = await route({ action: "describe", name: "a/b" }, fresh);
  equal(described.action === "describe" && described.elided, false);
});

Deno.test("a hash that fails is not remembered: the next call hashes again", async () => {
  let fail = true;
  const flaky = (text: string) => {
    if (fail) return Promise.reject(new Error("no digest"));
    return sha256Hex(text);
  };
  const tools = new Injector(new McpCatalog(catalog.tools.map((t) => ({ ...t }))));
  const o = options("flaky", { hash: flaky });
  await routeInSession(tools, { action: "describe", name: "a/b" }, o).then(
    () => ok(false, "the describe should fail with its hash"),
    (error) => match(String(error), /no digest/),
  );
  fail = false;
  const routed = await routeInSession(tools, { action: "describe", name: "a/b" }, o);
  equal(routed.ok && routed.value.action, "describe");
});
