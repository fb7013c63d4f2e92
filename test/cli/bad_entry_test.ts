/**
 * A bad config entry is its server's (`src/gateway/config/contained.ts`): a config of
 * server-everything from npm beside an entry with a mistyped key (`"comand"`). At each door the
 * config reaches — the real stdio gateway, the HTTP gateway's `/status` and profiles,
 * `unfold inspect`, `unfold search`, the gateway Worker — everything's tools serve, and the broken
 * entry is named `unavailable` with its JSON pointer and what to do; stderr says it once.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { cliCommand, httpClient, runCli, startHttpGateway } from "../gateway/_gateway.ts";
import { bridge } from "../gateway/_scenario.ts";
import { denoEnv, npmServer, startHttpEverything } from "../mcp/_servers.ts";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { STDIO_ON_WORKER } from "../../src/gateway/pool/unavailable.ts";

// What unfold says of the broken entry everywhere it names it.
const DETAIL =
  'its entry is invalid at /mcpServers/broken/comand: unknown field: did you mean "command"?; correct it in the config, then start unfold again';
const STDERR_LINE = `unfold: broken: unavailable (${DETAIL})`;
const TYPO =
  'Invalid gateway config at "/unfold/profiles/typo/servers/0": names the server "everythng", which is not in mcpServers; did you mean "everything"?';
const TYPO_DETAIL =
  'its entry is invalid at /unfold/profiles/typo/servers/0: names the server "everythng", which is not in mcpServers; did you mean "everything"?; correct it in the config, then start unfold again';

// server-everything and a broken entry, under a profile of both and one of everything alone.
async function withBrokenConfig(run: (config: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-bad-entry-" });
  const config = {
    mcpServers: {
      everything: {
        ...npmServer("@modelcontextprotocol/server-everything", "stdio"),
        env: denoEnv(),
      },
      broken: { comand: "npx", args: ["-y", "some-server"] },
    },
    unfold: {
      startupTimeoutMs: 30_000,
      profiles: {
        both: { servers: ["everything", "broken"] },
        alone: { servers: ["everything"] },
        // A profile's mistake is that profile's: it is not served, the others are.
        typo: { servers: ["everythng"] },
      },
    },
  };
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config));
    await run(`${dir}/mcp.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function textOf(result: { content: Array<Record<string, unknown>> }): string {
  return result.content.map((block) => String(block.text ?? "")).join("\n");
}

const count = (text: string, part: string) => text.split(part).length - 1;

Deno.test("the stdio gateway serves everything's tools and names the broken entry, once", async () => {
  await withBrokenConfig(async (config) => {
    const { command, args } = cliCommand("gateway", "--config", config);
    const transport = new StdioClientTransport({ command, args, env: denoEnv(), stderr: "pipe" });
    let stderr = "";
    const decoder = new TextDecoder();
    transport.stderr?.on("data", (chunk: Uint8Array) => stderr += decoder.decode(chunk));
    const client = new Client({ name: "bad-entry-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const overview = tools[0]!.description!;
      match(overview, /everything\/echo/);
      ok(overview.includes(`broken (${JSON.stringify(DETAIL)})`), overview);
      const found = await bridge(client, { action: "search", query: "echo back the message" });
      match(textOf(found), /everything\/echo/);
      const described = await bridge(client, { action: "describe", name: "broken/run" });
      equal(described.isError, true);
      match(textOf(described), /"broken" is configured but its tools cannot be listed now/);
      ok(textOf(described).includes("/mcpServers/broken/comand"), textOf(described));
      await bridge(client, { action: "describe", name: "everything/echo" });
      const echoed = await bridge(client, {
        action: "execute",
        name: "everything/echo",
        arguments: { message: "still here" },
      });
      equal(echoed.isError, undefined, textOf(echoed));
      match(textOf(echoed), /still here/);
    } finally {
      await client.close();
    }
    equal(count(stderr, STDERR_LINE), 1, stderr);
    equal(count(stderr, `unfold: profile "typo": not served: ${TYPO_DETAIL}`), 1, stderr);
  });
});

Deno.test("inspect and search name the broken entry; a profile without it never does", async () => {
  await withBrokenConfig(async (config) => {
    const json = await runCli(["inspect", "--config", config, "--json"]);
    equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as {
      servers: { server: string; state: string; detail?: string }[];
    };
    deepEqual(
      report.servers.map((s) => [s.server, s.state, s.detail]),
      [["everything", "ready", undefined], ["broken", "unavailable", DETAIL]],
    );
    equal(count(json.stderr, STDERR_LINE), 1, json.stderr);
    const whole = await runCli(["search", "--config", config, "echo"]);
    equal(whole.code, 0, whole.stderr);
    match(whole.stdout, /everything\/echo/);
    equal(count(whole.stderr, STDERR_LINE), 1, whole.stderr);
    const search = await runCli(["search", "--config", config, "--profile", "alone", "echo"]);
    equal(search.code, 0, search.stderr);
    match(search.stdout, /everything\/echo/);
    equal(count(search.stderr, "broken"), 0, search.stderr);
    // The bad profile's own command stops with its problem, as the whole config did before.
    const typo = await runCli(["inspect", "--config", config, "--profile", "typo"]);
    equal(typo.code, 1);
    equal(typo.stderr, `unfold: ${config}: ${TYPO}\n`);
    // Signing in to it says its entry's problem, as the whole config failed before.
    const login = await runCli(["login", "broken", "--config", config]);
    equal(login.code, 1);
    ok(
      login.stderr.includes(
        'Invalid gateway config at "/mcpServers/broken/comand": unknown field: did you mean "command"?',
      ),
      login.stderr,
    );
  });
});

Deno.test("over HTTP, /status names the broken entry and the bad profile; the others serve", async () => {
  await withBrokenConfig(async (config) => {
    await using gateway = await startHttpGateway(config, { UNFOLD_API_TOKEN: "all" });
    const origin = gateway.url.slice(0, -"/mcp".length);
    const auth = { authorization: "Bearer all" };
    const status = await (await fetch(`${origin}/status`, { headers: auth })).json() as {
      servers: { server: string; state: string; reason?: string }[];
    };
    deepEqual(
      status.servers.map((s) => [s.server, s.state, s.reason]),
      [["everything", "ready", undefined], ["broken", "unavailable", DETAIL]],
    );
    const profiles = (status as unknown as { profiles: { name: string; unavailable?: string }[] })
      .profiles.map((p) => [p.name, p.unavailable]);
    deepEqual(profiles, [["both", undefined], ["alone", undefined], ["typo", TYPO_DETAIL]]);
    const typo = await fetch(`${origin}/mcp/typo`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...auth,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
    });
    equal(typo.status, 503);
    const why = await typo.json() as { code: string; detail: string };
    equal(why.code, "profile_unavailable");
    equal(why.detail.includes(TYPO_DETAIL), true, why.detail);
    equal(count(gateway.log.lines.join("\n"), `not served at /mcp/typo: ${TYPO_DETAIL}`), 1);
    for (const profile of ["both", "alone"]) {
      const client = await httpClient(`${origin}/mcp/${profile}`, auth);
      try {
        const found = await bridge(client, { action: "search", query: "echo back the message" });
        match(textOf(found), /everything\/echo/, profile);
      } finally {
        await client.close();
      }
    }
  });
});

Deno.test({
  name: "the Worker serves its other upstreams and names the broken entry and a stdio one",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using everything = await startHttpEverything();
    const upstreams = {
      mcpServers: {
        everything: { url: everything.url },
        broken: { url: "not a url" },
        // No Worker's to start: unavailable, never the Worker's end.
        local: { command: "node", args: ["server.js"] },
      },
      unfold: {
        profiles: { typo: { servers: ["everythng"] }, alone: { servers: ["everything"] } },
      },
    };
    const worker = await startGatewayWorker({
      UNFOLD_UPSTREAMS: JSON.stringify(upstreams),
      UNFOLD_API_TOKEN: "all",
    });
    const auth = { authorization: "Bearer all" };
    const detail =
      'its entry is invalid at /mcpServers/broken/url: "not a url" is not a URL; correct it in the config, then start unfold again';
    try {
      const client = await httpClient(`${worker.url}/mcp`, auth);
      try {
        const { tools } = await client.listTools();
        ok(tools[0]!.description!.includes(`broken (${JSON.stringify(detail)})`));
        const found = await bridge(client, { action: "search", query: "echo back" });
        match(textOf(found), /everything\/echo/);
      } finally {
        await client.close();
      }
      const status = await (await fetch(`${worker.url}/status`, { headers: auth })).json() as {
        servers: { server: string; state: string; reason?: string }[];
      };
      deepEqual(
        status.servers.map((s) => [s.server, s.state, s.reason]),
        [
          ["everything", "ready", undefined],
          ["broken", "unavailable", detail],
          ["local", "unavailable", STDIO_ON_WORKER],
        ],
      );
      const profiles = (status as unknown as { profiles: { name: string; unavailable?: string }[] })
        .profiles.map((p) => [p.name, p.unavailable]);
      deepEqual(profiles, [["alone", undefined], ["typo", TYPO_DETAIL]]);
    } finally {
      await worker.close();
    }
  },
});

Deno.test("over HTTP, a bad profile keeps the gateway as closed as its tokens would", async () => {
  // Its entry cannot be read, so its tokens are not known: were they the only ones, dropping the
  // profile would open /mcp to every caller. It holds the guard closed instead.
  const dir = await Deno.makeTempDir({ prefix: "unfold-bad-profile-" });
  try {
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {},
        unfold: { profiles: { mine: { tokens: ["s3cret"], servers: ["nowhere"] } } },
      }),
    );
    await using gateway = await startHttpGateway(config);
    const origin = gateway.url.slice(0, -"/mcp".length);
    for (const path of ["/mcp", "/mcp/mine", "/status"]) {
      const response = await fetch(`${origin}${path}`, {
        method: path === "/status" ? "GET" : "POST",
        headers: { "content-type": "application/json", authorization: "Bearer s3cret" },
        ...(path === "/status" ? {} : { body: "{}" }),
      });
      equal(response.status, 401, path);
      await response.body?.cancel();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
