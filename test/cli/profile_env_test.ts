/**
 * A `${VAR}` that is not set is the problem of what names it: `unfold setup` puts every host's
 * servers in one config, each host's under its own profile, and a variable only one host sets
 * must not stop another host's gateway; the server that names it is unavailable, a profile whose
 * token names it is not served over HTTP, and `unfold login` of that server fails. Over the real
 * CLI and server-memory from npm.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cliCommand, runCli, startHttpGateway } from "../gateway/_gateway.ts";
import { postPing } from "../gateway/_profile_routes.ts";
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

// The state of the server whose variable is not set, as every command shows it.
const UNAVAILABLE = {
  server: "cursor",
  state: "unavailable",
  detail:
    "the environment variable CURSOR_MEMORY is not set (/mcpServers/cursor/env/MEMORY_FILE_PATH names it): set it where unfold is started, then start unfold again",
};

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

Deno.test("inspect --profile reports the profile's server; one whose variable is not set is unavailable, not fatal", async () => {
  await withTwoHosts(async (config, dir) => {
    const env = { ...denoEnv(), DESK_MEMORY: `${dir}/desk.jsonl` };
    const desk = await runCli(["inspect", "--config", config, "--profile", "desk", "--json"], env);
    equal(desk.code, 0, desk.stderr);
    deepEqual(JSON.parse(desk.stdout).servers.map((s: { server: string }) => s.server), ["desk"]);
    // The profile whose server lacks its variable is served; that server is named, with why.
    const cursor = await runCli(
      ["inspect", "--config", config, "--profile", "cursor", "--json"],
      env,
    );
    equal(cursor.code, 0, cursor.stderr);
    const shown = JSON.parse(cursor.stdout).servers as Record<string, unknown>[];
    deepEqual(shown.map(({ server, state, detail }) => ({ server, state, detail })), [UNAVAILABLE]);
    match(
      cursor.stderr,
      /unfold: cursor: unavailable \(the environment variable CURSOR_MEMORY is not set/,
    );
    // No profile: every other server is started (remote, which no network here reaches, too).
    const all = await runCli(["inspect", "--config", config, "--json"], env);
    equal(all.code, 0, all.stderr);
    const states = new Map(
      JSON.parse(all.stdout).servers.map((s: { server: string; state: string }) => [
        s.server,
        s.state,
      ]),
    );
    deepEqual([states.get("desk"), states.get("cursor"), states.has("remote")], [
      "ready",
      "unavailable",
      true,
    ]);
  });
});

Deno.test("a profile's token that is not set: stdio serves it, HTTP serves the others and says why", async () => {
  await withTwoHosts(async (config, dir) => {
    const env = {
      ...denoEnv(),
      CURSOR_MEMORY: `${dir}/cursor.jsonl`,
      DESK_MEMORY: `${dir}/d.jsonl`,
    };
    // Tokens are HTTP's: inspect (and stdio) of the profile need none.
    const inspected = await runCli(["inspect", "--config", config, "--profile", "cursor"], env);
    equal(inspected.code, 0, inspected.stderr);
    // Over HTTP the profile served alone would be open without its token: refused, in one line.
    const alone = await runCli(
      ["gateway", "--config", config, "--profile", "cursor", "--http", "--port", "0"],
      env,
    );
    equal(alone.code, 1);
    equal(
      alone.stderr,
      `unfold: ${config}: the profile "cursor" cannot be served over HTTP: the environment variable CURSOR_TOKEN is not set (/unfold/profiles/cursor/tokens/0 names it): set it where unfold is started, then start unfold again\n`,
    );
    // Every profile: the others serve; /mcp/cursor says why; /status lists it as not served.
    // Its token unknown, the gateway stays closed as with it: the gateway-wide token opens it.
    await using gateway = await startHttpGateway(config, { ...env, UNFOLD_API_TOKEN: "all" });
    const origin = gateway.url.slice(0, -"/mcp".length);
    const auth = { authorization: "Bearer all" };
    equal((await postPing(`${origin}/mcp/desk`)).status, 401);
    const cursor = await postPing(`${origin}/mcp/cursor`, auth);
    equal(cursor.status, 503);
    const why = await cursor.json();
    equal(why.code, "profile_unavailable");
    match(
      why.detail,
      /^The profile "cursor" is not served: the environment variable CURSOR_TOKEN is not set/,
    );
    const desk = await postPing(`${origin}/mcp/desk`, auth);
    equal(desk.status === 404 || desk.status === 503, false, `desk: ${desk.status}`);
    await desk.body?.cancel();
    const status = await (await fetch(`${origin}/status`, { headers: auth })).json();
    deepEqual(
      status.profiles.map((
        p: { name: string; unavailable?: string },
      ) => [p.name, p.unavailable !== undefined]),
      [["desk", false], ["cursor", true]],
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
