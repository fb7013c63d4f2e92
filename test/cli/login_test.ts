import { equal, match, ok } from "node:assert/strict";
import { type CliRun, runCli } from "../gateway/_gateway.ts";
import { denoEnv, startHttpEverything } from "../mcp/_servers.ts";
import { startOAuthGate } from "../mcp/_oauth_gate.ts";

function unfold(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return runCli(args, env);
}

async function withConfig(
  servers: Record<string, unknown>,
  run: (config: string, env: Record<string, string>, dir: string) => Promise<void>,
) {
  const dir = await Deno.makeTempDir({ prefix: "unfold-login-" });
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify({ mcpServers: servers }));
    await run(`${dir}/mcp.json`, { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/config` }, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("unfold login refuses a server the config does not have, a stdio server and one with its own Authorization header, in one line", async () => {
  const servers = {
    local: { command: "true" },
    keyed: { url: "https://example.com/mcp", headers: { Authorization: "Bearer k" } },
  };
  await withConfig(servers, async (config, env) => {
    const unknown = await unfold(env, "login", "--config", config, "github", "--no-browser");
    equal(unknown.code, 1);
    equal(unknown.stdout, "");
    equal(unknown.stderr, `unfold: Cannot sign in to "github": ${config} has no server "github"\n`);
    const stdio = await unfold(env, "login", "--config", config, "local", "--no-browser");
    equal(stdio.code, 1);
    equal(
      stdio.stderr,
      'unfold: Cannot sign in to "local": it is a stdio server; OAuth sign-in is for Streamable HTTP servers (a "url")\n',
    );
    const keyed = await unfold(env, "login", "--config", config, "keyed", "--no-browser");
    equal(keyed.code, 1);
    equal(
      keyed.stderr,
      'unfold: Cannot sign in to "keyed": its entry sends its own Authorization header, which takes the place of OAuth; remove it to sign in\n',
    );
  });
});

Deno.test("unfold login needs exactly one server name", async () => {
  await withConfig({}, async (config, env) => {
    const none = await unfold(env, "login", "--config", config);
    equal(none.code, 2);
    match(none.stderr, /^unfold: login needs one server name\nUsage:/);
  });
});

Deno.test("unfold login opens the browser unless told not to, and gives up when no sign-in comes back", async () => {
  await using everything = await startHttpEverything();
  await using gate = startOAuthGate(everything.url);
  await withConfig({ secure: { url: gate.url } }, async (config, env, dir) => {
    // A "browser" that notes the URL it was given and does nothing else.
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/xdg-open`, `#!/bin/sh\necho "$1" > ${dir}/opened\n`);
    await Deno.chmod(`${dir}/bin/xdg-open`, 0o755);
    const path = { ...env, PATH: `${dir}/bin:${Deno.env.get("PATH")}` };
    const result = await unfold(path, "login", "--config", config, "secure", "--timeout", "1");
    equal(result.code, 1);
    const url = result.stderr.split("\n").find((line) => line.startsWith("http://"));
    ok(url !== undefined, result.stderr);
    ok(url.includes("code_challenge_method=S256"), url);
    equal((await Deno.readTextFile(`${dir}/opened`)).trim(), url);
    ok(
      result.stderr.endsWith(
        'unfold: Cannot sign in to "secure": no sign-in came back within 1 s\n',
      ),
      result.stderr,
    );
    // A failed sign-in stores nothing.
    equal(await Deno.stat(`${dir}/config/oauth`).then(() => true, () => false), false);
  });
});
