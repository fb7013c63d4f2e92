/**
 * A server's problem is that server's: a Cursor file whose `remote` server sends
 * `Authorization: Bearer ${REMOTE_TOKEN}`, moved into unfold's config by setup, started by a host
 * that does not set `REMOTE_TOKEN`. The gateway serves every other server, and so does another
 * profile of the same config; `remote` is named, with the variable to set, in the overview, on
 * stderr, in `unfold inspect` and `/status`, and a call of its tools says why. Over the real CLI
 * and server-memory from npm.
 *
 * @module
 */

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deepEqual, doesNotMatch, equal, match, ok } from "node:assert/strict";
import { cliCommand, httpClient, runCli, startHttpGateway } from "../gateway/_gateway.ts";
import { bridge } from "../gateway/_scenario.ts";
import { denoEnv, memoryServer, startHttpEverything } from "../mcp/_servers.ts";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";

// What unfold says of the remote server everywhere it names it.
const DETAIL =
  "the environment variable REMOTE_TOKEN is not set (/mcpServers/remote/headers/Authorization names it): set it where unfold is started, then start unfold again";

// The servers a Cursor file held (one local, one remote with its token from the environment),
// under the profile setup made for Cursor, and another host's profile of the same config.
async function withCursorConfig(run: (config: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-unset-" });
  const config = {
    mcpServers: {
      memory: memoryServer(dir),
      remote: {
        url: "https://remote.invalid/mcp",
        headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
      },
    },
    unfold: {
      startupTimeoutMs: 30_000,
      profiles: {
        cursor: { servers: ["memory", "remote"] },
        desk: { servers: ["memory"] },
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

async function stdioGateway(config: string, ...extra: string[]): Promise<Client> {
  const { command, args } = cliCommand("gateway", "--config", config, ...extra);
  const client = new Client({ name: "unset-variable-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, env: denoEnv(), stderr: "ignore" }),
  );
  return client;
}

function textOf(result: { content: Array<Record<string, unknown>> }): string {
  return result.content.map((block) => String(block.text ?? "")).join("\n");
}

for (const extra of [[], ["--profile", "cursor"]]) {
  const served = extra.length === 0 ? "the whole config" : "the cursor profile";
  Deno.test(`${served} serves its other servers and names remote with the variable to set`, async () => {
    await withCursorConfig(async (config) => {
      const client = await stdioGateway(config, ...extra);
      try {
        const { tools } = await client.listTools();
        const overview = tools[0]!.description!;
        match(overview, /memory\/create_entities/);
        ok(overview.includes(`remote ("${DETAIL}")`), overview);
        const found = await bridge(client, { action: "search", query: "create entities graph" });
        match(textOf(found), /memory\/create_entities/);
        // Its tools are not known; an id of it says why, not that the server does not exist.
        const described = await bridge(client, { action: "describe", name: "remote/fetch" });
        equal(described.isError, true);
        match(
          textOf(described),
          /"remote" is configured but its tools cannot be listed now \(unavailable: /,
        );
        match(textOf(described), /REMOTE_TOKEN is not set/);
        // The server that starts works.
        await bridge(client, { action: "describe", name: "memory/read_graph" });
        const graph = await bridge(client, { action: "execute", name: "memory/read_graph" });
        equal(graph.isError, undefined, textOf(graph));
      } finally {
        await client.close();
      }
    });
  });
}

Deno.test("another host's profile of the same config serves, and never names remote", async () => {
  await withCursorConfig(async (config) => {
    const client = await stdioGateway(config, "--profile", "desk");
    try {
      const { tools } = await client.listTools();
      doesNotMatch(tools[0]!.description!, /remote|REMOTE_TOKEN/);
      const found = await bridge(client, { action: "search", query: "create entities graph" });
      match(textOf(found), /memory\/create_entities/);
    } finally {
      await client.close();
    }
    const search = await runCli(["search", "--config", config, "--profile", "desk", "read graph"]);
    equal(search.code, 0, search.stderr);
    match(search.stdout, /memory\/read_graph/);
    doesNotMatch(search.stderr, /remote/);
  });
});

Deno.test("inspect names remote as unavailable with the variable, on stderr and in its report", async () => {
  await withCursorConfig(async (config) => {
    const json = await runCli(["inspect", "--config", config, "--json"]);
    equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as {
      servers: { server: string; state: string; detail?: string }[];
    };
    deepEqual(
      report.servers.map((s) => [s.server, s.state, s.detail]),
      [["memory", "ready", undefined], ["remote", "unavailable", DETAIL]],
    );
    ok(json.stderr.includes(`unfold: remote: unavailable (${DETAIL})\n`), json.stderr);
    const text = await runCli(["inspect", "--config", config, "--profile", "cursor"]);
    equal(text.code, 0, text.stderr);
    match(text.stdout, /\nremote +unavailable \(below\) /);
    ok(
      text.stdout.includes(
        `servers that cannot start as configured (not retried):\n  remote: ${DETAIL}`,
      ),
      text.stdout,
    );
  });
});

Deno.test("over HTTP, /status names remote as unavailable and both profiles serve", async () => {
  await withCursorConfig(async (config) => {
    await using gateway = await startHttpGateway(config);
    const origin = gateway.url.slice(0, -"/mcp".length);
    const status = await (await fetch(`${origin}/status`)).json() as {
      servers: { server: string; state: string; reason?: string }[];
    };
    deepEqual(
      status.servers.map((s) => [s.server, s.state, s.reason]),
      [["memory", "ready", undefined], ["remote", "unavailable", DETAIL]],
    );
    for (const profile of ["cursor", "desk"]) {
      const client = await httpClient(`${origin}/mcp/${profile}`);
      try {
        const found = await bridge(client, { action: "search", query: "create entities graph" });
        match(textOf(found), /memory\/create_entities/, profile);
      } finally {
        await client.close();
      }
    }
  });
});

Deno.test({
  name: "the Worker serves its other upstreams and names remote with the variable to set",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using everything = await startHttpEverything();
    const upstreams = {
      mcpServers: {
        everything: { url: everything.url },
        remote: {
          url: "https://remote.invalid/mcp",
          headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
        },
      },
      unfold: { profiles: { cursor: { servers: ["everything", "remote"] } } },
    };
    const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: JSON.stringify(upstreams) });
    try {
      for (const path of ["/mcp", "/mcp/cursor"]) {
        const client = await httpClient(`${worker.url}${path}`);
        try {
          const { tools } = await client.listTools();
          ok(tools[0]!.description!.includes(`remote ("${DETAIL}")`), path);
          const found = await bridge(client, { action: "search", query: "echo back" });
          match(textOf(found), /everything\/echo/, path);
        } finally {
          await client.close();
        }
      }
      const status = await (await fetch(`${worker.url}/status`)).json() as {
        servers: { server: string; state: string; reason?: string }[];
      };
      deepEqual(
        status.servers.map((s) => [s.server, s.state, s.reason]),
        [["everything", "ready", undefined], ["remote", "unavailable", DETAIL]],
      );
    } finally {
      await worker.close();
    }
  },
});
