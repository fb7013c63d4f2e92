// `unfold login --callback-port N`: the browser comes back to that loopback port (for a server
// that registered a fixed redirect URL); a port in use is one line, exit 1.
import { equal, ok } from "node:assert/strict";
import { runCli } from "../gateway/_gateway.ts";
import { denoEnv, startHttpEverything } from "../mcp/_servers.ts";
import { startOAuthGate } from "../mcp/_oauth_gate.ts";

async function withGate(use: (config: string, env: Record<string, string>) => Promise<void>) {
  await using everything = await startHttpEverything();
  await using gate = startOAuthGate(everything.url);
  const dir = await Deno.makeTempDir({ prefix: "unfold-login-port-" });
  try {
    await Deno.writeTextFile(
      `${dir}/mcp.json`,
      JSON.stringify({ mcpServers: { secure: { url: gate.url } } }),
    );
    await use(`${dir}/mcp.json`, { ...denoEnv(), UNFOLD_CONFIG_DIR: `${dir}/config` });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("unfold login --callback-port on a port in use is one line, exit 1", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  await withGate(async (config, env) => {
    const run = await runCli(
      ["login", "--config", config, "secure", "--no-browser", "--callback-port", String(port)],
      env,
    );
    equal(run.code, 1);
    equal(
      run.stderr,
      `unfold: Cannot sign in to "secure": cannot wait for the sign-in on 127.0.0.1:${port}: the port is in use; choose another with --callback-port (0 takes any free one)\n`,
    );
  });
});

Deno.test("unfold login --callback-port N asks the server to send the browser back to port N", async () => {
  // The option's purpose is a port fixed in advance, so the test picks one the system just freed.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  await withGate(async (config, env) => {
    const run = await runCli([
      "login",
      "--config",
      config,
      "secure",
      "--no-browser",
      "--timeout",
      "1",
      "--callback-port",
      String(port),
    ], env);
    equal(run.code, 1, run.stderr);
    const url = run.stderr.split("\n").find((line) => line.startsWith("http://"));
    ok(url !== undefined, run.stderr);
    equal(
      new URL(url).searchParams.get("redirect_uri"),
      `http://127.0.0.1:${port}/callback`,
    );
  });
});
