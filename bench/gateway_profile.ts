/**
 * Where an execute's time goes in the gateway: the gateway CLI over stdio (the test config's three
 * npm servers) is started with the inspector, warmed up, then profiled by V8's sampling profiler
 * (100 µs) over a run of `echo` executes through the bridge. Prints the sampled time per execute,
 * by owner (unfold's own code under `src/`, the MCP SDK with its zod, Deno's runtime and native
 * calls, the garbage collector), by file and by function (self time; `(idle)` is waiting), and
 * writes the `.cpuprofile` (open it in Chrome's DevTools, Performance tab).
 *
 * Run: `deno run -A bench/gateway_profile.ts [executes=3000] [out=gateway.cpuprofile]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoEnv } from "../test/mcp/_servers.ts";
import { cliCommand, writeConfig } from "../test/gateway/_gateway.ts";

const calls = Number(Deno.args[0] ?? 3000);
const out = Deno.args[1] ?? "gateway.cpuprofile";
const root = new URL("..", import.meta.url).pathname;
const { path, dir } = await writeConfig();
const port = 9_300 + Math.floor(Math.random() * 600);
const client = new Client({ name: "profile", version: "1.0.0" });
// The CLI as the tests and the other benches run it (its `RUN_FLAGS`), with the inspector.
const cli = cliCommand("gateway", "--config", path);
await client.connect(
  new StdioClientTransport({
    command: cli.command,
    args: ["run", `--inspect=127.0.0.1:${port}`, ...cli.args.slice(1)],
    env: denoEnv(),
    stderr: "ignore",
  }),
);
const execute = () =>
  client.callTool({
    name: "mcp",
    arguments: { action: "execute", name: "everything/echo", arguments: { message: "hi" } },
  });
await client.callTool({ name: "mcp", arguments: { action: "describe", name: "everything/echo" } });
for (let i = 0; i < 300; i++) await execute();

// The DevTools protocol over the inspector's WebSocket: just enough to start and stop a profile.
const [target] = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const socket = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve) => socket.onopen = resolve);
let next = 0;
const waiting = new Map<number, (result: Record<string, unknown>) => void>();
socket.onmessage = (event) => {
  const message = JSON.parse(event.data);
  waiting.get(message.id)?.(message.result);
  waiting.delete(message.id);
};
const send = (method: string, params = {}) =>
  new Promise<Record<string, unknown>>((resolve) => {
    waiting.set(++next, resolve);
    socket.send(JSON.stringify({ id: next, method, params }));
  });
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 100 });
await send("Profiler.start");
const started = performance.now();
for (let i = 0; i < calls; i++) await execute();
const wall = performance.now() - started;
const { profile } = await send("Profiler.stop") as { profile: Profile };
socket.close();
await client.close();
await Deno.remove(dir, { recursive: true });
await Deno.writeTextFile(out, JSON.stringify(profile));

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
}
const nodes = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const byOwner = new Map<string, number>();
// Whose code a sample's frame is: unfold's own, the SDK's (its packages and their zod), or the
// runtime's (Deno's JavaScript and its native calls: the pipe writes, V8's own work).
const ownerOf = (file: string, name: string) =>
  name === "(idle)"
    ? "(idle)"
    : name === "(garbage collector)"
    ? "garbage collector"
    : file.startsWith("src/")
    ? "unfold (src/)"
    : /^npm:(@modelcontextprotocol\+|zod@)/.test(file)
    ? "MCP SDK and its zod"
    : "Deno runtime and native calls";
const add = (map: Map<string, number>, key: string, time: number) =>
  map.set(key, (map.get(key) ?? 0) + time);
for (let i = 0; i < profile.samples.length; i++) {
  const frame = nodes.get(profile.samples[i]!)!;
  const time = profile.timeDeltas[i + 1] ?? 0;
  const file = frame.url.replace(`file://${root}`, "").replace(
    /node_modules\/\.deno\/([^/]+)\/.*/,
    "npm:$1",
  );
  add(byFile, file || frame.functionName, time);
  add(byOwner, ownerOf(file, frame.functionName), time);
  add(byFunction, `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber + 1}`, time);
}
const perCall = (time: number) => `${(time / calls).toFixed(1).padStart(7)} µs`;
console.log(`${calls} executes, ${(wall / calls * 1000).toFixed(0)} µs each under the profiler`);
for (
  const [title, map] of [["owner", byOwner], ["file", byFile], ["function", byFunction]] as const
) {
  console.log(`\nsampled time per execute, by ${title}:`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`${perCall(time)}  ${key}`);
  }
}
console.log(`\nprofile: ${out}`);
