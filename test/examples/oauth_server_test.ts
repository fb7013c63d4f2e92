// examples/oauth_server.ts, as docs/oauth.md tells a user to try unfold login on one machine: the
// example's server needs a sign-in, `unfold login` signs in (a stand-in browser follows the
// sign-in page, which the example's authorization server approves at once), and then it is ready.
import { equal, match, ok } from "node:assert/strict";
import { runCli } from "../gateway/_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { ROOT } from "../_deno.ts";

Deno.test("examples/oauth_server.ts serves an OAuth-protected server that unfold login signs in to", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-oauth-demo-" });
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--node-modules-dir=auto", `${ROOT}examples/oauth_server.ts`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  try {
    let printed = "";
    while (!printed.includes("unfold inspect --config demo.json")) {
      const { value, done } = await lines.read();
      if (done) throw new Error(`the example exited: ${printed}`);
      printed += value;
    }
    const url = /listens at (\S+)/.exec(printed)![1]!;
    match(printed, /unfold login --config demo\.json demo/);
    const config = `${dir}/demo.json`;
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { demo: { url } } }));
    await Deno.mkdir(`${dir}/bin`);
    await Deno.writeTextFile(`${dir}/bin/xdg-open`, `#!/bin/sh\ncurl -sL "$1" >/dev/null &\n`);
    await Deno.chmod(`${dir}/bin/xdg-open`, 0o755);
    const env = {
      ...denoEnv(),
      UNFOLD_CONFIG_DIR: `${dir}/config`,
      PATH: `${dir}/bin:${Deno.env.get("PATH")}`,
    };
    const before = await runCli(["inspect", "--config", config], env);
    match(before.stdout + before.stderr, /demo\s+needs_login/);
    const login = await runCli(["login", "--config", config, "demo"], env);
    equal(login.code, 0, login.stderr);
    const after = await runCli(["inspect", "--config", config], env);
    ok(/demo\s+ready/.test(after.stdout), after.stdout + after.stderr);
  } finally {
    child.kill("SIGTERM");
    await lines.cancel().catch(() => {});
    await child.status;
    await Deno.remove(dir, { recursive: true });
  }
});
