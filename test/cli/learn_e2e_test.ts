// Search that learns, end to end: the real gateway over stdio in front of server-everything, its
// learned prior kept under UNFOLD_CACHE_DIR, read by `unfold search`, cleared by `unfold forget`.
import { equal, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { cliCommand, runCli, writeConfig } from "../gateway/_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";

const QUERY = "ship the release notes";

async function searched(path: string, env: Record<string, string>): Promise<string[]> {
  const { code, stdout, stderr } = await runCli(
    ["search", "--config", path, "--json", "--limit", "10", QUERY],
    env,
  );
  ok(code === 0 || code === 1, stderr);
  return code === 0 ? (JSON.parse(stdout) as { id: string }[]).map((m) => m.id) : [];
}

Deno.test("a tool executed through the gateway rises for the same words in unfold search, until unfold forget", async () => {
  const { path, dir } = await writeConfig();
  const env = { ...denoEnv(), UNFOLD_CACHE_DIR: `${dir}/cache` };
  try {
    const place = (ids: string[]) =>
      ids.includes("everything/echo") ? ids.indexOf("everything/echo") : 99;
    const before = await searched(path, env);
    ok(place(before) >= 5, before.join(", "));
    const { command, args } = cliCommand("gateway", "--config", path);
    const client = new Client({ name: "learn-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }));
    try {
      await client.callTool({ name: "mcp", arguments: { action: "search", query: QUERY } });
      await client.callTool({
        name: "mcp",
        arguments: { action: "describe", name: "everything/echo" },
      });
      const done = await client.callTool({
        name: "mcp",
        arguments: { action: "execute", name: "everything/echo", arguments: { message: "hi" } },
      });
      equal(done.isError ?? false, false, JSON.stringify(done));
    } finally {
      await client.close();
    }
    const after = await searched(path, env);
    ok(place(after) < place(before), after.join(", "));
    const forgot = await runCli(["forget"], env);
    equal(forgot.code, 0, forgot.stderr);
    ok(forgot.stdout.includes("forgot what search learned (1 file"), forgot.stdout);
    equal(place(await searched(path, env)), place(before));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
