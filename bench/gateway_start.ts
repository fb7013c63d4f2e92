/**
 * How long a host waits at start. First, for `initialize` when one upstream never answers
 * `tools/list`: the gateway CLI over stdio with server-memory and a silent fake upstream, timed
 * from spawning the gateway to its `initialize` answer (so the CLI's own start is included), then
 * the time to exit after the host closes stdin (the `unfold` defaults unless a startup timeout is
 * given). Then, with snapshots (written by one start before), from spawn to the first successful
 * execute of server-everything's `echo` through a fresh gateway over the three npm servers (eager
 * and lazy start; initialize, describe, execute), against the same call made directly to a freshly
 * spawned server-everything (initialize, call), rounds interleaved; the target is 1.2×.
 * Also the same direct call while the other two servers start at the same time, with no gateway:
 * what eager's three spawns cost the first server on this machine's cores, whatever the gateway does.
 * Last, how soon after its own spawn the eager gateway spawns its first upstream: each server's
 * command is wrapped in a shell that writes the time (`date +%s%N`) before it `exec`s the server.
 *
 * Run: `deno run -A bench/gateway_start.ts [startupTimeoutMs] [rounds=5]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fake, memoryServer, RawGateway, writeChaosConfig } from "../test/gateway/chaos/_chaos.ts";
import { writeConfig } from "../test/gateway/_gateway.ts";
import { denoEnv, npmServer } from "../test/mcp/_servers.ts";

const timeout = Deno.args[0] === undefined || Deno.args[0] === "-"
  ? {}
  : { startupTimeoutMs: Number(Deno.args[0]) };
const rounds = Number(Deno.args[1] ?? 5);
{
  const { path, dir } = await writeChaosConfig(
    (dir) => ({ memory: memoryServer(dir), silent: fake("slow-start") }),
    timeout,
  );
  const gateway = new RawGateway(path);
  const spawned = performance.now();
  await gateway.initialize(120_000);
  const answered = performance.now();
  await gateway.closeStdin();
  await gateway.exited();
  const exited = performance.now();
  console.log(`initialize answered ${Math.round(answered - spawned)} ms after spawn`);
  console.log(`exited ${Math.round(exited - answered)} ms after stdin closed`);
  await Deno.remove(dir, { recursive: true });
}

const cache = await Deno.makeTempDir({ prefix: "unfold-start-cache-" });
const env = { UNFOLD_CACHE_DIR: cache };
const configs = {
  eager: await writeConfig({ unfold: { start: "eager" } }),
  lazy: await writeConfig({ unfold: { start: "lazy" } }),
};

// Spawn to the first successful echo through a fresh gateway.
async function throughGateway(path: string): Promise<number> {
  const started = performance.now();
  await using gateway = new RawGateway(path, [], env);
  await gateway.initialize(120_000);
  const echo = await gateway.execute("everything/echo", { message: "hi" });
  if (echo.isError === true) throw new Error(RawGateway.text(echo));
  return performance.now() - started;
}

// Spawn to the first echo answered by a freshly spawned server-everything; with `others`, the
// other two servers are spawned by their own clients at the same time (what eager starts).
async function direct(others = false): Promise<number> {
  const started = performance.now();
  const connect = async (pkg: string, ...args: string[]) => {
    const client = new Client({ name: "bench", version: "1.0.0" });
    const env = { ...denoEnv(), MEMORY_FILE_PATH: `${configs.eager.dir}/direct-memory.jsonl` };
    await client.connect(
      new StdioClientTransport({ ...npmServer(pkg, ...args), env, stderr: "ignore" }),
    );
    return client;
  };
  const everything = connect("@modelcontextprotocol/server-everything", "stdio");
  const rest = others
    ? [
      connect("@modelcontextprotocol/server-filesystem", configs.eager.dir),
      connect("@modelcontextprotocol/server-memory"),
    ]
    : [];
  await (await everything).callTool({ name: "echo", arguments: { message: "hi" } });
  const took = performance.now() - started;
  for (const client of await Promise.all([everything, ...rest])) await client.close();
  return took;
}

// One start of each writes the snapshots (and warms Deno's caches) before anything is timed.
for (const { path } of Object.values(configs)) await throughGateway(path);
await direct();
const times: Record<string, number[]> = { direct: [], three: [], eager: [], lazy: [] };
for (let i = 0; i < rounds; i++) {
  times.direct!.push(await direct());
  times.three!.push(await direct(true));
  times.eager!.push(await throughGateway(configs.eager.path));
  times.lazy!.push(await throughGateway(configs.lazy.path));
}
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const floor = median(times.direct!);
console.log(`| spawn → first echo answered (${rounds} rounds) | median ms | / direct |`);
console.log("| --- | ---: | ---: |");
for (const [path, values] of Object.entries(times)) {
  const m = median(values);
  const name = path === "direct"
    ? "server-everything alone"
    : path === "three"
    ? "server-everything, the other two spawned at once, no gateway"
    : `gateway, ${path}, with snapshots`;
  console.log(`| ${name} | ${Math.round(m)} | ${(m / floor).toFixed(2)} |`);
}
console.log(`load average: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

// Spawn of the gateway to the first spawn of an upstream, read from the upstreams' own clocks.
const marks = `${configs.eager.dir}/spawned.txt`;
const wrapped = `${configs.eager.dir}/wrapped.json`;
{
  const config = JSON.parse(await Deno.readTextFile(configs.eager.path));
  for (const server of Object.values(config.mcpServers) as { command: string; args: string[] }[]) {
    server.args = ["-c", `date +%s%N >> ${marks}; exec "$0" "$@"`, server.command, ...server.args];
    server.command = "sh";
  }
  await Deno.writeTextFile(wrapped, JSON.stringify(config));
}
const firstSpawns: number[] = [];
for (let i = 0; i < rounds; i++) {
  await Deno.remove(marks).catch(() => {});
  const spawned = performance.timeOrigin + performance.now();
  await using gateway = new RawGateway(wrapped, [], env);
  await gateway.initialize(120_000);
  const times = (await Deno.readTextFile(marks)).trim().split("\n").map((ns) => Number(ns) / 1e6);
  firstSpawns.push(Math.min(...times) - spawned);
}
console.log(
  `eager: first upstream spawned ${Math.round(median(firstSpawns))} ms after the gateway`,
);
for (const { dir } of Object.values(configs)) await Deno.remove(dir, { recursive: true });
await Deno.remove(cache, { recursive: true });
