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
  const { path, dir } = await writeConfig({ unfold: { profiles: CODING } });
  // The server outside the profile is a tripwire: started, it leaves a file (and fails).
  const tripped = `${dir}/everything.started`;
  const config = JSON.parse(await Deno.readTextFile(path));
  config.mcpServers.everything = {
    command: Deno.execPath(),
    args: ["eval", `Deno.writeTextFileSync(${JSON.stringify(tripped)}, "started")`],
  };
  await Deno.writeTextFile(path, JSON.stringify(config));
  const { command, args } = cliCommand(
    "inspect",
    "--config",
    path,
    "--profile",
    "coding",
    "--json",
  );
  const { code, stdout, stderr } = await new Deno.Command(command, {
    args,
    env: denoEnv(),
    stdin: "null",
  }).output();
  const log = new TextDecoder().decode(stderr);
  equal(code, 0, log);
  const report = JSON.parse(new TextDecoder().decode(stdout));
  // Its two servers were started and listed (ready), and the one outside it never ran.
  deepEqual(
    report.servers.map((s: { server: string; state: string }) => [s.server, s.state]).sort(),
    [["filesystem", "ready"], ["memory", "ready"]],
  );
  ok(!HIDDEN.test(log), log);
  equal(await Deno.stat(tripped).then(() => true, () => false), false, "everything was started");
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
