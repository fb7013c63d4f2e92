import { deepEqual, doesNotMatch, equal, match } from "node:assert/strict";
import { McpCatalog } from "../../../src/catalog.ts";
import { parseBridgeCall } from "../../../src/bridge/parse.ts";
import { Injector } from "../../../src/injector.ts";
import { present } from "../../../src/gateway/presentation.ts";
import { explainConfiguredServer } from "../../../src/gateway/results.ts";
import { unlistedNeeded, unlistedServers } from "../../../src/gateway/pool/start_wait.ts";
import type { UpstreamStatus } from "../../../src/gateway/pool/upstreams.ts";

const TOOL = { server: "up", name: "echo", description: "Echoes", inputSchema: { type: "object" } };
const STATUSES: UpstreamStatus[] = [
  { server: "up", state: "ready", tools: 1 },
  { server: "slow", state: "starting", tools: 0 },
  { server: "known", state: "starting", tools: 2, snapshot: true },
  { server: "back", state: "starting", tools: 3, detail: "lost" },
];
const LIMITS = { maxSearchLimit: 20, searchDefaultLimit: 5 };

Deno.test("only servers starting with no listing and no snapshot are waited for", () => {
  deepEqual(unlistedServers(STATUSES), ["slow"]);
});

Deno.test("a search needs every unlisted server; a describe only the server of an id not listed", () => {
  const catalog = new McpCatalog([TOOL]);
  const needed = (args: unknown) =>
    unlistedNeeded(parseBridgeCall(args, LIMITS), catalog, ["slow", "late"]);
  deepEqual(needed({ action: "search", query: "echo" }), ["slow", "late"]);
  deepEqual(needed({ action: "describe", name: "up/echo" }), []);
  deepEqual(needed({ action: "describe", name: " slow/echo " }), ["slow"]);
  deepEqual(needed({ action: "execute", name: "late/x" }), ["late"]);
  deepEqual(needed({ action: "describe", name: "other/x" }), []);
  deepEqual(needed({ action: "describe", name: "noslash" }), []);
  deepEqual(needed("not json"), []);
  deepEqual(
    unlistedNeeded(parseBridgeCall({ action: "search", query: "x" }, LIMITS), catalog, []),
    [],
  );
});

Deno.test("an empty catalogue with servers still starting names them instead of saying no tool is available", () => {
  const shown = present(new McpCatalog([]), { pinned: [] }, [
    { server: "a", state: "starting", tools: 0 },
    { server: "b", state: "starting", tools: 0 },
  ]);
  for (const text of [shown.instructions, shown.bridge.description]) {
    match(text, /Servers still starting, whose tools are not listed yet: a, b\. Search for/);
    doesNotMatch(text, /No upstream server has any tool available/);
  }
  const down = present(new McpCatalog([]), { pinned: [] }, [
    { server: "a", state: "failed", tools: 0, detail: "spawn a ENOENT" },
  ]);
  match(down.instructions, /No upstream server has any tool available now/);
});

Deno.test("a search miss while a server is starting names it and says to search again in a moment", () => {
  const injector = new Injector(new McpCatalog([TOOL]));
  const miss = explainConfiguredServer(
    injector.route({ action: "search", query: "zqxjv" }),
    STATUSES,
  );
  equal(miss.action, "search");
  if (miss.action !== "search") return;
  match(miss.toolResult, /\nServers still starting, whose tools are not searched yet: "slow"\.\n/);
  match(miss.toolResult, /\nNext: search again in a moment[^\n]*$/);
  equal(miss.miss?.next.startsWith("search again in a moment"), true);
  const hit = explainConfiguredServer(
    injector.route({ action: "search", query: "echoes" }),
    STATUSES,
  );
  match(hit.action === "search" ? hit.toolResult : "", /up\/echo[^]*not searched yet: "slow"/);
  // An empty query's own next step stays: the query is what to fix.
  const empty = explainConfiguredServer(injector.route({ action: "search", query: "" }), STATUSES);
  match(empty.action === "search" ? empty.miss?.next ?? "" : "", /send "query"/);
  // Once every server has listed, nothing is added.
  const all = explainConfiguredServer(injector.route({ action: "search", query: "zqxjv" }), [
    { server: "up", state: "ready", tools: 1 },
  ]);
  doesNotMatch(all.action === "search" ? all.toolResult : "", /still starting/);
});
