import { deepEqual, equal, match } from "node:assert/strict";
import { Injector, McpCatalog, MemorySessionStore, routeInSession } from "../../mod.ts";
import { sha256Hex } from "../../src/canonical_json.ts";
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

Deno.test("routeInSession() answers describe_first with the schema, then executes", async () => {
  const o = options("s");
  const first = await routeInSession(injector, {
    action: "execute",
    name: "a/b",
    arguments: { n: 1 },
  }, o);
  if (first.action !== "error") throw new Error(first.action);
  equal(first.code, "describe_first");
  equal(first.id, "a/b");
  match(first.toolResult, /^Error describe_first: .*\na\/b: "B"\nInput schema: \{"type":"object"/);
  equal(
    (await routeInSession(injector, { action: "execute", name: "a/b", arguments: { n: 1 } }, o))
      .action,
    "execute",
  );
});

Deno.test("routeInSession() checks arguments only after describe-first", async () => {
  const o = options("s");
  const bad = { action: "execute", name: "a/b", arguments: { n: "one" } };
  const first = await routeInSession(injector, bad, o);
  equal(first.action === "error" && first.code, "describe_first");
  const second = await routeInSession(injector, bad, o);
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
  const first = await routeInSession(injector, describe, o);
  const second = await routeInSession(injector, describe, o);
  equal(first.action === "describe" && first.elided, false);
  equal(second.action === "describe" && second.elided, true);
  match(second.action === "describe" ? second.toolResult : "", /sent earlier in this session/);
  await routeInSession(injector, { action: "search", query: "nothing-here" }, o);
  await routeInSession(injector, { action: "describe", name: "b" }, o);
  const state = o.store.get(o.key)!;
  deepEqual(
    [state.counters.searches, state.counters.emptySearches, state.counters.errors.unknown_tool],
    [1, 1, 1],
  );
});
