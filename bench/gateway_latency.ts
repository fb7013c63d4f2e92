/**
 * What an execute through the gateway adds over calling the upstream directly: the SDK client
 * calls server-everything's `echo` directly (stdio), and through the gateway over stdio and over
 * Streamable HTTP (bridge execute, after a describe; the gateway runs the three npm servers of the
 * test config), interleaved in the same run so that machine load hits all alike. Reports p50, p90,
 * mean, what each path adds to the direct p50 and its ratio to it (the targets: at most
 * 1.9× and 0.4 ms over stdio).
 *
 * Run: `deno run -A bench/gateway_latency.ts [calls=300]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoEnv, npmServer } from "../test/mcp/_servers.ts";
import {
  httpClient,
  startHttpGateway,
  stdioClient,
  writeConfig,
} from "../test/gateway/_gateway.ts";

const calls = Number(Deno.args[0] ?? 300);
const { path, dir } = await writeConfig();
const direct = new Client({ name: "bench", version: "1.0.0" });
await direct.connect(
  new StdioClientTransport({
    ...npmServer("@modelcontextprotocol/server-everything", "stdio"),
    env: denoEnv(),
    stderr: "ignore",
  }),
);
const viaStdio = await stdioClient(path);
const gateway = await startHttpGateway(path);
const viaHttp = await httpClient(gateway.url);

const paths: Array<[string, () => Promise<unknown>]> = [
  ["direct (stdio)", () => direct.callTool({ name: "echo", arguments: { message: "hi" } })],
  ["gateway over stdio", () => execute(viaStdio)],
  ["gateway over Streamable HTTP", () => execute(viaHttp)],
];
for (const client of [viaStdio, viaHttp]) {
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

const times = new Map<string, number[]>(paths.map(([name]) => [name, []]));
for (let i = 0; i < 30; i++) for (const [, call] of paths) await call(); // warm-up
for (let i = 0; i < calls; i++) {
  for (const [name, call] of paths) {
    const started = performance.now();
    await call();
    times.get(name)!.push(performance.now() - started);
  }
}
const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { p50: at(0.5), p90: at(0.9), mean: values.reduce((a, b) => a + b, 0) / values.length };
};
const floor = stats(times.get("direct (stdio)")!).p50;
console.log(`| path | calls | p50 ms | p90 ms | mean ms | p50 added ms | p50 / direct p50 |`);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: | ---: |`);
for (const [name, values] of times) {
  const s = stats(values);
  console.log(
    `| ${name} | ${values.length} | ${s.p50.toFixed(2)} | ${s.p90.toFixed(2)} | ${
      s.mean.toFixed(2)
    } | ${(s.p50 - floor).toFixed(2)} | ${(s.p50 / floor).toFixed(2)} |`,
  );
}
console.log(`load average: ${Deno.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
await direct.close();
await viaStdio.close();
await viaHttp.close();
await gateway.stop();
await Deno.remove(dir, { recursive: true });
