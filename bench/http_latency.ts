/**
 * Latency of `POST /v1/route` (search) with the 14-server catalogue (228 tools, ~380 KB per
 * request) through the real deployments: the Worker in `wrangler dev` (local workerd) and
 * `deno task start`. A bounded sequential loop on 127.0.0.1.
 *
 * Run: `deno run -A bench/http_latency.ts [requests=300]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { realServerTools } from "../test/_data.ts";
import { type Running, startDenoServer, startWrangler } from "../test/e2e/_processes.ts";

const requests = Number(Deno.args[0] ?? 300);
const JSON_BODY = { "content-type": "application/json" };
const catalog = realServerTools();
const queries = [
  "take a screenshot of the page",
  "create a github issue",
  "post a message to slack",
  "read a file",
  "query the database",
  "search the web",
];

async function measure(name: string, running: Running): Promise<void> {
  try {
    const body = (i: number) =>
      JSON.stringify({
        catalog,
        arguments: { action: "search", query: queries[i % queries.length] },
      });
    for (let i = 0; i < 20; i++) {
      await (await fetch(`${running.url}/v1/route`, {
        method: "POST",
        headers: JSON_BODY,
        body: body(i),
      }))
        .arrayBuffer();
    }
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const text = body(i);
      const t0 = performance.now();
      const response = await fetch(`${running.url}/v1/route`, {
        method: "POST",
        headers: JSON_BODY,
        body: text,
      });
      await response.arrayBuffer();
      times.push(performance.now() - t0);
      if (!response.ok) throw new Error(`status ${response.status}`);
    }
    times.sort((a, b) => a - b);
    const at = (p: number) =>
      times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
    const mean = (times.reduce((a, b) => a + b, 0) / times.length).toFixed(1);
    console.log(`| ${name} | ${requests} | ${at(0.5)} | ${at(0.99)} | ${mean} |`);
  } finally {
    await running.close();
  }
}

console.log(`POST /v1/route search, ${catalog.length}-tool catalogue, sequential, 127.0.0.1`);
console.log(
  "| deployment | requests | p50 ms | p99 ms | mean ms |\n| --- | ---: | ---: | ---: | ---: |",
);
await measure("Worker (wrangler dev, workerd)", await startWrangler());
await measure("Deno (deno task start)", await startDenoServer());
