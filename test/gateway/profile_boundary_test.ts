/**
 * A profile is a boundary over stdio: its client is told nothing of a server outside it (the
 * bridge description, the instructions and the servers' notes), and `--profile` and
 * `inspect --profile` start only the profile's servers. Real npm servers: server-everything (the
 * hidden one, whose own instructions the overview would quote), server-filesystem, server-memory.
 */

import { deepEqual, equal, ok, throws } from "node:assert/strict";
import { childPids, RawGateway } from "./chaos/_chaos.ts";
import { cliCommand, writeConfig } from "./_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { parsedConfig } from "./_config.ts";

// "coding" sees filesystem and memory; "everything" is outside it.
const CODING = { coding: { servers: ["filesystem", "memory"] } };
const HIDDEN = /everything/i;

// The cmdline of a process, or "" when it is gone.
async function cmdline(pid: number): Promise<string> {
  return await Deno.readTextFile(`/proc/${pid}/cmdline`).catch(() => "");
}

Deno.test("gateway --profile over stdio names no server outside the profile and starts only its servers", async () => {
  const { path } = await writeConfig({ unfold: { profiles: CODING } });
  await using gateway = new RawGateway(path, ["--profile", "coding"]);
  const init = await gateway.initialize(60_000);
  // Once both of its servers are ready their tools are in the overview.
  await gateway.until(
    async () => /memory\/read_graph/.test(await gateway.overview()),
    "memory's tools",
    60_000,
  );
  await gateway.until(
    async () => /filesystem\/read_text_file/.test(await gateway.overview()),
    "filesystem's tools",
    60_000,
  );
  const told = [String(init.instructions), await gateway.overview()];
  const listed = await gateway.request("tools/list");
  told.push(JSON.stringify(listed.result));
  for (const text of told) ok(!HIDDEN.test(text), text);
  // The profile's two servers run, and no other: one child process each.
  const children = await childPids(gateway.child.pid);
  const lines = await Promise.all(children.map(cmdline));
  equal(children.length, 2, lines.join("\n"));
  ok(!lines.some((line) => line.includes("server-everything")), lines.join("\n"));
});

Deno.test("inspect --profile starts only the profile's servers and reports only them", async () => {
  const { path } = await writeConfig({ unfold: { profiles: CODING } });
  const { command, args } = cliCommand(
    "inspect",
    "--config",
    path,
    "--profile",
    "coding",
    "--json",
  );
  const child = new Deno.Command(command, {
    args,
    env: denoEnv(),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = child.output();
  // Every child the command runs, seen from /proc while it runs (a started server lives until
  // the report is printed, many polls long).
  const seen = new Map<number, string>();
  let done = false;
  void output.finally(() => done = true);
  while (!done) {
    for (const pid of await childPids(child.pid)) {
      if (!seen.has(pid)) seen.set(pid, await cmdline(pid));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { code, stdout, stderr } = await output;
  const log = new TextDecoder().decode(stderr);
  equal(code, 0, log);
  const report = JSON.parse(new TextDecoder().decode(stdout));
  deepEqual(report.servers.map((s: { server: string }) => s.server).sort(), [
    "filesystem",
    "memory",
  ]);
  ok(!HIDDEN.test(log), log);
  const started = [...seen.values()];
  ok(!started.some((line) => line.includes("server-everything")), started.join("\n"));
  equal(started.filter((line) => line.includes("@modelcontextprotocol/server-")).length, 2);
});

Deno.test("a profile's tokens: an array of tokens, ${VAR} read from the environment, each checked", () => {
  const config = (tokens: unknown, env: Record<string, string> = {}) =>
    parsedConfig({ mcpServers: {}, unfold: { profiles: { p: { tokens } } } }, env);
  deepEqual(config(["${P_TOKEN}", "b", "b"], { P_TOKEN: "a" }).options.profiles?.p?.tokens, [
    "a",
    "b",
  ]);
  throws(
    () => config(["${NOPE}"]),
    /at "\/unfold\/profiles\/p\/tokens\/0": the environment variable NOPE is not set/,
  );
  throws(() => config("a"), /at "\/unfold\/profiles\/p\/tokens": must be an array of strings/);
  throws(() => config(["a", "with space"]), /tokens\/1": must be a non-empty token/);
  throws(() => config([""]), /tokens\/0": must be a non-empty token/);
});
