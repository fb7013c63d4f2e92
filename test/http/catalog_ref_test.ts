import { deepEqual, equal, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { realServerTools, tool } from "../_data.ts";
import { client } from "./_client.ts";

const tools = realServerTools();
const search = { action: "search", query: "take a screenshot of the page" };

function setup(tokens: string[] = []) {
  const app = createApp({ store: new MemorySessionStore(), settings: { tokens } });
  return (token?: string) =>
    client((path, init) => Promise.resolve(app.request(path, init)), token);
}

Deno.test("a catalogue sent once is used by reference: same answers, a body of a few hundred bytes", async () => {
  const api = setup()();
  const byValue = await api.post("/v1/route", { catalog: tools, arguments: search });
  equal(byValue.status, 200);
  const ref = byValue.body.catalogHash as string;
  ok(/^[0-9a-f]{64}$/.test(ref));
  const request = { catalogRef: ref, arguments: search };
  ok(JSON.stringify(request).length < 200);
  const byRef = await api.post("/v1/route", request);
  equal(byRef.status, 200);
  deepEqual(byRef.body, byValue.body);
  const inject = await api.post("/v1/inject", { catalogRef: ref });
  equal(inject.body.catalogHash, ref);
  equal(inject.body.injection.inventory.toolCount, tools.length);
});

Deno.test("the reference names the servers too, and a session keeps its generation across both forms", async () => {
  const api = setup()();
  const servers = [{ server: "slack", title: "Slack", description: "Team chat." }];
  const catalog = [tool("slack", "post_message", "Post"), tool("github", "create_issue", "Create")];
  const first = await api.post("/v1/inject", { catalog, servers, session: "s1" });
  const ref = first.body.catalogHash;
  const names = await api.post("/v1/inject", {
    catalogRef: ref,
    session: "s1",
    options: { disclosure: ["names"] },
  });
  ok(names.body.injection.prompt.includes('"Slack: Team chat."'));
  await api.post("/v1/route", { catalog, servers, session: "s1", arguments: search });
  const session = await api.get("/v1/sessions/s1");
  equal(session.body.catalogHash, ref);
  equal(session.body.generation, 1);
  const without = await api.post("/v1/inject", { catalog });
  ok(without.body.catalogHash !== ref, "without its servers it is another catalogue");
});

Deno.test("an unknown reference is 409 catalog_unknown; a malformed one, or one with a catalogue, 400", async () => {
  const api = setup()();
  const unknown = await api.post("/v1/route", { catalogRef: "ab".repeat(32), arguments: search });
  equal(unknown.status, 409);
  equal(unknown.body.code, "catalog_unknown");
  deepEqual(unknown.body.errors.map((e: { pointer: string }) => e.pointer), ["/catalogRef"]);
  const malformed = await api.post("/v1/inject", { catalogRef: "not a hash" });
  equal(malformed.status, 400);
  equal(malformed.body.errors[0].pointer, "/catalogRef");
  const ref = (await api.post("/v1/inject", { catalog: tools })).body.catalogHash;
  const both = await api.post("/v1/inject", { catalog: tools, catalogRef: ref });
  equal(both.status, 400);
  equal(both.body.errors[0].pointer, "/catalogRef");
  const withServers = await api.post("/v1/inject", { catalogRef: ref, servers: [] });
  equal(withServers.status, 422);
  equal(withServers.body.errors[0].pointer, "/servers");
  const neither = await api.post("/v1/inject", {});
  equal(neither.status, 400);
  equal(neither.body.detail, "/catalog: is required");
});

Deno.test("with auth on, a tenant's catalogue is unknown to every other tenant (a hash alone never reads another's tools)", async () => {
  const as = setup(["token-a", "token-b"]);
  const a = as("token-a");
  const b = as("token-b");
  const ref = (await a.post("/v1/inject", { catalog: tools })).body.catalogHash;
  equal((await a.post("/v1/route", { catalogRef: ref, arguments: search })).status, 200);
  const stranger = await b.post("/v1/route", { catalogRef: ref, arguments: search });
  equal(stranger.status, 409);
  equal(stranger.body.code, "catalog_unknown");
  // B sending the same catalogue builds its own copy: the same hash, now known to B as well.
  equal((await b.post("/v1/inject", { catalog: tools })).body.catalogHash, ref);
  equal((await b.post("/v1/route", { catalogRef: ref, arguments: search })).status, 200);
});

Deno.test("a body read by its catalogue's text answers as if parsed whole: formatting, order, repeated keys", async () => {
  const api = setup()();
  const catalog = [tool("s", "alpha", "First tool"), tool("s", "beta", "Second tool")];
  const other = [tool("s", "gamma", "Third tool")];
  const describe = { action: "describe", name: "s/alpha" };
  const compact = await api.post("/v1/route", { catalog, arguments: describe });
  equal(compact.body.action, "describe");
  const text = JSON.stringify(catalog);
  const variants = [
    `{"arguments":${JSON.stringify(describe)},"catalog":${text}}`,
    `\n{ "catalog" :\t${JSON.stringify(catalog, null, 2)} ,\r\n "arguments": ${
      JSON.stringify(describe)
    } }\n`,
  ];
  for (const body of variants) {
    deepEqual((await api.post("/v1/route", body)).body, compact.body, body);
  }
  // JSON.parse keeps the last of repeated keys, whatever their spelling: so does the API.
  const repeated = `{"catalog":${text},"c\\u0061talog":${JSON.stringify(other)},"arguments":${
    JSON.stringify(describe)
  }}`;
  const answer = await api.post("/v1/route", repeated);
  equal(answer.body.action, "error");
  equal(answer.body.error.code, "unknown_tool");
  const twice = `{"catalog":${JSON.stringify(other)},"catalog":${text},"arguments":${
    JSON.stringify(describe)
  }}`;
  equal((await api.post("/v1/route", twice)).body.action, "describe");
  const plain = await api.call("POST", "/v1/route", variants[0], { "content-type": "text/plain" });
  equal(plain.status, 415);
  // A cached catalogue's text inside a malformed body is still a malformed body.
  const broken = `{"catalog":${text},"arguments":${JSON.stringify(describe)}`;
  equal((await api.post("/v1/route", broken)).body.code, "invalid_json");
  const badRest = `{"catalog":${text},"arguments":${JSON.stringify(describe)},"budjet":{}}`;
  equal((await api.post("/v1/route", badRest)).body.detail.startsWith("/budjet"), true);
});
