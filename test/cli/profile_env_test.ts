/**
 * A `${VAR}` that is not set fails a command only where the command uses it: `unfold setup` puts
 * every host's servers in one config, each host's under its own profile, and a variable only one
 * host sets must not stop another host's gateway. Over the real CLI and server-memory from npm.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cliCommand, runCli } from "../gateway/_gateway.ts";
import { bridge } from "../gateway/_scenario.ts";
import { denoEnv, npmServer } from "../mcp/_servers.ts";

// Two hosts' servers: each reads a variable only its own host sets (here: its memory file).
async function withTwoHosts(run: (config: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-profile-env-" });
  const memory = (variable: string) => ({
    ...npmServer("@modelcontextprotocol/server-memory"),
    env: { ...denoEnv(), MEMORY_FILE_PATH: `\${${variable}}` },
  });
  const config = {
    mcpServers: {
      desk: memory("DESK_MEMORY"),
      cursor: memory("CURSOR_MEMORY"),
      remote: { url: "https://example.com/mcp", headers: { Authorization: "Bearer k" } },
    },
    unfold: {
      startupTimeoutMs: 30_000,
      profiles: {
        desk: { servers: ["desk"] },
        cursor: { servers: ["cursor"], tokens: ["${CURSOR_TOKEN}"] },
      },
    },
  };
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config));
    await run(`${dir}/mcp.json`, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const unsetLine = (config: string) =>
  `unfold: ${config}: Invalid gateway config at "/mcpServers/cursor/env/MEMORY_FILE_PATH": the environment variable CURSOR_MEMORY is not set\n`;

Deno.test("a profile's gateway starts over stdio when a server outside it needs a variable not set", async () => {
  await withTwoHosts(async (config, dir) => {
    const { command, args } = cliCommand("gateway", "--config", config, "--profile", "desk");
    const client = new Client({ name: "profile-env-test", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command,
        args,
        env: { ...denoEnv(), DESK_MEMORY: `${dir}/desk.jsonl` },
        stderr: "ignore",
      }),
    );
    try {
      const found = await bridge(client, { action: "search", query: "create entities graph" });
      const text = JSON.stringify(found.content);
      match(text, /desk__create_entities|desk\/create_entities/);
      // The profile boundary holds: the other host's server is never named.
      ok(!text.includes("cursor"), text);
    } finally {
      await client.close();
    }
  });
});

Deno.test("inspect --profile reports the profile's server; the one it serves still needs its variable", async () => {
  await withTwoHosts(async (config, dir) => {
    const env = { ...denoEnv(), DESK_MEMORY: `${dir}/desk.jsonl` };
    const desk = await runCli(["inspect", "--config", config, "--profile", "desk", "--json"], env);
    equal(desk.code, 0, desk.stderr);
    deepEqual(JSON.parse(desk.stdout).servers.map((s: { server: string }) => s.server), ["desk"]);
    // The profile that runs the server without its variable fails as every config did before.
    const cursor = await runCli(["inspect", "--config", config, "--profile", "cursor"], env);
    equal(cursor.code, 1);
    equal(cursor.stderr, unsetLine(config));
    // No profile: every server is served, so it fails as before, with the same line.
    const all = await runCli(["inspect", "--config", config], env);
    equal(all.code, 1);
    equal(all.stderr, unsetLine(config));
  });
});

Deno.test("a served profile's token that is not set fails the start in one line", async () => {
  await withTwoHosts(async (config, dir) => {
    const env = { ...denoEnv(), CURSOR_MEMORY: `${dir}/cursor.jsonl` };
    const run = await runCli(["inspect", "--config", config, "--profile", "cursor"], env);
    equal(run.code, 1);
    equal(
      run.stderr,
      `unfold: ${config}: Invalid gateway config at "/unfold/profiles/cursor/tokens/0": the environment variable CURSOR_TOKEN is not set\n`,
    );
  });
});

Deno.test("login SERVER needs that server's variables only", async () => {
  await withTwoHosts(async (config) => {
    const env = { ...denoEnv(), UNFOLD_CONFIG_DIR: `${config}.d` };
    // Past the config: the server's own entry is what stops this sign-in.
    const remote = await runCli(["login", "--config", config, "remote", "--no-browser"], env);
    equal(remote.code, 1);
    match(remote.stderr, /^unfold: Cannot sign in to "remote": its entry sends its own/);
    const cursor = await runCli(["login", "--config", config, "cursor", "--no-browser"], env);
    equal(cursor.code, 1);
    equal(cursor.stderr, unsetLine(config));
  });
});
