/**
 * The HTTP API's warm path against its floor (parsing the body), measured in the same run: a warm
 * `/v1/route` search with the 228-tool catalogue in the body, and by reference, against
 * `JSON.parse` of that body; `inject()` at 10,000 tools against `JSON.parse` of that catalogue's
 * body. In process (`app.request`), as a host embedding the app calls it. Deno's summary prints each
 * as a ratio to its baseline.
 *
 * Run: `deno task bench` (or `deno bench --allow-read --allow-env bench/http_bench.ts`)
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Injector, McpCatalog, type McpTool } from "../mod.ts";
import { createApp } from "../src/http/app.ts";
import { MemorySessionStore } from "../src/session/memory_store.ts";
import { liveMcpBenchOf, realServers, SEARCH } from "./_catalogues.ts";

const app = createApp({ store: new MemorySessionStore() });
const post = async (body: string) => {
  const response = await app.request("/v1/route", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${text.slice(0, 300)}`);
  return text;
};

const real = realServers();
const byValue = JSON.stringify({ catalog: real.tools, arguments: SEARCH });
const ref = JSON.parse(await post(byValue)).catalogHash as string;
const byRef = JSON.stringify({ catalogRef: ref, arguments: SEARCH });
const KIB = 1024;
console.log(
  `by reference: a ${byRef.length}-byte request body (${
    (byRef.length / (2 * KIB)).toFixed(3)
  } x the 2 KiB target), ${(byRef.length / byValue.length).toFixed(4)} x the ${
    (byValue.length / KIB).toFixed(0)
  } KiB by-value body (target <= 0.2 x)`,
);

Deno.bench({
  name: `JSON.parse of the by-value body (${real.tools.length} tools)`,
  group: "warm route",
  baseline: true,
  fn: () => {
    JSON.parse(byValue);
  },
});
Deno.bench({
  name: "POST /v1/route search, catalogue in the body (warm)",
  group: "warm route",
  fn: async () => {
    await post(byValue);
  },
});
Deno.bench({
  name: "POST /v1/route search, catalogRef (warm)",
  group: "warm route",
  fn: async () => {
    await post(byRef);
  },
});

// 10,000 tools: the first inject() on a catalogue (a new one each time, built outside the timing).
const large = liveMcpBenchOf(10_000);
const largeBody = JSON.stringify({ catalog: large.tools, servers: large.servers });
const validated = new McpCatalog(large.tools, { servers: large.servers });
Deno.bench({
  name: `JSON.parse of the by-value body (${large.tools.length} tools)`,
  group: "inject 10k",
  baseline: true,
  n: 30,
  fn: () => {
    JSON.parse(largeBody);
  },
});
Deno.bench({
  name: `inject() on a fresh catalogue (${large.tools.length} tools, default budget)`,
  group: "inject 10k",
  n: 30,
  fn: (b) => {
    // The same tools, already validated: a new catalogue without validating them again.
    const tools = validated.tools.map((tool) => ({ ...tool })) as readonly McpTool[];
    const injector = new Injector(
      McpCatalog.restore(tools as McpCatalog["tools"], { servers: validated.servers }),
    );
    b.start();
    injector.inject();
    b.end();
  },
});
