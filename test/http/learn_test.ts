import { deepEqual, equal, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { Learning } from "../../src/session/learned.ts";
import { MAX_QUERY_CHARS } from "../../src/limits.ts";
import { tool } from "../_data.ts";
import { client } from "./_client.ts";

const schemas = httpSchemas(DEFAULT_SETTINGS);
const catalog = [
  tool("repo", "publish", "Publish a version"),
  tool("repo", "list_notes", "List the notes"),
];
const OK = { content: [{ type: "text", text: "done" }] };

function api(tokens: string[] = []) {
  const app = createApp({
    store: new MemorySessionStore(),
    learning: new Learning(undefined),
    ...(tokens.length === 0 ? {} : { settings: { tokens } }),
  });
  const send = (path: string, init?: RequestInit) => Promise.resolve(app.request(path, init));
  return (token?: string) => client(send, token);
}

const search = async (http: ReturnType<ReturnType<typeof api>>, query: string, extra = {}) => {
  const routed = await http.post("/v1/route", {
    catalog,
    session: "later",
    arguments: { action: "search", query },
    ...extra,
  });
  equal(routed.status, 200, JSON.stringify(routed.body));
  return (routed.body.matches as { id: string }[]).map((m) => m.id);
};

// A session searches, then the host runs the tool and posts its result.
async function ran(
  http: ReturnType<ReturnType<typeof api>>,
  query: string,
  id: string,
  result: unknown = OK,
  extra = {},
  session = "first",
) {
  await http.post("/v1/route", {
    catalog,
    session,
    arguments: { action: "search", query },
    ...extra,
  });
  const posted = await http.post("/v1/result", { session, tool: id, result });
  equal(posted.status, 200, JSON.stringify(posted.body));
}

Deno.test("the HTTP API's sessions learn: a tool the host ran rises for that tenant, and /v1/explain says so", async () => {
  const as = api(["token-a", "token-b"]);
  const a = as("token-a");
  deepEqual(await search(a, "release notes"), ["repo/list_notes"]);
  await ran(a, "ship the release notes", "repo/publish");
  deepEqual(await search(a, "release notes"), ["repo/list_notes", "repo/publish"]);
  // Another tenant learned nothing.
  deepEqual(await search(as("token-b"), "release notes"), ["repo/list_notes"]);
  const explained = await a.post("/v1/explain", { catalog, query: "release notes" });
  equal(explained.status, 200, JSON.stringify(explained.body));
  const body = schemas.ExplainResponse.parse(explained.body);
  deepEqual(body.results[1]?.learned, { share: 0.5, rankWithout: null });
  equal(body.results[0]?.learned, undefined);
});

Deno.test("the HTTP API does not learn from a failed result, nor with options.learn false", async () => {
  const http = api()();
  await ran(http, "ship the release notes", "repo/publish", {
    content: [{ type: "text", text: "no" }],
    isError: true,
  });
  deepEqual(await search(http, "release notes"), ["repo/list_notes"]);
  await ran(
    http,
    "ship the release notes",
    "repo/publish",
    OK,
    { options: { learn: false } },
    "s2",
  );
  deepEqual(await search(http, "release notes"), ["repo/list_notes"]);
  // Learned, then asked not to use it.
  await ran(http, "ship the release notes", "repo/publish", OK, {}, "s3");
  deepEqual(await search(http, "release notes"), ["repo/list_notes", "repo/publish"]);
  deepEqual(await search(http, "release notes", { options: { learn: false } }), [
    "repo/list_notes",
  ]);
  const bad = await http.post("/v1/route", {
    catalog,
    arguments: { action: "search", query: "x" },
    options: { learn: "no" },
  });
  equal(bad.status, 422);
});

Deno.test("POST /v1/route and /v1/explain rank a request of MAX_QUERY_CHARS characters, refuse one more", async () => {
  const http = api()();
  const task = `Please list the notes. ${"Some context about the project. ".repeat(300)}`
    .slice(0, MAX_QUERY_CHARS);
  const routed = await http.post("/v1/route", {
    catalog,
    arguments: { action: "search", query: task },
  });
  equal(routed.status, 200);
  equal(routed.body.action, "search");
  equal(routed.body.matches[0].id, "repo/list_notes");
  const long = await http.post("/v1/route", {
    catalog,
    arguments: { action: "search", query: `${task}x` },
  });
  equal(long.body.action, "error");
  ok(String(long.body.toolResult).includes(`longer than ${MAX_QUERY_CHARS} characters`));
  equal((await http.post("/v1/explain", { catalog, query: task })).status, 200);
  equal((await http.post("/v1/explain", { catalog, query: `${task}x` })).status, 400);
});
