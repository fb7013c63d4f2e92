// The MCP Inspector CLI (npm @modelcontextprotocol/inspector, run with npx as its docs say) opens a
// new session for each call: with describeFirst "off" it executes a bridged tool in that one call;
// with "enforce" it gets the tool's schema.
import { equal, ok } from "node:assert/strict";
import { ROOT } from "../_deno.ts";
import { npmServer } from "../mcp/_servers.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@2.12.0";

// The Inspector's exit code (1 when the result is an error) and what it printed.
async function inspectorCall(
  describeFirst: "enforce" | "off",
): Promise<{ code: number; stdout: string }> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-inspector-" });
  // The Inspector gives its server 15 s to connect: on a loaded machine a first compile of the
  // gateway and the server took most of it, so both are compiled before the Inspector starts.
  await new Deno.Command(Deno.execPath(), {
    args: [
      "cache",
      "--node-modules-dir=auto",
      `${ROOT}src/cli/main.ts`,
      "npm:@modelcontextprotocol/server-everything@2026.8.31",
    ],
    cwd: ROOT,
    stdout: "null",
    stderr: "null",
  }).output();
  try {
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(
      config,
      JSON.stringify({
        mcpServers: {
          // Through the project's node_modules: a --no-config run would download the package
          // with Deno's own certificate store, which a TLS-inspecting proxy makes fail.
          everything: npmServer("@modelcontextprotocol/server-everything"),
        },
        unfold: { describeFirst },
      }),
    );
    const out = await new Deno.Command("npx", {
      args: [
        "-y",
        INSPECTOR,
        "--cli",
        "--method",
        "tools/call",
        "--tool-name",
        "mcp",
        "--tool-arg",
        "action=execute",
        "--tool-arg",
        "name=everything/echo",
        "--tool-arg",
        'arguments={"message":"one call"}',
        // A cache of the test's own: no snapshot of an earlier run answers for the gateway.
        "-e",
        `UNFOLD_CACHE_DIR=${dir}/cache`,
        "--",
        Deno.execPath(),
        "run",
        "-A",
        "--node-modules-dir=auto",
        "--quiet",
        `${ROOT}src/cli/main.ts`,
        "gateway",
        "--config",
        config,
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stdout = new TextDecoder().decode(out.stdout);
    ok(stdout.includes('"content"'), new TextDecoder().decode(out.stderr).slice(-2_000));
    return { code: out.code, stdout };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("docs/gateway.md names the Inspector version these tests run", async () => {
  const doc = await Deno.readTextFile(`${ROOT}docs/gateway.md`);
  ok(
    new RegExp(`npx -y ${INSPECTOR.replaceAll(".", "\\.")}\\s`).test(doc),
    `not pinned: ${INSPECTOR}`,
  );
});

Deno.test("describeFirst off: the Inspector CLI executes a bridged tool in one call", async () => {
  const { code, stdout } = await inspectorCall("off");
  equal(code, 0, stdout);
  ok(stdout.includes("Echo: one call"), stdout);
  ok(!stdout.includes('"isError": true'), stdout);
});

Deno.test("describeFirst enforce: the Inspector CLI's one call gets the schema", async () => {
  const { stdout } = await inspectorCall("enforce");
  ok(stdout.includes("describe_first"), stdout);
  ok(stdout.includes('\\"required\\":[\\"message\\"]'), stdout);
  ok(!stdout.includes("Echo: one call"), stdout);
});
