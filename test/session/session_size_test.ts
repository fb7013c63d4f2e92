// Session memory capped in bytes, in the pure transition that every store applies: a long name
// cannot grow it (names are capped), and a session that reaches MAX_SESSION_BYTES forgets the
// schemas it sent longest ago instead of refusing every later describe (sessions never dead-end).
import { deepEqual, equal, ok } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";
import { MemorySessionStore, routeInSession } from "../../src/session/mod.ts";
import { createApp } from "../../src/http/app.ts";
import { MAX_NAME_CHARS, MAX_SESSION_BYTES } from "../../src/limits.ts";
import { sessionBytes, transition } from "../../src/session/state.ts";
import { client } from "../http/_client.ts";
import { longDescribe } from "../_data.ts";

// Describes per test: a session of long names fills MAX_SESSION_BYTES after about 380 of them, so
// this many crosses the cap and keeps forgetting for more than a hundred more, each describe of
// the full session forgetting again (each costs a copy and a serialisation of the session, so
// more of them only cost time).
const DESCRIBES = 500;
// Describes of a full session, each of which must forget: at least this many.
const PAST_THE_CAP = 100;

// Tools with names as long as MCP allows: each describe adds its id and hashes to the state.
function longTools(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    server: "s",
    name: `${i}`.padStart(MAX_NAME_CHARS, "n"),
    description: "",
    inputSchema: { type: "object", properties: { [`p${i}`]: { type: "string" } } },
  }));
}

Deno.test("a full session forgets its oldest records and keeps describing within MAX_SESSION_BYTES", () => {
  let state = transition(undefined, { catalogHash: "c", event: { kind: "inject" } }, 0).state;
  for (let i = 0; i < DESCRIBES; i++) {
    const next = transition(state, { catalogHash: "c", event: longDescribe(i) }, i);
    deepEqual(next.decision, { kind: "describe", elided: false });
    state = next.state;
    ok(sessionBytes(state) <= MAX_SESSION_BYTES);
  }
  const ids = Object.keys(state.described);
  ok(ids.length > 100 && ids.length <= DESCRIBES - PAST_THE_CAP, `${ids.length} ids remembered`);
  // The newest are remembered, the oldest forgotten: describing the first again sends it again.
  equal(ids.at(-1), `s/${`${DESCRIBES - 1}`.padStart(MAX_NAME_CHARS, "n")}`);
  const again = transition(state, { catalogHash: "c", event: longDescribe(0) }, 3_000);
  deepEqual(again.decision, { kind: "describe", elided: false });
  const recent = transition(state, { catalogHash: "c", event: longDescribe(DESCRIBES - 1) }, 3_000);
  deepEqual(recent.decision, { kind: "describe", elided: true });
  equal(state.counters.describes, DESCRIBES);
});

Deno.test("a schema described again is remembered as recently used", () => {
  let state = transition(undefined, { catalogHash: "c", event: longDescribe(0) }, 0).state;
  for (let i = 1; i < DESCRIBES; i++) {
    // Tool 0 is asked for again every few describes: it is never the oldest record.
    const event = i % 50 === 0 ? longDescribe(0) : longDescribe(i);
    state = transition(state, { catalogHash: "c", event }, i).state;
  }
  const zero = longDescribe(0);
  ok(zero.kind === "describe" && state.described[zero.id] !== undefined);
  deepEqual(transition(state, { catalogHash: "c", event: zero }, 3_000).decision, {
    kind: "describe",
    elided: true,
  });
});

Deno.test("describes past MAX_SESSION_BYTES on one session through routeInSession all get their schemas", async () => {
  const injector = new Injector(new McpCatalog(longTools(DESCRIBES)));
  const store = new MemorySessionStore();
  const options = { store, key: { tenant: "", session: "s1" }, catalogHash: "c" };
  for (const tool of injector.catalog.tools) {
    const routed = await routeInSession(injector, { action: "describe", name: `s/${tool.name}` }, {
      ...options,
    });
    ok(routed.ok);
    const result = routed.value;
    equal(result.action, "describe");
    equal(result.action === "describe" && result.elided, false, `s/${tool.name} elided`);
  }
  ok(sessionBytes(store.get(options.key)!) <= MAX_SESSION_BYTES);
  ok(Object.keys(store.get(options.key)!.described).length <= DESCRIBES - PAST_THE_CAP);
  // The first tool was forgotten: its execute asks for a describe first and carries the schema.
  const first = injector.catalog.tools[0]!;
  const routed = await routeInSession(
    injector,
    { action: "execute", name: `s/${first.name}`, arguments: {} },
    options,
  );
  ok(routed.ok);
  const execute = routed.value;
  equal(execute.action, "error");
  equal(execute.action === "error" && execute.code, "describe_first");
});

Deno.test("over HTTP a session keeps answering describes past MAX_SESSION_BYTES; a 1 MB name is refused", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const api = client((path, init) => Promise.resolve(app.request(path, init)));
  const huge = await api.post("/v1/inject", {
    session: "big",
    catalog: [{ server: "s", name: "n".repeat(1 << 20), inputSchema: { type: "object" } }],
  });
  equal(huge.status, 422);
  equal(huge.body.code, "invalid_catalog");
  const catalog = longTools(DESCRIBES);
  const first = await api.post("/v1/inject", { session: "s1", catalog });
  equal(first.status, 200);
  const catalogRef = first.body.catalogHash;
  for (const tool of catalog) {
    const response = await api.post("/v1/route", {
      session: "s1",
      ...(catalogRef === undefined ? { catalog } : { catalogRef }),
      arguments: { action: "describe", name: `s/${tool.name}` },
    });
    equal(response.status, 200, JSON.stringify(response.body));
    equal(response.body.action, "describe");
  }
  const info = await api.get("/v1/sessions/s1");
  equal(info.status, 200);
  ok(info.body.described.length <= DESCRIBES - PAST_THE_CAP);
  equal(info.body.counters.describes, DESCRIBES);
});

Deno.test("an event that moves only counters shares the records and keeps the size exact", () => {
  let state = transition(undefined, { catalogHash: "c", event: { kind: "inject" } }, 0).state;
  for (let i = 0; i < 300; i++) {
    state = transition(state, { catalogHash: "c", event: longDescribe(i) }, i).state;
  }
  const before = structuredClone(state);
  // No copy of the records per call: a search, a result, an error and an execute of a described
  // tool leave them as they were, and the state before is not modified.
  const events = [
    { kind: "search", empty: false },
    { kind: "result", isError: true },
    { kind: "error", code: "unknown_tool" },
  ] as const;
  let next = state;
  for (const [i, event] of events.entries()) {
    const moved = transition(next, { catalogHash: "c", event }, 10 ** (i + 6)).state;
    equal(moved.described, state.described);
    equal(moved.seen, state.seen);
    next = moved;
  }
  deepEqual(state, before);
  // Counters that grow a digit at a time, over a session at the cap: never past MAX_SESSION_BYTES.
  for (let i = 300; i < DESCRIBES; i++) {
    next = transition(next, { catalogHash: "c", event: longDescribe(i) }, i).state;
  }
  for (let i = 0; i < 2_000; i++) {
    const event = i % 3 === 0
      ? { kind: "error", code: `code_${i % 50}` } as const
      : { kind: "result", isError: true } as const;
    next = transition(next, { catalogHash: "c", event }, 10 ** 12 + i * 7_919).state;
    ok(sessionBytes(next) <= MAX_SESSION_BYTES, `${sessionBytes(next)} bytes after ${i} events`);
  }
});
