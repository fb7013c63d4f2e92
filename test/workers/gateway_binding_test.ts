import { deepEqual, equal, ok } from "node:assert/strict";
import { startWrangler } from "../e2e/_processes.ts";
import { startGatewayWorker } from "./_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { initializeBody, MCP_POST_HEADERS } from "../_mcp_wire.ts";

const catalog = [
  {
    server: "github",
    name: "create_issue",
    description: "Create an issue in a repository",
    inputSchema: { type: "object", properties: { title: { type: "string" } } },
  },
];

Deno.test("the gateway Worker answers /openapi.json and /v1 through its API binding", async () => {
  const worker = await startGatewayWorker();
  try {
    const openapi = await fetch(`${worker.url}/openapi.json`);
    equal(openapi.status, 200);
    const document = await openapi.json();
    equal(document.openapi, "3.1.0");
    ok("/v1/route" in document.paths && "/v1/sessions/{session}" in document.paths);
    const routed = await fetch(`${worker.url}/v1/route`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        catalog,
        session: "through-the-binding",
        arguments: { action: "search", query: "open an issue" },
      }),
    });
    equal(routed.status, 200);
    const result = await routed.json();
    deepEqual(result.matches.map((m: { id: string }) => m.id), [
      "github/create_issue",
    ]);
    const session = await fetch(`${worker.url}/v1/sessions/through-the-binding`);
    equal(session.status, 200);
    equal((await session.json()).counters.searches, 1);
    // The API Worker's problems come back as they are.
    const bad = await fetch(`${worker.url}/v1/route`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{",
    });
    equal(bad.status, 400);
    equal(bad.headers.get("content-type"), "application/problem+json");
    equal((await bad.json()).code, "invalid_json");
  } finally {
    await worker.close();
  }
});

Deno.test("the gateway Worker without its API Worker answers 503 api_unavailable, saying what to start", async () => {
  // The gateway alone: its API binding names a Worker that is not running. Its page is static.
  await using remote = await startHttpEverything();
  const upstreams = JSON.stringify({ mcpServers: { remote: { url: remote.url } } });
  const vars = { UNFOLD_UPSTREAMS: upstreams };
  const worker = await startWrangler("wrangler.gateway.toml", vars, undefined, [], "/");
  try {
    for (const path of ["/healthz", "/openapi.json", "/v1/sessions/x"]) {
      const response = await fetch(`${worker.url}${path}`);
      equal(response.status, 503, path);
      equal(response.headers.get("content-type"), "application/problem+json", path);
      const body = await response.json();
      equal(body.code, "api_unavailable", path);
      ok(
        body.detail.includes("wrangler dev -c wrangler.gateway.toml -c wrangler.toml"),
        body.detail,
      );
    }
    // /mcp's sessions are the API Worker's objects: a new session cannot be kept without it.
    const initialize = await fetch(`${worker.url}/mcp`, {
      method: "POST",
      headers: MCP_POST_HEADERS,
      body: initializeBody("2025-11-25", "test"),
    });
    equal(initialize.status, 503);
    equal(initialize.headers.get("retry-after"), "1");
    const why = await initialize.json();
    equal(why.code, "session_store_unavailable");
    ok(why.detail.includes("The MCP sessions are the API Worker's"), why.detail);
  } finally {
    await worker.close();
  }
});
