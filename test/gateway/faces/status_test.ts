import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Gateway } from "../../../src/gateway/gateway.ts";
import { CountingStore, statusHandler } from "../../../src/gateway/faces/status.ts";
import type { UpstreamPool, UpstreamStatus } from "../../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../../src/session/memory_store.ts";
import { tool } from "../../_data.ts";

// A pool of one ready upstream and one that failed: the states a real gateway reports, without
// starting servers (the browser tests do that).
function pool(statuses: UpstreamStatus[]): UpstreamPool {
  return {
    tools: () => [
      tool("files", "read_file", "Read a file", { path: { type: "string" } }),
      tool("files", "write_file", "Write a file", { path: { type: "string" } }),
    ],
    statuses: () => statuses,
    forward: () => Promise.reject(new Error("unused")),
    onChange: () => () => {},
    close: () => Promise.resolve(),
  };
}

async function handler(statuses: UpstreamStatus[] = []) {
  const store = new CountingStore(new MemorySessionStore());
  const gateway = await Gateway.open(pool(statuses), { options: { pinned: [] }, store });
  const handle = statusHandler({
    gateway,
    options: { pinned: [] },
    counters: store.counters,
    maxQueryChars: 50,
  });
  return { handle, store, get: (path: string) => handle(new Request(`http://127.0.0.1${path}`)) };
}

Deno.test("GET /status carries each upstream's state, reason, tools and definition tokens", async () => {
  const { get } = await handler([
    { server: "files", state: "ready", tools: 2 },
    { server: "gone", state: "lost", detail: "exited with code 1", tools: 0 },
  ]);
  const status = await (await get("/status")).json();
  equal(status.face, "gateway");
  equal(status.tools, 2);
  deepEqual(status.servers.map((s: { server: string; state: string }) => [s.server, s.state]), [
    ["files", "ready"],
    ["gone", "lost"],
  ]);
  equal(status.servers[1].reason, "exited with code 1");
  ok(status.servers[0].definitionTokens > 0);
  equal(status.servers[1].definitionTokens, 0);
  equal(status.counters.searches, 0);
  // Where the page's "Context tokens" starts: the config's size, else the injector's default.
  equal(status.availableContextTokens, 100_000);
});

Deno.test("GET /status shows a lazy server that is not running as stopped, with its listed tools", async () => {
  const { get } = await handler([{ server: "files", state: "stopped", tools: 2, snapshot: true }]);
  const status = await (await get("/status")).json();
  deepEqual(
    status.servers.map((s: { server: string; state: string; tools: number }) => [
      s.server,
      s.state,
      s.tools,
    ]),
    [["files", "stopped", 2]],
  );
  equal(status.servers[0].reason, undefined);
  ok(status.servers[0].definitionTokens > 0);
});

Deno.test("GET /view gives the level and what the host gets at a context size", async () => {
  const { get } = await handler([{ server: "files", state: "ready", tools: 2 }]);
  const view = await (await get("/view?context=100000")).json();
  equal(view.level, "manifest");
  equal(view.tools[0].name, "mcp");
  match(view.tools[0].description, /files\/read_file/);
  equal(view.costTokens, view.toolTokens + view.instructionTokens);
});

Deno.test("the gateway's page routes refuse bad input with problems, never a 5xx", async () => {
  const { handle, get } = await handler();
  for (
    const path of [
      "/view",
      "/view?context=0",
      "/view?context=1.5",
      "/view?context=1e300",
      "/explain",
      `/explain?query=${"q".repeat(51)}`,
      "/explain?query=read&limit=0",
      "/explain?query=read&limit=51",
      "/explain?query=read&id=nope/nope",
    ]
  ) {
    const response = await get(path);
    equal(response.status, 400, path);
    equal(response.headers.get("content-type"), "application/problem+json");
    equal((await response.json()).code, "invalid_request", path);
  }
  const post = await handle(new Request("http://127.0.0.1/status", { method: "POST" }));
  equal(post.status, 405);
  equal(post.headers.get("allow"), "GET");
  await post.body?.cancel();
});

Deno.test("GET /explain explains a search of the live catalogue", async () => {
  const { get } = await handler();
  const explained = await (await get("/explain?query=write&id=files/read_file")).json();
  equal(explained.results[0].id, "files/write_file");
  equal(explained.target.rank, null);
});

Deno.test("CountingStore sums searches, misses, describes and execute verdicts across sessions", async () => {
  const { store } = await handler();
  const a = { tenant: "", session: "a" };
  const b = { tenant: "", session: "b" };
  await store.apply(a, { event: { kind: "search", empty: false } });
  await store.apply(b, { event: { kind: "search", empty: true } });
  await store.apply(a, { event: { kind: "result", isError: true } });
  const execute = {
    kind: "execute",
    id: "files/read_file",
    schemaHash: "s",
    bodyHash: "b",
    enforce: true,
    valid: true,
  } as const;
  await store.apply(a, { catalogHash: "h", event: execute });
  await store.apply(a, { catalogHash: "h", event: execute });
  await store.apply(a, { event: { kind: "answer", tokens: 120, cut: true, more: false } });
  await store.apply(a, { event: { kind: "answer", tokens: 80, cut: false, more: true } });
  deepEqual(store.counters, {
    searches: 2,
    misses: 1,
    describes: 0,
    executes: 1,
    describeFirst: 1,
    invalidArguments: 0,
    upstreamFailures: 1,
    tokensReturned: 200,
    resultsCut: 1,
    moreCalls: 1,
  });
});
