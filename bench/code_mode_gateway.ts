/**
 * Code mode through the gateway, as a host meets it: the `unfold` command over stdio in front of
 * server-filesystem (stdio), its defaults (read-only scripts, describe-first, the result ceiling
 * on, trust off here so that no approval is needed). The workload of `bench/code_mode.ts`'s first
 * row — the three largest of 200 files — call by call through the bridge and as one `run`: the
 * tokens of the answers' text that reach the model, the tokens it writes, the round trips; then
 * the time a run adds to one execute of the same tool through the gateway (p50 of 15): back to
 * back, and 2 s apart, as a model's turns are (the gateway keeps one process ready after a run).
 *
 * These measure the mechanics, not a model's choices: each path's steps are written here as a
 * model that knows the task would take them, and the answers are checked.
 *
 * Run: `deno run -A --node-modules-dir=auto bench/code_mode_gateway.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { estimateTokens } from "../src/tokens.ts";
import { denoEnv, npmServer } from "../test/mcp/_servers.ts";
import { cliCommand } from "../test/gateway/_gateway.ts";

const dir = await Deno.makeTempDir({ prefix: "unfold-code-gateway-bench-" });
const files = `${dir}/files`;
await Deno.mkdir(files);
// The 200 files of bench/code_mode.ts: distinct sizes, the three largest at known names.
for (let i = 0; i < 200; i++) {
  await Deno.writeTextFile(
    `${files}/file_${String(i).padStart(3, "0")}.log`,
    "x".repeat(((i * 7919) % 200) * 53 + 10),
  );
}
const largest = [...Array(200).keys()].sort((a, b) => ((b * 7919) % 200) - ((a * 7919) % 200))
  .slice(0, 3).map((i) => `file_${String(i).padStart(3, "0")}.log`);
const config = `${dir}/mcp.json`;
await Deno.writeTextFile(
  config,
  JSON.stringify({
    mcpServers: {
      fs: { ...npmServer("@modelcontextprotocol/server-filesystem", dir), env: denoEnv() },
    },
    unfold: { trust: "off", startupTimeoutMs: 60_000 },
  }),
);

const tokens = (value: unknown) =>
  estimateTokens(typeof value === "string" ? value : JSON.stringify(value));
// Each path in a session of its own (a gateway over stdio each): a describe is not elided for the
// path that comes second.
const { command, args } = cliCommand("gateway", "--config", config);
const clients: Client[] = [];
async function connect(): Promise<Client> {
  const client = new Client({ name: "code-mode-gateway-bench", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, env: denoEnv(), stderr: "ignore" }),
  );
  clients.push(client);
  return client;
}
let client = await connect();

async function bridge(step: Record<string, unknown>) {
  const result = await client.callTool({ name: "mcp", arguments: step });
  if (result.isError) throw new Error(JSON.stringify(result).slice(0, 500));
  const text = (result.content as { type: string; text?: string }[])
    .map((block) => block.text ?? "").join("\n");
  return { text, structured: result.structuredContent as Record<string, unknown> };
}

async function path(steps: Record<string, unknown>[]) {
  let read = 0;
  let written = 0;
  let last: Awaited<ReturnType<typeof bridge>> | undefined;
  for (const step of steps) {
    last = await bridge(step);
    read += tokens(last.text);
    written += tokens(step);
  }
  return { read, written, trips: steps.length, last: last! };
}

try {
  const listing = { action: "execute", name: "fs/list_directory_with_sizes" };
  const calls = await path([
    { action: "describe", name: "fs/list_directory_with_sizes" },
    { ...listing, arguments: { path: files, sortBy: "size" } },
  ]);
  for (const name of largest) {
    if (!calls.last.text.includes(name)) throw new Error(`the listing lacks ${name}`);
  }
  client = await connect();
  const run = await path([
    { action: "describe", name: "fs/list_directory_with_sizes" },
    {
      action: "run",
      code: `const { content } = await call("fs/list_directory_with_sizes", { path: ${
        JSON.stringify(files)
      }, sortBy: "size" });
return content.split("\\n").filter((l) => l.startsWith("[FILE]")).slice(0, 3).map((l) => l.split(/\\s+/)[1]);`,
    },
  ]);
  const names = run.last.structured.result;
  if (JSON.stringify(names) !== JSON.stringify(largest)) {
    throw new Error(`got ${JSON.stringify(names)}, not ${JSON.stringify(largest)}`);
  }

  // The time a run adds to one execute: the same call through the gateway, 15 times each.
  const file = `${files}/file_000.log`;
  await bridge({ action: "describe", name: "fs/get_file_info" });
  const p50 = async (step: Record<string, unknown>, gapMs = 0) => {
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      const started = performance.now();
      await bridge(step);
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[7]!;
  };
  const execute = await p50({
    action: "execute",
    name: "fs/get_file_info",
    arguments: { path: file },
  });
  const script = {
    action: "run",
    code: `return await call("fs/get_file_info", { path: ${JSON.stringify(file)} })`,
  };
  const back = await p50(script);
  const apart = await p50(script, 2_000);

  console.log(
    "| workload (through the stdio gateway) | tokens to the model (calls → run) | tokens the model writes | round trips |",
  );
  console.log("| --- | ---: | ---: | ---: |");
  console.log(
    `| three largest of 200 files | ${calls.read} → ${run.read} | ${calls.written} → ${run.written} | ${calls.trips} → ${run.trips} |`,
  );
  console.log();
  console.log("| p50 of 15, through the stdio gateway | ms |");
  console.log("| --- | ---: |");
  console.log(`| one execute (fs/get_file_info) | ${execute.toFixed(1)} |`);
  console.log(`| the same call in one run, back to back | ${back.toFixed(1)} |`);
  console.log(`| the same run 2 s after the last | ${apart.toFixed(1)} |`);
} finally {
  for (const open of clients) await open.close();
  await Deno.remove(dir, { recursive: true });
}
