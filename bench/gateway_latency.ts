/**
 * What an execute through the gateway adds over calling the upstream directly: the SDK client
 * calls server-everything's `echo` directly (stdio), and through the gateway over stdio and over
 * Streamable HTTP (bridge execute, after a describe; the gateway runs the three npm servers of the
 * test config), interleaved in the same run so that machine load hits all alike. Reports p50, p90,
 * mean, what each path adds to the direct p50 and its ratio to it (the targets: at most
 * 1.9× and 0.4 ms over stdio), and the CPU each stdio process spent per call (from `/proc`: the
 * server itself for the direct path, the gateway alone for the others), a figure that load
 * disturbs less than the times. `--baseline DIR` adds a stdio gateway run from another checkout
 * of unfold (e.g. `git archive <commit> | tar -x -C DIR`, with its `node_modules`), to compare
 * two versions in one run.
 *
 * Run: `deno run -A bench/gateway_latency.ts [calls=300] [--baseline DIR]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoEnv, npmServer } from "../test/mcp/_servers.ts";
import { cliCommand, httpClient, startHttpGateway, writeConfig } from "../test/gateway/_gateway.ts";

const at = Deno.args.indexOf("--baseline");
const baseline = at < 0 ? undefined : Deno.args[at + 1];
const calls = Number(
  Deno.args.find((arg, i) => (at < 0 || i !== at + 1) && /^\d+$/.test(arg)) ?? 300,
);
const { path, dir } = await writeConfig();

// A client over a spawned stdio process, and that process's id.
async function spawned(command: string, args: string[]): Promise<[Client, number]> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args, env: denoEnv(), stderr: "ignore" });
  await client.connect(transport);
  return [client, transport.pid!];
}
const everything = npmServer("@modelcontextprotocol/server-everything", "stdio");
const [direct, directPid] = await spawned(everything.command, everything.args);
const cli = cliCommand("gateway", "--config", path);
const [viaStdio, stdioPid] = await spawned(cli.command, cli.args);
const base = baseline === undefined ? undefined : await spawned(Deno.execPath(), [
  "run",
  "-A",
  "--quiet",
  "--config",
  `${baseline}/deno.json`,
  `${baseline}/src/cli/main.ts`,
  "gateway",
  "--config",
  path,
]);
const gateway = await startHttpGateway(path);
const viaHttp = await httpClient(gateway.url);

const paths: Array<[string, () => Promise<unknown>, number?]> = [
  [
    "direct (stdio)",
    () => direct.callTool({ name: "echo", arguments: { message: "hi" } }),
    directPid,
  ],
  ["gateway over stdio", () => execute(viaStdio), stdioPid],
  ...(base === undefined ? [] : [[
    `baseline gateway over stdio (${baseline})`,
    () => execute(base[0]),
    base[1],
  ] as [string, () => Promise<unknown>, number]]),
  ["gateway over Streamable HTTP", () => execute(viaHttp)],
];
for (const client of [viaStdio, viaHttp, ...(base === undefined ? [] : [base[0]])]) {
  await client.callTool({
    name: "mcp",
    arguments: { action: "describe", name: "everything/echo" },
  });
}
function execute(client: Client) {
  return client.callTool({
    name: "mcp",
    arguments: { action: "execute", name: "everything/echo", arguments: { message: "hi" } },
  });
}
// CPU time of a process, user and system, in ms.
async function cpuMs(pid: number): Promise<number> {
  const fields = (await Deno.readTextFile(`/proc/${pid}/stat`)).split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 1000 / 100;
}

const times = new Map<string, number[]>(paths.map(([name]) => [name, []]));
for (let i = 0; i < 30; i++) for (const [, call] of paths) await call(); // warm-up
const cpu = new Map<string, number>();
for (const [name, , pid] of paths) if (pid !== undefined) cpu.set(name, -await cpuMs(pid));
for (let i = 0; i < calls; i++) {
  for (const [name, call] of paths) {
    const started = performance.now();
    await call();
    times.get(name)!.push(performance.now() - started);
  }
}
for (const [name, , pid] of paths) {
  if (pid !== undefined) cpu.set(name, cpu.get(name)! + await cpuMs(pid));
}
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p90: at(0.9), mean: values.reduce((a, b) => a + b, 0) / values.length };
};
const floor = stats(times.get("direct (stdio)")!).p50;
console.log(
  `| path | calls | p50 ms | p90 ms | mean ms | p50 added ms | p50 / direct p50 | CPU µs per call |`,
);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const [name, values] of times) {
  const s = stats(values);
  const used = cpu.get(name);
  console.log(
    `| ${name} | ${values.length} | ${s.p50.toFixed(2)} | ${s.p90.toFixed(2)} | ${
      s.mean.toFixed(2)
    } | ${(s.p50 - floor).toFixed(2)} | ${(s.p50 / floor).toFixed(2)} | ${
      used === undefined ? "–" : Math.round(used * 1000 / values.length)
    } |`,
  );
}
console.log(`load average: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
await direct.close();
await viaStdio.close();
await base?.[0].close();
await viaHttp.close();
await gateway.stop();
await Deno.remove(dir, { recursive: true });
