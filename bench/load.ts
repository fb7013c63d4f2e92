/**
 * Load on the real deployments, `deno task start` and the Worker in `wrangler dev` (local workerd),
 * one after the other: `POST /v1/route` searches over the 228-tool catalogue, by value and by
 * reference, at concurrency 1, 8 and 32, with `GET /healthz` as the floor (what any request costs). Each cell is bounded by a count and a time; it reports
 * requests per second, p50 and p99 latency, and the server's CPU time per request (its whole
 * process tree from /proc; for wrangler dev also workerd's alone, without wrangler's local proxy).
 *
 * Run: `deno run -A bench/load.ts [requests=400] [seconds=20]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { type Running, startDenoServer, startWrangler } from "../test/e2e/_processes.ts";
import { realServers } from "./_catalogues.ts";

const requests = Number(Deno.args[0] ?? 400);
const seconds = Number(Deno.args[1] ?? 20);
const CONCURRENCY = [1, 8, 32];
const WARM_UP = 20;
const TICK_MS = 10; // CLK_TCK 100: /proc times are in hundredths of a second
const QUERIES = [
  "take a screenshot of the page",
  "create a github issue",
  "post a message to slack",
  "read a file",
  "query the database",
  "search the web",
];

const { tools } = realServers();
const headers = { "content-type": "application/json" };

// CPU ms of a process and its descendants (and of those named `only`, when given).
function treeCpuMs(root: number, only?: string): number {
  const stats = new Map<number, { ppid: number; comm: string; ticks: number }>();
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      stats.set(Number(entry.name), {
        ppid: Number(fields[1]),
        comm,
        ticks: Number(fields[11]) + Number(fields[12]), // utime + stime
      });
    } catch { /* gone */ }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p !== undefined && p > 1; p = stats.get(p)?.ppid) {
      if (p === root) return true;
    }
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) {
    if (inTree(pid) && (only === undefined || stat.comm === only)) ticks += stat.ticks;
  }
  return ticks * TICK_MS;
}

async function cell(
  running: Running,
  body: ((i: number) => string) | undefined,
  concurrency: number,
): Promise<{ done: number; elapsed: number; latencies: number[]; cpu: number; workerd: number }> {
  // A route search, or without a body GET /healthz: the floor, what the runtime (and wrangler's
  // proxy) spend on any request.
  const post = async (i: number) => {
    const t0 = performance.now();
    const response = body === undefined
      ? await fetch(`${running.url}/healthz`)
      : await fetch(`${running.url}/v1/route`, { method: "POST", headers, body: body(i) });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`status ${response.status}`);
    return performance.now() - t0;
  };
  for (let i = 0; i < WARM_UP; i++) await post(i);
  const latencies: number[] = [];
  const cpu0 = treeCpuMs(running.pid);
  const workerd0 = treeCpuMs(running.pid, "workerd");
  const start = performance.now();
  const deadline = start + seconds * 1000;
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < requests && performance.now() < deadline) latencies.push(await post(next++));
  }));
  const elapsed = performance.now() - start;
  return {
    done: latencies.length,
    elapsed,
    latencies: latencies.sort((a, b) => a - b),
    cpu: treeCpuMs(running.pid) - cpu0,
    workerd: treeCpuMs(running.pid, "workerd") - workerd0,
  };
}

async function measure(name: string, running: Running): Promise<void> {
  try {
    const search = (i: number) => ({ action: "search", query: QUERIES[i % QUERIES.length] });
    const first = await fetch(`${running.url}/v1/route`, {
      method: "POST",
      headers,
      body: JSON.stringify({ catalog: tools, arguments: search(0) }),
    });
    const ref = (await first.json()).catalogHash as string;
    const modes: [string, ((i: number) => string) | undefined][] = [
      ["GET /healthz (floor)", undefined],
      ["by value", (i) => JSON.stringify({ catalog: tools, arguments: search(i) })],
      ["by reference", (i) => JSON.stringify({ catalogRef: ref, arguments: search(i) })],
    ];
    for (const [mode, body] of modes) {
      for (const concurrency of CONCURRENCY) {
        const r = await cell(running, body, concurrency);
        const at = (p: number) =>
          r.latencies[Math.min(r.done - 1, Math.floor(p * r.done))]!.toFixed(1);
        const perRequest = (ms: number) => (ms / r.done).toFixed(2);
        console.log(
          `| ${name} | ${mode} | ${concurrency} | ${r.done} | ${
            (r.done / r.elapsed * 1000).toFixed(0)
          } | ${at(0.5)} | ${at(0.99)} | ${perRequest(r.cpu)}${
            name.includes("wrangler") ? ` (workerd ${perRequest(r.workerd)})` : ""
          } |`,
        );
      }
    }
  } finally {
    await running.close();
  }
}

console.log(
  `POST /v1/route search, ${tools.length}-tool catalogue; at most ${requests} requests or ` +
    `${seconds} s per row after ${WARM_UP} warm-up requests; 127.0.0.1`,
);
console.log(
  "| deployment | request | concurrency | requests | req/s | p50 ms | p99 ms | server CPU ms/request |",
);
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
await measure("deno task start", await startDenoServer());
await measure("wrangler dev (workerd)", await startWrangler());
