/**
 * Names a user, a host or an upstream chose are data, never keys into `Object.prototype`: a
 * profile, a server or a route named `constructor`, `toString`, `hasOwnProperty` or `__proto__`
 * is an ordinary name at every door that looks one up — the CLI's `--profile` (gateway, inspect,
 * search, approve), the gateway's HTTP routes (`/mcp/NAME`, `/status`), the Worker's, and the
 * HTTP API's session ids.
 *
 * @module
 */

import { deepEqual, equal, match, notEqual } from "node:assert/strict";
import { runCli, startHttpGateway } from "./_gateway.ts";
import { postPing } from "./_profile_routes.ts";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/mod.ts";

// Members of every plain object: none of them is a profile of the configs below.
const INHERITED = ["toString", "hasOwnProperty", "__proto__", "valueOf", "isPrototypeOf"];

// A server named like a member of Object.prototype (an HTTP one nothing listens for, so that it
// fails at once), one whose token is a variable of such a name (never set here), a profile named
// `constructor` that uses the first, and one that uses none.
const CONFIG = {
  mcpServers: {
    toString: { url: "http://127.0.0.1:9/mcp" },
    remote: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${toString}" } },
  },
  unfold: {
    profiles: {
      constructor: { servers: ["toString"] },
      work: { servers: [] },
    },
  },
};

async function withConfigs(
  run: (paths: { named: string; bare: string }) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-proto-names-" });
  try {
    const named = `${dir}/named.json`;
    const bare = `${dir}/bare.json`;
    await Deno.writeTextFile(named, JSON.stringify(CONFIG));
    await Deno.writeTextFile(
      bare,
      JSON.stringify({ mcpServers: { toString: CONFIG.mcpServers.toString } }),
    );
    await run({ named, bare });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// Each command that takes --profile, with what else it needs.
const COMMANDS: readonly (readonly string[])[] = [
  ["gateway"],
  ["inspect"],
  ["search", "anything"],
  ["approve", "--all"],
];

Deno.test("--profile NAME is unknown for every name the config does not list, Object.prototype's included", async () => {
  await withConfigs(async ({ named, bare }) => {
    for (const command of COMMANDS) {
      for (const name of INHERITED) {
        const run = await runCli([...command, "--config", named, "--profile", name]);
        equal(run.code, 1, `${command[0]} --profile ${name}: ${run.stdout}${run.stderr}`);
        match(
          run.stderr,
          new RegExp(`unknown profile "${name}": the profiles are constructor, work`),
          `${command[0]} --profile ${name}`,
        );
      }
      // A config without profiles has no `constructor` either.
      const none = await runCli([...command, "--config", bare, "--profile", "constructor"]);
      equal(none.code, 1, `${command[0]}: ${none.stdout}${none.stderr}`);
      match(none.stderr, /unknown profile "constructor": the config has no "unfold\.profiles"/);
    }
  });
});

Deno.test("unfold setup NAME of an inherited member is an unknown host", async () => {
  for (const name of ["constructor", ...INHERITED]) {
    const run = await runCli(["setup", name, "--dry-run", "--config", "/nonexistent/mcp.json"]);
    equal(run.code, 2, `setup ${name}: ${run.stdout}${run.stderr}`);
    match(run.stderr, new RegExp(`unknown host ${name} \\(hosts: `));
  }
});

Deno.test("a profile named constructor and a server named toString are ordinary names to the CLI", async () => {
  await withConfigs(async ({ named }) => {
    const run = await runCli(["inspect", "--config", named, "--profile", "constructor", "--json"]);
    equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { servers: { server: string; state: string }[] };
    deepEqual(report.servers.map((s) => s.server), ["toString"]);
    // The other profile sees no server at all.
    const work = await runCli(["inspect", "--config", named, "--profile", "work", "--json"]);
    equal(work.code, 0, work.stderr);
    deepEqual(JSON.parse(work.stdout).servers, []);
  });
});

// The routes of one gateway (the CLI's over HTTP, or the Worker's) at `origin`.
async function probeRoutes(origin: string): Promise<void> {
  for (const name of INHERITED) {
    const answer = await postPing(`${origin}/mcp/${encodeURIComponent(name)}`);
    equal(answer.status, 404, `/mcp/${name}`);
    const body = await answer.json();
    equal(body.code, "not_found", `/mcp/${name}`);
    match(body.detail, new RegExp(`There is no profile "${name}"`));
  }
  const known = await postPing(`${origin}/mcp/constructor`);
  notEqual(known.status, 404, "/mcp/constructor is a profile of the config");
  await known.body?.cancel();
  const status = await fetch(`${origin}/status`);
  equal(status.status, 200);
  const shown = await status.json() as {
    servers: { server: string; state: string; reason?: string }[];
    profiles: { name: string }[];
  };
  deepEqual(shown.servers.map((s) => s.server), ["toString", "remote"]);
  // `${toString}` is a variable, not set: never Object.prototype's function sent as a token.
  const remote = shown.servers[1]!;
  deepEqual([
    remote.state,
    remote.reason?.startsWith("the environment variable toString is not set"),
  ], [
    "unavailable",
    true,
  ]);
  deepEqual(shown.profiles.map((p) => p.name).sort(), ["constructor", "work"]);
}

Deno.test("the gateway's HTTP routes and /status take inherited names (a route, a variable) as ordinary ones", async () => {
  await withConfigs(async ({ named }) => {
    await using gateway = await startHttpGateway(named);
    await probeRoutes(gateway.url.slice(0, -"/mcp".length));
  });
});

Deno.test({
  name:
    "the Worker's routes and /status take inherited names (a route, a variable) as ordinary ones",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const worker = await startGatewayWorker({ UNFOLD_UPSTREAMS: JSON.stringify(CONFIG) });
    try {
      await probeRoutes(worker.url);
    } finally {
      await worker.close();
    }
  },
});

Deno.test("session ids named like Object.prototype's members are sessions of their own", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const catalog = [{
    server: "constructor",
    name: "toString",
    description: "d",
    inputSchema: { type: "object" },
  }];
  for (const session of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
    equal((await app.request(`/v1/sessions/${session}`)).status, 404, `${session} before`);
    const routed = await app.request("/v1/route", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        session,
        catalog,
        arguments: { action: "describe", name: "constructor/toString" },
      }),
    });
    equal(routed.status, 200);
    equal((await routed.json()).action, "describe");
    const kept = await (await app.request(`/v1/sessions/${session}`)).json();
    deepEqual([kept.session, kept.described], [session, ["constructor/toString"]]);
  }
});
