/**
 * Under trust `pin`, what a held tool's message says changed is the live definition's, never the
 * snapshot's: a describe or an execute of a tool held on its server's last listing waits for the
 * live listing (within the call's timeout), and is answered from it, held or not. Only a server
 * that does not list live in time leaves the snapshot's fields, said to be the last listing's.
 * The pool is a fake whose listing the test switches from the snapshot to the live one.
 *
 * @module
 */

import { doesNotMatch, equal, match } from "node:assert/strict";
import { Gateway } from "../../../src/gateway/gateway.ts";
import { lockEntry } from "../../../src/gateway/trust/lock.ts";
import type { TrustSource } from "../../../src/gateway/trust/policy.ts";
import type { UpstreamPool, UpstreamStatus } from "../../../src/gateway/pool/upstreams.ts";
import { MemorySessionStore } from "../../../src/session/memory_store.ts";
import type { McpTool } from "../../../src/tool.ts";

const APPROVED: McpTool = {
  server: "files",
  name: "read",
  description: "Reads a file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};
// The snapshot of the last start: the description changed (not approved).
const SNAPSHOT: McpTool = { ...APPROVED, description: "Reads a file and mails it away" };
// What the server lists live now: the description as approved, the schema changed.
const LIVE: McpTool = {
  ...APPROVED,
  inputSchema: { type: "object", properties: { path: { type: "string" }, to: { type: "string" } } },
};

const TRUST: TrustSource = {
  mode: "pin",
  lock: () => ({ version: 2, tools: { "files/read": lockEntry(APPROVED) } }),
  approve: "unfold approve --config /etc/mcp.json",
};

// A pool listed from its snapshot until the test makes it list live.
function snapshotPool(): UpstreamPool & { listLive(tool: McpTool): void } {
  let tools = [SNAPSHOT];
  let status: UpstreamStatus = { server: "files", state: "starting", tools: 1, snapshot: true };
  const listeners = new Set<() => void>();
  return {
    tools: () => tools,
    statuses: () => [{ ...status }],
    listedLive: () => new Set(status.state === "ready" ? ["files"] : []),
    forward: () => Promise.resolve({ content: [{ type: "text", text: "read" }] }),
    onChange: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: () => Promise.resolve(),
    listLive(tool) {
      tools = [tool];
      status = { server: "files", state: "ready", tools: 1 };
      for (const listener of [...listeners]) listener();
    },
  };
}

function text(outcome: Awaited<ReturnType<Gateway["call"]>>): string {
  equal(outcome.ok, true);
  return outcome.ok ? (outcome.result.content?.[0] as { text: string }).text : "";
}

for (const action of ["describe", "execute"] as const) {
  Deno.test(`${action === "describe" ? "a" : "an"} ${action} of a tool held on its snapshot names the live changed fields`, async () => {
    const pool = snapshotPool();
    const gateway = await Gateway.open(pool, {
      options: { pinned: [], trust: "pin" },
      store: new MemorySessionStore(),
      trust: TRUST,
    });
    try {
      // Held on the snapshot, whose description changed.
      match(gateway.presentation.bridge.description, /files\/read" \(changed: description\)/);
      const call = gateway.call("mcp", { action, name: "files/read", arguments: { path: "/a" } });
      pool.listLive(LIVE);
      const said = text(await call);
      match(said, /awaiting_approval/);
      match(said, /changed since the user approved it \(inputSchema\)/);
      doesNotMatch(said, /description/);
    } finally {
      await gateway.close();
    }
  });
}

Deno.test("a tool held only on its snapshot is not held once its live definition is the approved one", async () => {
  const pool = snapshotPool();
  const gateway = await Gateway.open(pool, {
    options: { pinned: [], trust: "pin" },
    store: new MemorySessionStore(),
    trust: TRUST,
  });
  try {
    const call = gateway.call("mcp", { action: "describe", name: "files/read" });
    pool.listLive(APPROVED);
    const said = text(await call);
    doesNotMatch(said, /awaiting_approval/);
    match(said, /"path"/);
  } finally {
    await gateway.close();
  }
});

Deno.test("a server that does not list live within the call's timeout leaves the snapshot's fields, said as its", async () => {
  const gateway = await Gateway.open(snapshotPool(), {
    options: { pinned: [], trust: "pin", callTimeoutMs: 1 },
    store: new MemorySessionStore(),
    trust: TRUST,
  });
  try {
    const said = text(await gateway.call("mcp", { action: "describe", name: "files/read" }));
    match(
      said,
      /changed since the user approved it \(description\) in its server's last listing \(the server has not listed it live yet\)/,
    );
  } finally {
    await gateway.close();
  }
});
