/**
 * What the gateway's processes hold in memory with the three npm servers (server-everything,
 * server-filesystem, server-memory), `unfold.start` eager versus lazy: the resident set of the
 * gateway plus every process below it, summed from `/proc` (RSS, and PSS, which splits pages the
 * processes share). Snapshots are written first (a lazy run without any), so both starts list the
 * servers from them. Measured: eager once every server is up; lazy after `tools/list`; lazy after
 * one execute of `memory/read_graph`. Each figure is the median of several samples. Then the
 * gateway process alone (with the MCP SDK's server and client loaded: what they cost is in
 * docs/performance.md), eager, after `initialize`,
 * `tools/list` and a search answered with the Deno default ranker loaded.
 *
 * Run: `deno run -A bench/gateway_rss.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { childPids, RawGateway } from "../test/gateway/chaos/_chaos.ts";
import { writeConfig } from "../test/gateway/_gateway.ts";

const SAMPLES = 5;
const SAMPLE_GAP_MS = 400;
// Time for the processes to finish what starting left (JIT, lazy module loads) before sampling.
const SETTLE_MS = 2_000;

interface Tree {
  processes: number;
  rss: number;
  pss: number;
}

// The gateway and everything below it, with their memory in bytes.
async function tree(root: number): Promise<Tree> {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) pids.push(...await childPids(pids[i]!));
  let rss = 0;
  let pss = 0;
  for (const pid of pids) {
    rss += await field(`/proc/${pid}/status`, /VmRSS:\s+(\d+) kB/);
    pss += await field(`/proc/${pid}/smaps_rollup`, /Pss:\s+(\d+) kB/);
  }
  return { processes: pids.length, rss, pss };
}

// The gateway's own process, without its upstreams.
async function processAlone(pid: number): Promise<Tree> {
  return {
    processes: 1,
    rss: await field(`/proc/${pid}/status`, /VmRSS:\s+(\d+) kB/),
    pss: await field(`/proc/${pid}/smaps_rollup`, /Pss:\s+(\d+) kB/),
  };
}

async function field(file: string, pattern: RegExp): Promise<number> {
  try {
    return Number(pattern.exec(await Deno.readTextFile(file))?.[1] ?? 0) * 1024;
  } catch {
    return 0; // gone meanwhile
  }
}

async function sampled(gateway: RawGateway, alone = false): Promise<Tree> {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const samples: Tree[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    samples.push(alone ? await processAlone(gateway.child.pid) : await tree(gateway.child.pid));
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_GAP_MS));
  }
  const median = (pick: (t: Tree) => number) =>
    samples.map(pick).sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  return {
    processes: median((t) => t.processes),
    rss: median((t) => t.rss),
    pss: median((t) => t.pss),
  };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const cache = await Deno.makeTempDir({ prefix: "unfold-rss-cache-" });
const env = { UNFOLD_CACHE_DIR: cache };

async function run(
  start: "eager" | "lazy",
  measure: (gateway: RawGateway) => Promise<void>,
): Promise<void> {
  const { path, dir } = await writeConfig({ unfold: { start, startupTimeoutMs: 60_000 } });
  const gateway = new RawGateway(path, [], env);
  try {
    await gateway.initialize(120_000);
    await gateway.request("tools/list");
    await measure(gateway);
  } finally {
    await gateway[Symbol.asyncDispose]();
    await Deno.remove(dir, { recursive: true });
  }
}

const rows: [string, Tree][] = [];
let alone: Tree | undefined;
// Writes the snapshots: each server started once to be listed, then stopped.
await run("lazy", async (gateway) => {
  await gateway.until(async () => (await childPids(gateway.child.pid)).length === 0, "the stops");
});
await run("eager", async (gateway) => {
  await gateway.until(
    async () => !/still starting/.test(await gateway.overview()),
    "every server up",
    120_000,
  );
  rows.push(["eager, every server up", await sampled(gateway)]);
  // The ranker loads in the background from the start; the settling time covers it.
  const found = await gateway.bridge({ action: "search", query: "read a file" });
  if (found.isError === true) throw new Error(RawGateway.text(found));
  alone = await sampled(gateway, true);
});
await run("lazy", async (gateway) => {
  rows.push(["lazy, idle after tools/list", await sampled(gateway)]);
  const graph = await gateway.execute("memory/read_graph");
  if (graph.isError === true) throw new Error(RawGateway.text(graph));
  rows.push(["lazy, after one execute (memory/read_graph)", await sampled(gateway)]);
});
await Deno.remove(cache, { recursive: true });

const eager = rows[0]![1];
console.log("| gateway and its upstreams | processes | RSS | PSS | RSS of eager |");
console.log("| --- | --: | --: | --: | --: |");
for (const [what, t] of rows) {
  console.log(
    `| ${what} | ${t.processes} | ${mib(t.rss)} | ${mib(t.pss)} | ${
      Math.round(t.rss / eager.rss * 100)
    } % |`,
  );
}
console.log(
  `\ngateway process alone, eager, after initialize, tools/list and a search (Deno default ranker loaded): RSS ${
    mib(alone!.rss)
  }, PSS ${mib(alone!.pss)}`,
);
console.log(
  `load average: ${(await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ")}`,
);
