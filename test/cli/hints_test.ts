// Every command unfold tells the user to run runs as printed: each hint is read from the output
// the user sees, split as a POSIX shell splits it, and run (`unfold` being the CLI). Each is
// also parsed by the CLI's own parser, for every message, in `hint_commands_test.ts`.
import { deepEqual, equal, ok } from "node:assert/strict";
import { type CliRun, runCli } from "../gateway/_gateway.ts";
import { denoEnv, npmServer, startHttpEverything } from "../mcp/_servers.ts";
import { startOAuthGate } from "../mcp/_oauth_gate.ts";
import { commandsIn } from "./_commands_in.ts";

// The `unfold …` commands in a text, each as the words a shell would pass: the commands it sets
// apart (in backticks, or alone on a line), none of them glued to the prose.
function hintsIn(text: string): string[][] {
  const { commands, unmarked } = commandsIn(text);
  deepEqual(unmarked, [], "a command written into the prose");
  return commands.filter((command) => command.words[0] === "unfold").map((c) => c.words);
}

Deno.test("hintsIn splits a hint as a shell does", () => {
  deepEqual(hintsIn("run `unfold approve --config '/a b'\\''c/mcp.json' --all`, or"), [
    ["unfold", "approve", "--config", "/a b'c/mcp.json", "--all"],
  ]);
});

// A config in a folder whose name needs quoting, as a user's may.
async function withConfig(
  config: unknown,
  use: (path: string, env: Record<string, string>, dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold hint's dir " });
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config));
    await use(`${dir}/mcp.json`, { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/config` }, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function runHint(words: string[], env: Record<string, string>): Promise<CliRun> {
  equal(words[0], "unfold");
  return runCli(words.slice(1), env);
}

Deno.test("the trust hints of the gateway and of inspect run as printed", async () => {
  const config = { mcpServers: { memory: npmServer("@modelcontextprotocol/server-memory") } };
  await withConfig(config, async (path, env) => {
    const started = await runCli(["gateway", "--config", path], env);
    const inspected = await runCli(["inspect", "--config", path], env);
    equal(inspected.code, 0, inspected.stderr);
    const hints = [...hintsIn(started.stderr), ...hintsIn(inspected.stdout)];
    deepEqual(hints.map((words) => words.slice(0, 2).join(" ")), [
      "unfold inspect",
      "unfold approve",
      "unfold approve",
    ]);
    for (const words of hints) {
      const run = await runHint(words, env);
      equal(run.code, 0, `${words.join(" ")}: ${run.stderr}`);
    }
    ok(!(await runCli(["inspect", "--config", path], env)).stdout.includes("not approved"));
  });
});

Deno.test("the sign-in hint of a server that needs one runs as printed", async () => {
  await using everything = await startHttpEverything();
  await using gate = startOAuthGate(everything.url);
  await withConfig({ mcpServers: { secure: { url: gate.url } } }, async (path, base, dir) => {
    // A "browser" that follows the sign-in page, which this authorization server approves at once.
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/xdg-open`, `#!/bin/sh\ncurl -sL "$1" >/dev/null &\n`);
    await Deno.chmod(`${dir}/bin/xdg-open`, 0o755);
    const env = { ...base, PATH: `${dir}/bin:${Deno.env.get("PATH")}` };
    const inspected = await runCli(["inspect", "--config", path], env);
    const hints = hintsIn(inspected.stdout + inspected.stderr);
    ok(hints.length > 0, inspected.stdout + inspected.stderr);
    deepEqual(hints[0], ["unfold", "login", "--config", path, "secure"]);
    const login = await runHint(hints[0]!, env);
    equal(login.code, 0, login.stderr);
    const after = await runCli(["inspect", "--config", path], env);
    ok(/secure\s+ready/.test(after.stdout), after.stdout + after.stderr);
  });
});

Deno.test("the undo hint of unfold setup runs as printed", async () => {
  await withConfig({ mcpServers: {} }, async (_path, env, dir) => {
    const file = `${dir}/cursor.json`;
    await Deno.writeTextFile(file, '{"mcpServers": {"m": {"command": "m"}}}\n');
    const done = await runCli(
      ["setup", "cursor", "--file", file, "--config", `${dir}/unfold/mcp.json`],
      env,
    );
    equal(done.code, 0, done.stderr);
    const hints = hintsIn(done.stdout);
    deepEqual(hints.map((words) => words.at(-1)), ["--undo"], done.stdout);
    const undone = await runHint(hints[0]!, env);
    equal(undone.code, 0, undone.stderr);
    equal(await Deno.readTextFile(file), '{"mcpServers": {"m": {"command": "m"}}}\n');
  });
});
