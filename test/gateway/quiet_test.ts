// The gateway says only its own lines on stderr in normal use: no Deno notice, no warning, over
// stdio and over Streamable HTTP, where clients also go away in the middle of a response.
import { deepEqual, equal, ok } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { spawnLogged } from "../_deno.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { cliCommand, httpClient, runCli, writeConfig } from "./_gateway.ts";
import { initializeBody, MCP_POST_HEADERS } from "../_mcp_wire.ts";

// Lines on stderr that are not the gateway's own: each of its lines (its relays of an upstream's
// stderr included) starts with "unfold: ", and none of them is a warning.
function foreignLines(stderr: string): string[] {
  return stderr.split("\n").filter((line) =>
    line !== "" && (!line.startsWith("unfold: ") || /warning|notice|deprecat/i.test(line))
  );
}

function text(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

// A search, then a describe and an execute of the same tool: what a model does in a session.
async function useBridge(client: Client): Promise<void> {
  deepEqual((await client.listTools()).tools.map((tool) => tool.name), ["mcp", "discover"]);
  const found = await client.callTool({
    name: "mcp",
    arguments: { action: "search", query: "echo" },
  });
  ok(text(found).includes("everything/echo"), text(found));
  await client.callTool({
    name: "mcp",
    arguments: { action: "describe", name: "everything/echo" },
  });
  const echoed = await client.callTool({
    name: "mcp",
    arguments: { action: "execute", name: "everything/echo", arguments: { message: "hi" } },
  });
  equal(text(echoed), "Echo: hi");
}

Deno.test("the stdio gateway writes only its own lines on stderr from start to exit", async () => {
  const { path } = await writeConfig();
  const { command, args } = cliCommand("gateway", "--config", path);
  const transport = new StdioClientTransport({ command, args, env: denoEnv(), stderr: "pipe" });
  let stderr = "";
  const decoder = new TextDecoder();
  transport.stderr?.on("data", (chunk: Uint8Array) => stderr += decoder.decode(chunk));
  const client = new Client({ name: "quiet-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    await useBridge(client);
  } finally {
    await client.close();
  }
  ok(stderr.includes("unfold: serving "), stderr);
  deepEqual(foreignLines(stderr), []);
});

const HEADERS = MCP_POST_HEADERS;

// Opens a 2025-era session by hand, so the test holds the raw streams it then abandons.
async function openSession(url: string): Promise<Record<string, string>> {
  const response = await fetch(url, {
    method: "POST",
    headers: HEADERS,
    body: initializeBody("2025-06-18", "quiet-test"),
  });
  await response.body?.cancel();
  const session = response.headers.get("mcp-session-id");
  ok(session !== null);
  const headers = { ...HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
  const initialized = await fetch(url, {
    method: "POST",
    headers,
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  await initialized.body?.cancel();
  return headers;
}

// Starts a response, reads its first bytes, then goes away without reading the rest.
async function abandon(url: string, init: RequestInit): Promise<void> {
  const client = new AbortController();
  const response = await fetch(url, { ...init, signal: client.signal });
  equal(response.status, 200);
  const reader = response.body!.getReader();
  if (init.method === "POST") ok(!(await reader.read()).done);
  client.abort();
  await reader.read().catch(() => {});
}

Deno.test("the HTTP gateway writes no Deno notice when clients finish or abandon responses", async () => {
  const { path } = await writeConfig({ lab: true, unfold: { describeFirst: "off" } });
  const { command, args } = cliCommand("gateway", "--config", path, "--http", "--port", "0");
  const { child, lines } = spawnLogged(command, args, denoEnv());
  let stderr = "";
  let url: string | undefined;
  while (url === undefined) {
    const { value, done } = await lines.read();
    if (done) throw new Error(`the gateway exited before listening: ${stderr}`);
    stderr += value;
    url = /tools at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
  }
  const rest = (async () => {
    for (let read = await lines.read(); !read.done; read = await lines.read()) stderr += read.value;
  })();
  try {
    const client = await httpClient(url);
    try {
      await useBridge(client);
    } finally {
      await client.close();
    }
    const headers = await openSession(url);
    // The session's GET stream (for list_changed), closed by the client.
    await abandon(url, { method: "GET", headers: { ...headers, accept: "text/event-stream" } });
    // A call that is still running when the client stops reading its answer: lab/wait answers
    // progress at once, then waits for a cancellation that never comes.
    await abandon(url, {
      method: "POST",
      headers,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "mcp",
          arguments: { action: "execute", name: "lab/wait", arguments: {} },
          _meta: { progressToken: 1 },
        },
      }),
    });
  } finally {
    // Stopping waits for every request to end, which is when Deno would print its notice.
    child.kill("SIGTERM");
    await child.status;
    await rest;
  }
  ok(stderr.includes("unfold: serving "), stderr);
  deepEqual(foreignLines(stderr), []);
});

Deno.test("a bad UNFOLD_ variable stops the gateway with one line and exit 1, not a stack trace", async () => {
  const { path } = await writeConfig();
  for (const face of [[], ["--http", "--port", "0"]]) {
    const run = await runCli(["gateway", "--config", path, ...face], {
      ...denoEnv(),
      UNFOLD_MAX_SESSIONS: "many",
    });
    equal(run.code, 1);
    equal(
      run.stderr,
      'unfold: Invalid UNFOLD_MAX_SESSIONS: must be a positive integer, got "many"\n',
    );
  }
});
