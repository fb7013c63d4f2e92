/**
 * The one check of an upstream result (the connection's, `src/mcp/_connection.ts`, on the SDK's
 * public schemas) against what the SDK's server of each era sends: a result the check lets
 * through is one the server sends, and one it refuses is one the server would answer with a
 * protocol error (-32602), on generated results and hostile ones. So the gateway never turns an
 * upstream's result into a protocol error: it answers a tool error instead.
 */

import { equal } from "node:assert/strict";
import fc from "fast-check";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { hostServer, type ToolHost } from "../../src/gateway/faces/server.ts";
import { connectScripted, healthy } from "../mcp/_scripted.ts";
import { MCP_POST_HEADERS, MODERN, MODERN_ENVELOPE } from "../_mcp_wire.ts";
import { anyJson, toolResult } from "./_tool_results.ts";

const hostOf = (results: unknown[]): ToolHost => ({
  serverInfo: { name: "sdk", version: "1.0.0" },
  instructions: () => "",
  tools: () => [],
  call: (name) => Promise.resolve({ ok: true, result: results[Number(name)] as never }),
  onToolsChanged: () => () => {},
});

// Whether the SDK's 2025-era server sends each result (else it answers -32602).
async function legacySends(results: unknown[]): Promise<boolean[]> {
  const server = hostServer(hostOf(results));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "c", version: "1" });
  await client.connect(clientSide);
  const sent: boolean[] = [];
  for (let i = 0; i < results.length; i++) {
    sent.push(
      await client.callTool({ name: String(i) }).then(() => true, (error) => {
        equal(error.code, -32_602, String(error));
        return false;
      }),
    );
  }
  await client.close();
  return sent;
}

// Whether the SDK's 2026-07-28 server (stateless, over HTTP) sends each result.
async function modernSends(results: unknown[]): Promise<boolean[]> {
  const handler = createMcpHandler(() => hostServer(hostOf(results), { changes: "never" }));
  const sent: boolean[] = [];
  for (let i = 0; i < results.length; i++) {
    const response = await handler.fetch(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          ...MCP_POST_HEADERS,
          "mcp-protocol-version": MODERN,
          "mcp-method": "tools/call",
          "mcp-name": String(i),
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: String(i), _meta: MODERN_ENVELOPE },
        }),
      }),
    );
    const answer = await response.json();
    if ("error" in answer) equal(answer.error.code, -32_602, JSON.stringify(answer));
    sent.push("result" in answer);
  }
  await handler.close();
  return sent;
}

// Whether the connection's check lets each result through, for an era: the answers come as a stdio
// server's lines, read as the stdio client reads them.
async function checked(results: unknown[], era: "legacy" | "modern"): Promise<boolean[]> {
  const { connection } = await connectScripted((message, server) => {
    const reply = message.method === "tools/call"
      ? { jsonrpc: "2.0", id: message.id, result: results[Number(message.params.name)] }
      : healthy(message);
    if (reply !== undefined) server.write(`${JSON.stringify(reply)}\n`);
  });
  const passed: boolean[] = [];
  for (let i = 0; i < results.length; i++) {
    passed.push(await connection!.forward(String(i), {}, { era }).then(() => true, () => false));
  }
  await connection!.close();
  return passed;
}

async function assertAgree(values: unknown[]): Promise<void> {
  // As a wire carries them: JSON, so no member is `undefined` (the in-memory transport would
  // hand such an object over as it is).
  const results = values.map((value) => JSON.parse(JSON.stringify(value)));
  for (const [era, sends] of [["legacy", legacySends], ["modern", modernSends]] as const) {
    const expected = await sends(results);
    const actual = await checked(results, era);
    results.forEach((result, i) =>
      equal(actual[i], expected[i], `${era}: ${JSON.stringify(result)}, sent: ${expected[i]}`)
    );
    // Both verdicts came up.
    equal(new Set(expected).size, 2, era);
  }
}

Deno.test("the check of a result agrees with what the SDK's server of each era sends, on generated results", async () => {
  await assertAgree(
    fc.sample(fc.oneof(toolResult, toolResult, fc.dictionary(fc.string(), anyJson)), {
      numRuns: 300,
      seed: 37,
    }).filter((value) => typeof value === "object" && value !== null && !Array.isArray(value)),
  );
});

Deno.test("the check of a result agrees with what the SDK's server of each era sends, on hostile results", async () => {
  await assertAgree([
    { content: [{ type: "text", text: "ok" }] },
    { content: null },
    { content: {} },
    { content: [], isError: "yes" },
    { content: [], structuredContent: [1, 2] },
    { content: [], structuredContent: "text" },
    { content: [], _meta: { progressToken: 1.5 } },
    { content: [], _meta: { "io.modelcontextprotocol/related-task": {} } },
    { content: [{ type: "text", text: "a", annotations: { priority: Number.NaN } }] },
    { content: [{ type: "image", data: "\u00ff", mimeType: "x" }] },
    { content: [{ type: "resource", resource: { uri: "u", blob: "@@" } }] },
    { content: [{ type: "resource_link", name: "n", uri: "u", size: Infinity }] },
    { content: [{ type: "future", x: 1 }] },
    {},
    JSON.parse('{"content":[],"__proto__":{"isError":"x"}}'),
  ]);
});
