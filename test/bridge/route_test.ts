import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type BridgeAction, Injector, McpCatalog } from "../../mod.ts";
import type { ErrorAction } from "../../src/bridge/action.ts";
import { realServerTools, tool } from "../_data.ts";
import { MAX_QUERY_CHARS } from "../../src/limits.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";

const catalog = new McpCatalog([
  tool("github", "create_issue", "Create a new issue in a repository", {
    title: { type: "string" },
  }),
  tool("gitlab", "create_issue", "Create a GitLab issue"),
  tool("slack", "post_message", "Post a message to a channel"),
  tool("maps", "geocode", "Turn an address into coordinates"),
]);
const injector = new Injector(catalog);

function error(action: BridgeAction, code: string): ErrorAction {
  equal(action.action, "error", JSON.stringify(action));
  const e = action as ErrorAction;
  equal(e.code, code);
  ok(e.toolResult.includes(e.message));
  return e;
}

Deno.test("route() searches with the default limit and caps larger limits", () => {
  const big = new Injector(new McpCatalog(realServerTools()), { maxSearchLimit: 8 });
  const a = big.route({ action: "search", query: "file" });
  equal(a.action, "search");
  if (a.action !== "search") return;
  equal(a.limit, 5);
  equal(a.matches.length, 5);
  const b = big.route({ action: "search", query: "file", limit: 100 });
  if (b.action !== "search") throw new Error(b.action);
  equal(b.limit, 8);
  equal(b.matches.length, 8);
  const c = big.route({ action: "search", query: "file", limit: "2" });
  if (c.action !== "search") throw new Error(c.action);
  equal(c.matches.length, 2);
});

Deno.test("route() search results carry a toolResult with each id and its description", () => {
  const a = injector.route({ action: "search", query: "post a message" });
  if (a.action !== "search") throw new Error(a.action);
  equal(a.matches[0]?.id, "slack/post_message");
  match(a.toolResult, /^Top \d of 4 tools for "post a message"/);
  match(a.toolResult, /\nslack\/post_message: "Post a message to a channel"\n/);
  match(a.toolResult, /"action":"describe"/);
  equal(a.miss, undefined);
});

Deno.test("route() explains an empty search and shows the server inventory", () => {
  for (const args of [{ action: "search" }, { action: "search", query: "  " }]) {
    const a = injector.route(args);
    if (a.action !== "search") throw new Error(a.action);
    deepEqual(a.matches, []);
    equal(a.miss?.why, "empty_query");
    match(a.toolResult, /github: 1 tool/);
    match(a.toolResult, /Next: send "query"/);
  }
});

Deno.test("route() explains a search that matches nothing", () => {
  const a = injector.route({ action: "search", query: "zzzqqq" });
  if (a.action !== "search") throw new Error(a.action);
  equal(a.miss?.why, "no_match");
  match(a.toolResult, /No tool matches/);
  match(a.toolResult, /slack: 1 tool/);
});

Deno.test("route() rejects an overlong query with a hint", () => {
  const e = error(
    injector.route({ action: "search", query: "x ".repeat(4001) }),
    "invalid_arguments",
  );
  match(e.message, /longer than 8000 characters: search with the request.s first sentences/);
});

Deno.test("route() ranks any request up to MAX_QUERY_CHARS code points, a pasted task whole", () => {
  const task = "Open an issue about the failing build. ".repeat(300).slice(0, MAX_QUERY_CHARS);
  const a = injector.route({ action: "search", query: task });
  equal(a.action, "search");
  equal(a.action === "search" && a.matches[0]?.id, "github/create_issue");
  // Code points, not UTF-16 units: 8,000 characters outside the BMP are one query too.
  equal(injector.route({ action: "search", query: "🔎".repeat(MAX_QUERY_CHARS) }).action, "search");
  equal(
    injector.route({ action: "search", query: "🔎".repeat(MAX_QUERY_CHARS + 1) }).action,
    "error",
  );
  equal(DEFAULT_CONFIG.maxQueryChars, MAX_QUERY_CHARS);
});

Deno.test("route() describes a tool with its exact, unmodified schema", () => {
  const a = injector.route({ action: "describe", name: "github/create_issue" });
  if (a.action !== "describe") throw new Error(a.action);
  equal(a.id, "github/create_issue");
  equal(a.tool, catalog.get("github/create_issue"));
  equal(a.tool.inputSchema, catalog.get("github/create_issue")?.inputSchema);
  match(
    a.toolResult,
    /Input schema: \{"type":"object","properties":\{"title":\{"type":"string"\}\}\}/,
  );
});

Deno.test("route() resolves an execute to the catalogue's tool and the given arguments", () => {
  const a = injector.route({
    action: "execute",
    name: " slack/post_message ",
    arguments: { channel: "x" },
  });
  deepEqual(a, {
    action: "execute",
    id: "slack/post_message",
    tool: catalog.get("slack/post_message"),
    arguments: { channel: "x" },
  });
  const b = injector.route({ action: "execute", name: "slack/post_message" });
  if (b.action !== "execute") throw new Error(b.action);
  deepEqual(b.arguments, {});
});

Deno.test("route() accepts the model's raw JSON string, and arguments given as a JSON string", () => {
  const a = injector.route('{"action":"execute","name":"maps/geocode","arguments":"{\\"q\\":1}"}');
  if (a.action !== "execute") throw new Error(a.action);
  deepEqual(a.arguments, { q: 1 });
  equal(injector.route('{"action":"search","query":"issue"}').action, "search");
});

Deno.test("route() treats null fields as absent", () => {
  const a = injector.route({
    action: "execute",
    name: "maps/geocode",
    arguments: null,
    query: null,
  });
  equal(a.action, "execute");
});

Deno.test("route() reports invalid JSON with an example of the right shape", () => {
  const e = error(injector.route('{"action": "search", '), "invalid_json");
  match(e.message, /not valid JSON/);
  match(e.message, /\{"action":"search","query":"what you need"\}/);
});

Deno.test("route() reports a missing or unknown action", () => {
  match(error(injector.route({}), "invalid_arguments").message, /"action" is required/);
  match(error(injector.route(""), "invalid_arguments").message, /"action" is required/);
  match(
    error(injector.route({ action: "run" }), "invalid_arguments").message,
    /one of "search", "describe", "execute"/,
  );
  for (const args of [null, 42, [], "[1]", "true"]) {
    match(
      error(injector.route(args), "invalid_arguments").message,
      /JSON object/,
      JSON.stringify(args),
    );
  }
});

Deno.test("route() reports fields of the wrong type", () => {
  match(
    error(injector.route({ action: "search", query: 5 }), "invalid_arguments").message,
    /"query" must be a string/,
  );
  for (const limit of [0, -1, 1.5, "x", true]) {
    match(
      error(injector.route({ action: "search", query: "a", limit }), "invalid_arguments").message,
      /"limit" must be a positive integer/,
    );
  }
  match(
    error(
      injector.route({ action: "execute", name: "maps/geocode", arguments: [1] }),
      "invalid_arguments",
    ).message,
    /"arguments" must be an object/,
  );
  match(
    error(
      injector.route({ action: "execute", name: "maps/geocode", arguments: "{oops" }),
      "invalid_arguments",
    ).message,
    /"arguments" must be an object/,
  );
});

Deno.test("route() tells the model to put tool arguments inside arguments", () => {
  const e = error(
    injector.route({ action: "execute", name: "maps/geocode", address: "x" }),
    "invalid_arguments",
  );
  match(e.message, /unknown field "address".*inside "arguments"/);
});

Deno.test("route() requires a name for describe and execute", () => {
  for (const action of ["describe", "execute"]) {
    match(
      error(injector.route({ action }), "invalid_arguments").message,
      new RegExp(`"name" is required for ${action}`),
    );
    error(injector.route({ action, name: " " }), "invalid_arguments");
  }
});

Deno.test("route() answers a bare name with the ids that end in it", () => {
  match(
    error(injector.route({ action: "describe", name: "geocode" }), "unknown_tool").message,
    /use "maps\/geocode"/,
  );
  const e = error(injector.route({ action: "execute", name: "create_issue" }), "unknown_tool");
  match(e.message, /one of "github\/create_issue", "gitlab\/create_issue"/);
});

Deno.test("route() suggests near ids of this catalogue for a mistyped or foreign id", () => {
  match(
    error(injector.route({ action: "describe", name: "maps/gecode" }), "unknown_tool").message,
    /Closest ids: "maps\/geocode"/,
  );
  match(
    error(injector.route({ action: "describe", name: "jira/post_mesage" }), "unknown_tool").message,
    /"slack\/post_message"/,
  );
});

Deno.test("route() says first that an id's server does not exist, then the closest ids", () => {
  const message =
    error(injector.route({ action: "describe", name: "mapz/geocode" }), "unknown_tool")
      .message;
  match(
    message,
    /^there is no tool "mapz\/geocode" in this catalogue\. The server "mapz" does not exist here\. Closest ids: "maps\/geocode"/,
  );
  const known = error(injector.route({ action: "describe", name: "maps/gecode" }), "unknown_tool");
  ok(!known.message.includes("does not exist"), known.message);
});

Deno.test("route() never names a tool from outside the catalogue", () => {
  const e = error(
    injector.route({ action: "execute", name: "filesystem/read_file" }),
    "unknown_tool",
  );
  match(e.message, /no tool "filesystem\/read_file" in this catalogue/);
  for (const id of ["filesystem/", "read_text_file", "github/get_issue"]) {
    ok(!e.message.includes(id) || id === "filesystem/", id);
  }
  const ids = [...e.message.matchAll(/"([^"]+\/[^"]+)"/g)].map((m) => m[1]).filter((id) =>
    id !== "filesystem/read_file"
  );
  for (const id of ids) ok(catalog.get(id!) !== undefined, `${id} is in the catalogue`);
});

Deno.test("route() never throws on hostile input", () => {
  const inputs: unknown[] = [
    undefined,
    Symbol("x"),
    () => 1,
    { action: "search", query: "\u0000".repeat(10) },
    { action: "describe", name: "x".repeat(100_000) },
    { action: "execute", name: "maps/geocode", arguments: { __proto__: { polluted: true } } },
    "{".repeat(10_000),
    JSON.stringify({ action: "search", query: "a", limit: 1e308 }),
  ];
  for (const input of inputs) ok(typeof injector.route(input).action === "string");
  equal(({} as Record<string, unknown>).polluted, undefined);
});
