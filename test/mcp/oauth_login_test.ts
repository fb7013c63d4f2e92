// End to end: a real MCP server (server-everything over Streamable HTTP) behind a small OAuth
// authorization server and gate, signed in to with `unfold login`, then reached the way the
// gateway reaches it.
import { deepEqual, equal, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoConnector } from "../../src/cli/connector.ts";
import { McpError } from "../../src/tool_error.ts";
import { cliCommand, type CliRun, runCli } from "../gateway/_gateway.ts";
import { denoEnv, startHttpEverything } from "./_servers.ts";
import { startOAuthGate, startRecorder } from "./_oauth_gate.ts";

type Run = CliRun;

function unfold(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runCli(args, env);
}

type Result = { content: { type: string; text?: string }[]; isError?: boolean };

// The gateway over stdio, as an MCP host starts it; its stderr goes to `logs`.
async function gateway(env: Record<string, string>, config: string, logs: string[]) {
  const { command, args } = cliCommand("gateway", "--config", config);
  const transport = new StdioClientTransport({ command, args, env, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Uint8Array) => logs.push(new TextDecoder().decode(chunk)));
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(transport);
  const bridge = async (args: Record<string, unknown>) => {
    const result = await client.callTool({ name: "mcp", arguments: args }) as Result;
    return { ...result, text: result.content.map((b) => b.text ?? "").join("\n") };
  };
  return { client, bridge };
}

// Runs `unfold login`, follows the URL it prints as a browser would, and waits for it to end.
async function loginFollowing(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const { command, args: full } = cliCommand("login", ...args);
  const child = new Deno.Command(command, {
    args: full,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = new Response(child.stdout).text();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let stderr = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await lines.read();
    if (done) break;
    stderr += value;
    url = stderr.split("\n").find((line) => line.startsWith("http://"));
  }
  if (url !== undefined) {
    // A page that guesses the loopback port cannot end the sign-in: only our state is taken.
    const forged = new URL(new URL(url).searchParams.get("redirect_uri")!);
    forged.search = "?code=forged&state=guess";
    const refused = await fetch(forged);
    equal(refused.status, 400, await refused.text());
    const approved = await fetch(url, { redirect: "manual" });
    await approved.body?.cancel();
    const back = await fetch(approved.headers.get("location")!);
    equal(back.status, 200, await back.text());
  }
  for (let chunk = await lines.read(); !chunk.done; chunk = await lines.read()) {
    stderr += chunk.value;
  }
  return { code: (await child.status).code, stdout: await stdout, stderr };
}

Deno.test("unfold login signs in to an OAuth upstream; then it lists, calls and refreshes, and its token reaches no log and no other server", async () => {
  await using everything = await startHttpEverything();
  await using gate = startOAuthGate(everything.url);
  await using plain = startRecorder(everything.url);
  const dir = await Deno.makeTempDir({ prefix: "unfold-oauth-" });
  const config = `${dir}/mcp.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({ mcpServers: { secure: { url: gate.url }, plain: { url: plain.url } } }),
  );
  // A "browser" that only notes it was asked: --no-browser must never ask it.
  await Deno.mkdir(`${dir}/bin`);
  await Deno.writeTextFile(`${dir}/bin/xdg-open`, `#!/bin/sh\necho "$1" > ${dir}/opened\n`);
  await Deno.chmod(`${dir}/bin/xdg-open`, 0o755);
  const env = {
    ...denoEnv(),
    UNFOLD_CONFIG_DIR: `${dir}/config`,
    PATH: `${dir}/bin:${Deno.env.get("PATH")}`,
  };
  const logs: string[] = [];
  try {
    const before = await unfold(env, "inspect", "--config", config);
    logs.push(before.stdout, before.stderr);
    equal(before.code, 0, before.stderr);
    ok(before.stderr.includes(`(run \`unfold login --config ${config} secure\`)`), before.stderr);
    ok(/plain: ready, \d+ tools/.test(before.stderr), before.stderr);
    const early = await gateway(env, config, logs);
    try {
      const { tools } = await early.client.listTools();
      const overview = tools.find((tool) => tool.name === "mcp")?.description ?? "";
      ok(overview.includes("run `unfold login"), overview);
      // Said as a server waiting for the user, not as a broken one.
      ok(/need the user to sign in[^\n]*secure/.test(overview), overview);
      ok(!/Unavailable servers[^\n]*secure/.test(overview), overview);
      const found = await early.bridge({ action: "search", query: "echo" });
      ok(found.text.includes("plain/echo"), found.text);
    } finally {
      await early.client.close();
    }

    const signed = await loginFollowing(env, "--config", config, "secure", "--no-browser");
    logs.push(signed.stdout, signed.stderr);
    equal(signed.code, 0, signed.stderr);
    equal(signed.stdout.trim().split("\n").length, 1, signed.stdout);
    ok(signed.stdout.startsWith('Signed in to "secure"; tokens saved in '), signed.stdout);
    equal(await Deno.stat(`${dir}/opened`).then(() => true, () => false), false);

    const path = signed.stdout.trim().slice('Signed in to "secure"; tokens saved in '.length);
    equal((await Deno.stat(path)).mode! & 0o777, 0o600);
    equal((await Deno.stat(`${dir}/config/oauth`)).mode! & 0o777, 0o700);
    const stored = JSON.parse(await Deno.readTextFile(path));
    deepEqual(Object.keys(stored).sort(), ["client", "expiresAt", "server", "tokens", "url"]);
    ok(!/verifier|state/i.test(JSON.stringify(stored)));
    ok(gate.issued.includes(stored.tokens.access_token));

    const connect = denoConnector(() => {}, { env });
    const secure = await connect({ server: "secure", url: gate.url, headers: {} }, {});
    try {
      ok((await secure.tools()).some((tool) => tool.name === "echo"));
      equal(await secure.call("echo", { message: "hi" }), "Echo: hi");
      // The access token dies; the next call refreshes it without the user.
      gate.expireAccessTokens();
      equal(await secure.call("echo", { message: "again" }), "Echo: again");
      ok(gate.grants.includes("refresh_token"), gate.grants.join());
      const refreshed = JSON.parse(await Deno.readTextFile(path));
      ok(refreshed.tokens.access_token !== stored.tokens.access_token);
    } finally {
      await secure.close();
    }
    const open = await connect({ server: "plain", url: plain.url, headers: {} }, {});
    await open.tools();
    await open.close();

    const later = await gateway(env, config, logs);
    try {
      const found = await later.bridge({ action: "search", query: "echo" });
      ok(found.text.includes("secure/echo"), found.text);
      await later.bridge({ action: "describe", name: "secure/echo" });
      const echoed = await later.bridge({
        action: "execute",
        name: "secure/echo",
        arguments: { message: "through the gateway" },
      });
      equal(echoed.isError ?? false, false, echoed.text);
      ok(echoed.text.includes("Echo: through the gateway"), echoed.text);
    } finally {
      await later.client.close();
    }
    const after = await unfold(env, "inspect", "--config", config);
    logs.push(after.stdout, after.stderr);
    ok(/secure: ready, \d+ tools/.test(after.stderr), after.stderr);
    ok(plain.requests > 0);
    deepEqual(plain.authorizations, []);
    // Revoked for good: the next call fails at once saying what to run.
    const again = await connect({ server: "secure", url: gate.url, headers: {} }, {});
    try {
      gate.revokeAll();
      const revoked = await again.call("echo", { message: "once more" }).then(
        () => undefined,
        (e: Error) => e,
      );
      ok(revoked?.message.includes("run `unfold login secure`"), revoked?.message);
    } finally {
      await again.close();
    }
    deepEqual(plain.authorizations, []);
    for (const token of gate.issued) {
      ok(!logs.some((log) => log.includes(token)), "a token appeared in a log line");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the gateway's upstream that needs a sign-in fails with needs_login and the command to run", async () => {
  await using everything = await startHttpEverything();
  await using gate = startOAuthGate(everything.url);
  const dir = await Deno.makeTempDir({ prefix: "unfold-oauth-" });
  try {
    const connect = denoConnector(() => {}, {
      env: { UNFOLD_CONFIG_DIR: dir },
      configPath: "a.json",
    });
    const error = await connect({ server: "secure", url: gate.url, headers: {} }, {})
      .then(() => undefined, (e) => e);
    ok(error instanceof McpError);
    equal(error.code, "needs_login");
    equal(
      error.message,
      'Cannot connect to "secure": it needs a sign-in (run `unfold login --config a.json secure`)',
    );
    // Nothing was registered or stored on the user's behalf.
    deepEqual(gate.grants, []);
    equal(await Deno.stat(`${dir}/oauth`).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
