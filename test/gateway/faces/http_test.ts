import { deepEqual, equal, ok } from "node:assert/strict";
import { createMcpHttpHandler } from "../../../src/gateway/faces/http.ts";
import type { ToolHost } from "../../../src/gateway/faces/server.ts";
import {
  emptySubscriptionAnswers,
  initializeBody,
  MCP_POST_HEADERS,
  MODERN,
  MODERN_ENVELOPE,
} from "../../_mcp_wire.ts";

const HOST: ToolHost = {
  serverInfo: { name: "demo", version: "1.0.0" },
  instructions: () => "",
  tools: () => [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
  call: () => Promise.resolve({ ok: true, result: { content: [] } }),
  onToolsChanged: () => () => {},
};

const HEADERS = MCP_POST_HEADERS;

async function initialize(handle: (r: Request, t: string) => Promise<Response>, tenant: string) {
  const response = await handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: HEADERS,
      body: initializeBody("2025-06-18", "t"),
    }),
    tenant,
  );
  await response.body?.cancel();
  const session = response.headers.get("mcp-session-id");
  ok(session !== null);
  return session;
}

async function listStatus(
  handle: (r: Request, t: string) => Promise<Response>,
  tenant: string,
  session: string,
): Promise<number> {
  const response = await handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
    }),
    tenant,
  );
  await response.body?.cancel();
  return response.status;
}

Deno.test("/mcp sessions are evicted least recently used, from the tenant holding the most", async () => {
  const { handle, close } = createMcpHttpHandler(HOST, {
    sessions: { kind: "memory", maxSessions: 3 },
  });
  const a = await initialize(handle, "tenant-a");
  equal(await listStatus(handle, "tenant-a", a), 200);
  const b: string[] = [];
  for (let i = 0; i < 6; i++) b.push(await initialize(handle, "tenant-b"));
  equal(await listStatus(handle, "tenant-a", a), 200, "tenant B's sessions never evict A's");
  equal(await listStatus(handle, "tenant-b", b[0]!), 404, "B's oldest went first");
  // Within one tenant the least recently used goes: b[4] is used now, so b[5] goes next.
  equal(await listStatus(handle, "tenant-b", b[5]!), 200);
  equal(await listStatus(handle, "tenant-b", b[4]!), 200);
  await initialize(handle, "tenant-b");
  equal(await listStatus(handle, "tenant-b", b[5]!), 404);
  equal(await listStatus(handle, "tenant-b", b[4]!), 200);
  equal(await listStatus(handle, "tenant-a", a), 200);
  await close();
});

Deno.test("/mcp answers a body that is not UTF-8 with a parse error, never a changed name", async () => {
  const called: string[] = [];
  const host: ToolHost = {
    ...HOST,
    call: (name) => (called.push(name), Promise.resolve({ ok: true, result: { content: [] } })),
  };
  const { handle, close } = createMcpHttpHandler(host, { sessions: { kind: "memory" } });
  const session = await initialize(handle, "t");
  const encoder = new TextEncoder();
  // "ech\xFF": a lenient decoder read it as "ech\uFFFD".
  const call = (version: string) =>
    Uint8Array.from([
      ...encoder.encode(
        `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"${version}"},"name":"ech`,
      ),
      0xff,
      ...encoder.encode('","arguments":{}}}'),
    ]);
  for (
    const headers of [
      { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" },
      { ...HEADERS, "mcp-protocol-version": "2026-07-28" },
    ]
  ) {
    const version = headers["mcp-protocol-version"];
    const response = await handle(
      new Request("http://localhost/mcp", { method: "POST", headers, body: call(version) }),
      "t",
    );
    equal(response.status, 400, version);
    const body = await response.json();
    equal(body.error.code, -32_700, version);
    equal(body.error.message, "Parse error: the request body is not UTF-8");
  }
  equal(called.length, 0, `the host was called with ${JSON.stringify(called)}`);
  await close();
});

Deno.test("/mcp ends a 2026-07-28 subscription to nothing offered at once, as stdio does", async () => {
  const { handle, close } = createMcpHttpHandler(HOST, { sessions: { kind: "memory" } });
  const response = await handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        ...HEADERS,
        "mcp-protocol-version": MODERN,
        "mcp-method": "subscriptions/listen",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "subscriptions/listen",
        params: { notifications: { promptsListChanged: true }, _meta: MODERN_ENVELOPE },
      }),
    }),
    "",
  );
  const data = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
  deepEqual(
    data.map((line) => JSON.parse(line.slice(6))),
    emptySubscriptionAnswers(1, HOST.serverInfo),
  );
  await close();
});
