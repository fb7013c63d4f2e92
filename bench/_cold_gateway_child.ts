/**
 * One fresh V8 isolate serving its first `/mcp` request with the built gateway Worker bundle (run
 * by `bench/cold_isolate.ts`, one process per measurement): a stateless 2026-07-28 `tools/list`,
 * which lists the HTTP upstream of `UNFOLD_UPSTREAMS` (a server in the benchmark's process) and
 * answers the bridge. CPU time: this thread's (the isolate's) from the call of the Worker's `fetch`
 * to its Response, the module's import apart; and the whole process's, an upper bound.
 *
 * Args: `<bundle.js> <upstream URL> <ranking data>`; prints one JSON line.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import process from "node:process";

const [bundle, upstream, assetsPath] = Deno.args as [string, string, string];
const assetBytes = Deno.readFileSync(assetsPath);
const env = {
  UNFOLD_UPSTREAMS: JSON.stringify({ mcpServers: { up: { url: upstream } } }),
  ASSETS: { fetch: () => Promise.resolve(new Response(assetBytes)) },
  // A stateless 2026-07-28 request keeps no session; the API Worker is not asked.
  SESSIONS: { idFromName: () => undefined, get: () => ({}) },
  API: { fetch: () => Promise.resolve(new Response("not here", { status: 404 })) },
};
(globalThis as Record<string, unknown>).workerEnv = env;
const request = () =>
  new Request("http://unfold.test/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/list",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1.0.0" },
          "io.modelcontextprotocol/clientCapabilities": {},
        },
      },
    }),
  });

// This thread's CPU time (the isolate's, as Workers count it), in ms.
const libc = Deno.dlopen("libc.so.6", {
  clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
});
const timespec = new BigInt64Array(2);
const threadMs = () => {
  libc.symbols.clock_gettime(3, timespec); // CLOCK_THREAD_CPUTIME_ID
  return Number(timespec[0]!) * 1e3 + Number(timespec[1]!) / 1e6;
};
const before = process.cpuUsage();
const threadBefore = threadMs();
const worker = (await import(bundle)).default;
const imported = process.cpuUsage(before);
const threadImported = threadMs();
const first = request();
const threadFetch = threadMs();
const response = await worker.fetch(first, env);
const text = await response.text();
const threadDone = threadMs();
const total = process.cpuUsage(before);
if (response.status !== 200 || !text.includes('"name":"mcp"')) {
  throw new Error(`${response.status}: ${text.slice(0, 500)}`);
}
const warmTimes: number[] = [];
for (let i = 0; i < 9; i++) {
  const warmRequest = request();
  const threadWarm = threadMs();
  await (await worker.fetch(warmRequest, env)).text();
  warmTimes.push(threadMs() - threadWarm);
}
const ms = (u: { user: number; system: number }) => (u.user + u.system) / 1000;
console.log(JSON.stringify({
  threadImportMs: threadImported - threadBefore,
  threadRequestMs: threadDone - threadFetch,
  requestMs: ms(total) - ms(imported),
  threadWarmMs: warmTimes.sort((a, b) => a - b)[4],
  ranker: response.headers.get("unfold-ranker"),
}));
