// A stdio server whose command is not on the PATH (`npxx`): its state says "command not found:
// npxx" in inspect and on stderr, the model is told the server is unavailable (not to try again
// later), and it is looked for again ever more rarely, up to 10 minutes apart.
import { errorAction } from "../../src/bridge/action.ts";
import { deepEqual, equal, match } from "node:assert/strict";
import { runCli } from "./_gateway.ts";
import { connectStdio } from "../../src/mcp/stdio.ts";
import { openLivePool } from "../../src/gateway/pool/live_pool.ts";
import { explainConfiguredServer } from "../../src/gateway/results.ts";
import { McpError } from "../../src/tool_error.ts";

Deno.test("inspect and stderr say command not found: npxx, not spawn npxx ENOENT", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-npxx-" });
  try {
    const config = { mcpServers: { typo: { command: "npxx", args: ["-y", "x"] } } };
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config));
    const run = await runCli(["inspect", "--config", `${dir}/mcp.json`]);
    equal(run.code, 0, run.stderr);
    match(run.stdout, /\ntypo\s+failed: Cannot connect to "typo": command not found: npxx\s/);
    match(
      run.stderr,
      /^unfold: typo: failed \(Cannot connect to "typo": command not found: npxx\)$/m,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the model is told a server whose command is missing is unavailable", () => {
  const message =
    'there is no tool "typo/x" in this catalogue. The server "typo" does not exist here.';
  const action = explainConfiguredServer(
    errorAction("unknown_tool", message, `Error unknown_tool: ${message}`),
    [{ server: "typo", state: "failed", detail: "command not found: npxx", tools: 0 }],
  );
  match(
    action.action === "error" ? action.message : "",
    /\(failed: "command not found: npxx"\); it is unavailable until the user installs that command or changes the config/,
  );
});

Deno.test("a missing command is looked for again with backoff up to 10 minutes", async () => {
  const delays: number[] = [];
  let clock = 0;
  // Resolved by the pool's own scheduler: each failed look schedules the next one.
  let next = Promise.withResolvers<() => void>();
  const pool = await openLivePool(
    [{ server: "typo", command: "npxx", args: [], env: {} }],
    (config) => connectStdio(config as Parameters<typeof connectStdio>[0]),
    {
      now: () => clock,
      schedule: (run, ms) => {
        delays.push(ms);
        clock += ms;
        next.resolve(run);
        return () => {};
      },
      startupTimeoutMs: 10_000,
    },
  );
  try {
    equal(pool.statuses()[0]!.detail, 'Cannot connect to "typo": command not found: npxx');
    // Each retry fails the same way, and schedules the next one.
    while (delays.length < 12) {
      const run = await next.promise;
      next = Promise.withResolvers();
      run();
      await next.promise;
    }
    deepEqual(delays, [
      1_000,
      2_000,
      4_000,
      8_000,
      16_000,
      32_000,
      64_000,
      128_000,
      256_000,
      512_000,
      600_000,
      600_000,
    ]);
    equal(pool.statuses()[0]!.detail, 'Cannot connect to "typo": command not found: npxx');
  } finally {
    await pool.close();
  }
});

Deno.test("connectStdio() fails with command not found when the command is not on the PATH", async () => {
  const error = await connectStdio({ server: "typo", command: "npxx", args: [], env: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  equal(
    error instanceof McpError && error.message,
    'Cannot connect to "typo": command not found: npxx',
  );
});
