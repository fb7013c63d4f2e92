/**
 * What the host sees through the gateway when an upstream answers a call with its own JSON-RPC
 * error or a malformed result: an `isError` result naming the tool, its server and what went
 * wrong, while the other upstreams keep answering.
 */

import { equal, ok } from "node:assert/strict";
import { Gateway } from "../../../src/gateway/gateway.ts";
import { openLivePool } from "../../../src/gateway/pool/live_pool.ts";
import { connectStdio } from "../../../src/mcp/stdio.ts";
import { MemorySessionStore } from "../../../src/session/memory_store.ts";
import { denoEnv } from "../../mcp/_servers.ts";

const CONFIG = new URL("../../../deno.json", import.meta.url).pathname;
const FAKE = new URL("./_fake_upstream.ts", import.meta.url).pathname;
const BEHAVIOURS: Record<string, string> = {
  failing: "error-code",
  odd: "malformed-result",
  healthy: "healthy",
};

function text(result: { content?: readonly unknown[] | undefined }): string {
  return (result.content ?? []).map((block) => (block as { text?: string }).text ?? "").join("\n");
}

Deno.test("an upstream's JSON-RPC error and malformed result reach the host as isError results naming tool and server", async () => {
  const configs = Object.keys(BEHAVIOURS).map((server) => ({
    server,
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, FAKE, "--behaviour", BEHAVIOURS[server]!],
    env: denoEnv(),
  }));
  const pool = await openLivePool(
    configs,
    (config, options) => connectStdio(config as (typeof configs)[number], options),
  );
  const gateway = await Gateway.open(pool, {
    options: { pinned: [] },
    store: new MemorySessionStore(),
  });
  try {
    const failed = await gateway.call("mcp", { action: "execute", name: "failing/fail" });
    ok(failed.ok);
    equal(failed.result.isError, true);
    ok(text(failed.result).includes("failing/fail"), text(failed.result));
    ok(text(failed.result).includes("The fake failed on purpose"), text(failed.result));
    ok(text(failed.result).includes("-32000"), text(failed.result));

    const odd = await gateway.call("mcp", { action: "execute", name: "odd/odd" });
    ok(odd.ok);
    equal(odd.result.isError, true);
    ok(text(odd.result).includes("odd/odd"), text(odd.result));
    ok(text(odd.result).includes('"isError" must be true or false'), text(odd.result));

    const echo = await gateway.call("mcp", {
      action: "execute",
      name: "healthy/echo",
      arguments: { text: "still here" },
    });
    ok(echo.ok);
    equal(echo.result.isError, undefined);
    equal(text(echo.result), "still here");
  } finally {
    await gateway.close();
  }
});
