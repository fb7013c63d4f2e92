import { deepEqual, equal, match } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { tool } from "../_data.ts";
import { client } from "./_client.ts";

const schemas = httpSchemas(DEFAULT_SETTINGS);
const catalog = [
  tool("github", "create_issue", "Create an issue", { title: { type: "string" } }),
  tool("slack", "post_message", "Post a message to a channel", { channel: { type: "string" } }),
];

function api(settings = {}) {
  const app = createApp({ store: new MemorySessionStore(), settings });
  return client((path, init) => Promise.resolve(app.request(path, init)));
}

function isProblem(response: { status: number; headers: Headers; body: unknown }, code: string) {
  equal(response.headers.get("content-type"), "application/problem+json");
  equal(schemas.Problem.parse(response.body).code, code);
}

Deno.test("POST /v1/explain ranks a query with each tool's matched words, by reference too", async () => {
  const http = api();
  const first = await http.post("/v1/explain", { catalog, query: "post a message" });
  equal(first.status, 200, JSON.stringify(first.body));
  const body = schemas.ExplainResponse.parse(first.body);
  equal(body.results[0]?.id, "slack/post_message");
  deepEqual(body.results[0]?.matches.map((m) => m.kind), ["exact", "exact"]);
  const again = await http.post("/v1/explain", {
    catalogRef: body.catalogHash,
    query: "open an issue",
    id: "slack/post_message",
  });
  equal(again.status, 200, JSON.stringify(again.body));
  const target = schemas.ExplainResponse.parse(again.body).target!;
  equal(target.rank, null);
  match(target.reason, /^Not ranked/);
});

Deno.test("POST /v1/explain refuses an unknown id, an overlong query and a bad body as problems", async () => {
  const http = api({ maxQueryChars: 20 });
  const unknown = await http.post("/v1/explain", { catalog, query: "issue", id: "x/y" });
  equal(unknown.status, 400);
  isProblem(unknown, "invalid_request");
  match(unknown.body.detail, /^Cannot explain "x\/y": the tool is not in this catalogue/);
  const long = await http.post("/v1/explain", { catalog, query: "q".repeat(21) });
  equal(long.status, 400);
  isProblem(long, "invalid_request");
  deepEqual(long.body.errors[0].pointer, "/query");
  const empty = await http.post("/v1/explain", { catalog, query: "" });
  equal(empty.status, 400);
  isProblem(empty, "invalid_request");
  const bare = await http.post("/v1/explain", { catalog, query: "x", id: "bare" });
  equal(bare.status, 400);
  isProblem(bare, "invalid_request");
  const none = await http.post("/v1/explain", { query: "x" });
  isProblem(none, "invalid_request");
});

Deno.test("POST /v1/explain is in the OpenAPI document with its request and response", async () => {
  const doc = (await api().get("/openapi.json")).body;
  const op = doc.paths["/v1/explain"].post;
  equal(
    op.requestBody.content["application/json"].schema.$ref,
    "#/components/schemas/ExplainRequest",
  );
  equal(
    op.responses["200"].content["application/json"].schema.$ref,
    "#/components/schemas/ExplainResponse",
  );
});

Deno.test("the API answers a page it served itself (same origin on loopback), not a rebinding one", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const post = (url: string, origin: string) =>
    app.request(url, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ catalog, query: "issue" }),
    });
  equal((await post("http://127.0.0.1:8787/v1/explain", "http://127.0.0.1:8787")).status, 200);
  equal(
    (await post("http://evil.example:8787/v1/explain", "http://evil.example:8787")).status,
    403,
  );
  equal((await post("http://127.0.0.1:8787/v1/explain", "http://localhost:8787")).status, 403);
});
