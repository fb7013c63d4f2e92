/**
 * `unfold inspect` reports what the `unfold` command's gateway serves: the same `tools/list` and
 * instruction tokens at the config's context size, code mode's `run` included (the command
 * always has a sandbox, so its default offers `run`; inspect used to count the bridge without it).
 *
 * @module
 */

import { equal } from "node:assert/strict";
import { Gateway } from "../../src/gateway/gateway.ts";
import { inspectCatalog } from "../../src/cli/inspect.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import type { UpstreamPool } from "../../src/gateway/pool/upstreams.ts";
import type { McpTool } from "../../src/tool.ts";
import { VmSandbox } from "../code_mode/_vm_sandbox.ts";

const TOOLS: McpTool[] = Array.from({ length: 12 }, (_, i) => ({
  server: i % 2 === 0 ? "files" : "notes",
  name: `tool_${i}`,
  description: `Works on item ${i} of the store, reading or writing it`,
  inputSchema: { type: "object", properties: { id: { type: "string" } } },
  ...(i % 3 === 0 ? { annotations: { readOnlyHint: true } } : {}),
}));

const pool: UpstreamPool = {
  tools: () => TOOLS,
  statuses: () => [
    { server: "files", state: "ready", tools: 6 },
    { server: "notes", state: "ready", tools: 6 },
  ],
  listedLive: () => new Set(["files", "notes"]),
  forward: () => Promise.reject(new Error("unused")),
  onChange: () => () => {},
  close: () => Promise.resolve(),
};

for (const codeMode of [undefined, "off", "all"] as const) {
  Deno.test(`inspect counts the gateway's own tools/list, codeMode ${codeMode ?? "default"}`, async () => {
    const options = {
      pinned: [],
      availableContextTokens: 32_000,
      ...(codeMode === undefined ? {} : { codeMode }),
    };
    const gateway = await Gateway.open(pool, {
      options,
      store: new MemorySessionStore(),
      sandbox: new VmSandbox(),
    });
    try {
      const served = gateway.presentation;
      const report = inspectCatalog(gateway.catalog, gateway.statuses(), options);
      const row = report.budgets.find((b) => b.availableContextTokens === 32_000)!;
      equal(row.toolTokens, served.toolTokens);
      equal(row.instructionTokens, served.instructionTokens);
    } finally {
      await gateway.close();
    }
  });
}
