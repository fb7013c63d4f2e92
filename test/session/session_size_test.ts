// Session memory capped in bytes, in the pure transition that every store applies (issue 10,
// defect 6): a long name cannot grow it (names are capped) and many describes stop at
// MAX_SESSION_BYTES with session_full, the state unchanged.
import { equal, match, ok, rejects } from "node:assert/strict";
import { Injector, McpCatalog, MemorySessionStore, routeInSession } from "../../mod.ts";
import { SessionFullError } from "../../src/session/store.ts";
import { createApp } from "../../src/http/app.ts";
import { MAX_NAME_CHARS, MAX_SESSION_BYTES } from "../../src/limits.ts";
import { sessionBytes, transition } from "../../src/session/state.ts";
import { client } from "../http/_client.ts";
import { longDescribe } from "../_data.ts";

// Tools with names as long as MCP allows: each describe adds its id and hashes to the state.
function longTools(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    server: "s",
    name: `${i}`.padStart(MAX_NAME_CHARS, "n"),
    description: "",
    inputSchema: { type: "object" },
  }));
}

Deno.test("the transition refuses to grow a state past MAX_SESSION_BYTES and keeps it as it was", () => {
  let state = transition(undefined, { catalogHash: "c", event: { kind: "inject" } }, 0).state;
  let full = false;
  for (let i = 0; i < 2_000 && !full; i++) {
    const next = transition(state, { catalogHash: "c", event: longDescribe(i) }, i);
    if (next.decision.kind === "full") {
      full = true;
      equal(next.state, state);
      equal(next.decision.limit, MAX_SESSION_BYTES);
      ok(next.decision.bytes > MAX_SESSION_BYTES);
    }
    state = next.state;
    ok(sessionBytes(state) <= MAX_SESSION_BYTES);
  }
  ok(full, "the state never filled up");
  // A new catalogue clears what was described: the session works again.
  const fresh = transition(state, { catalogHash: "d", event: { kind: "inject" } }, 1);
  equal(fresh.decision.kind, "recorded");
  equal(Object.keys(fresh.state.described).length, 0);
});

Deno.test("routeInSession throws SessionFullError once describes fill the session", async () => {
  const injector = new Injector(new McpCatalog(longTools(1_000)));
  const store = new MemorySessionStore();
  const options = { store, key: { tenant: "", session: "s1" }, catalogHash: "c" };
  let described = 0;
  const describeAll = async () => {
    for (const tool of injector.catalog.tools) {
      await routeInSession(injector, { action: "describe", name: `s/${tool.name}` }, options);
      described++;
    }
  };
  await rejects(describeAll, SessionFullError);
  ok(described > 100 && described < 1_000, `${described} describes`);
  ok(sessionBytes(store.get(options.key)!) <= MAX_SESSION_BYTES);
});

Deno.test("over HTTP a full session is 409 session_full and a 1 MB name is refused at inject", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const api = client((path, init) => Promise.resolve(app.request(path, init)));
  const huge = await api.post("/v1/inject", {
    session: "big",
    catalog: [{ server: "s", name: "n".repeat(1 << 20), inputSchema: { type: "object" } }],
  });
  equal(huge.status, 422);
  equal(huge.body.code, "invalid_catalog");
  const catalog = longTools(1_000);
  let response;
  for (const tool of catalog) {
    response = await api.post("/v1/route", {
      session: "s1",
      catalog,
      arguments: { action: "describe", name: `s/${tool.name}` },
    });
    if (response.status !== 200) break;
  }
  equal(response!.status, 409, JSON.stringify(response!.body));
  equal(response!.body.code, "session_full");
  match(response!.body.detail, /MAX_SESSION_BYTES/);
  const info = await api.get("/v1/sessions/s1");
  equal(info.status, 200);
  ok(info.body.described.length < 1_000);
});
