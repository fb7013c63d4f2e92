// One behaviour on every face: the same 2026-07-28 request on a stdio connection and on the HTTP
// face gets the same JSON-RPC answer (member order aside), where the SDK's stdio entry alone
// answers otherwise (`src/gateway/faces/stdio.ts` judges them as HTTP does): an envelope that is
// wrong or names another revision after the opening, which HTTP checks at every request.
import { deepEqual } from "node:assert/strict";
import { createMcpHttpHandler } from "../../../src/gateway/faces/http.ts";
import { envelope, fakeHost, modern, rpc, stdioAnswers } from "../_stdio_host.ts";
import { MCP_POST_HEADERS, MODERN } from "../../_mcp_wire.ts";

const REQUESTS = [
  modern(1, "tools/list", {
    _meta: { "io.modelcontextprotocol/clientCapabilities": { roots: 5 } },
  }),
  modern(2, "tools/list", {
    _meta: { "io.modelcontextprotocol/clientInfo": { name: "c", version: "1", title: 1 } },
  }),
  modern(3, "tools/list", {
    _meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: { tools: 5 } } },
  }),
  modern(5, "tools/list", { _meta: { "io.modelcontextprotocol/logLevel": "loud" } }),
  modern(6, "tools/list", { _meta: { "io.modelcontextprotocol/clientInfo": { icons: 5 } } }),
  modern(7, "tools/call", { name: "echo", _meta: { "io.modelcontextprotocol/clientInfo": 5 } }),
  modern(8, "subscriptions/listen", {
    notifications: { toolsListChanged: true },
    _meta: { "io.modelcontextprotocol/clientCapabilities": { roots: 5 } },
  }),
  rpc(9, "tools/list", {
    _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": "2030-01-01" },
  }),
  rpc(10, "tools/list", { _meta: { ...envelope, "io.modelcontextprotocol/protocolVersion": 2 } }),
  rpc(11, "tools/list", {
    _meta: {
      "io.modelcontextprotocol/protocolVersion": MODERN,
      "io.modelcontextprotocol/clientInfo": { name: "c", version: "1" },
    },
  }),
];

async function overHttp(line: string): Promise<unknown[]> {
  const { handle, close } = createMcpHttpHandler(fakeHost([]), { sessions: { kind: "memory" } });
  const request = JSON.parse(line);
  // The header names the version the envelope names (else the HTTP face answers their mismatch).
  const claimed = request.params._meta["io.modelcontextprotocol/protocolVersion"];
  const response = await handle(
    new Request("http://localhost/mcp", {
      method: "POST",
      headers: {
        ...MCP_POST_HEADERS,
        "mcp-protocol-version": typeof claimed === "string" ? claimed : MODERN,
        "mcp-method": request.method,
        ...(typeof request.params?.name === "string" ? { "mcp-name": request.params.name } : {}),
      },
      body: line,
    }),
    "",
  );
  const text = await response.text();
  await close();
  return text.trimStart().startsWith("{")
    ? [JSON.parse(text)]
    : text.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
}

Deno.test("a pinned 2026-07-28 stdio connection answers each envelope as the HTTP face", async () => {
  for (const line of REQUESTS) {
    // The first request pins the connection's era; the second is the one compared.
    const stdio = (await stdioAnswers([modern(0, "tools/list"), line])).slice(1);
    deepEqual(stdio, await overHttp(line), line);
  }
});
