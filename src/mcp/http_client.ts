/**
 * Connecting to an MCP server over Streamable HTTP. Runtime-neutral: Deno, Node, browsers and
 * Cloudflare Workers (only `fetch`, no filesystem or process).
 *
 * @module
 */

import { within } from "../utils/deadline.ts";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { openConnection } from "./_connection.ts";
import { checkServerName } from "./_settings.ts";
import type { ConnectOptions, McpConnection } from "./types.ts";

/** Where an MCP server listens over Streamable HTTP. */
export interface HttpServerConfig {
  /** The server's name, as the host knows it: the `server` of every tool; no `/`. */
  server: string;
  /** The server's MCP endpoint, such as `https://example.com/mcp`. */
  url: string | URL;
  /** Headers sent with every request, such as `Authorization`. */
  headers?: Record<string, string>;
}

/** Options of {@linkcode connectHttp}. */
export interface HttpConnectOptions extends ConnectOptions {
  /**
   * The `fetch` to send requests with (a Workers service binding's, a proxy's, a test's).
   * @default {globalThis.fetch}
   */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

// How long closing waits for the server to end the session before it lets go.
const END_SESSION_MS = 2_000;

/**
 * Connects to an MCP server over Streamable HTTP: the handshake, then a live connection whose
 * `close()` also ends the server's session.
 *
 * @param config The server's name, endpoint and headers.
 * @param options Timeouts, callbacks and the `fetch` to use.
 * @returns The connection.
 * @throws {McpError} `connect` when the server cannot be reached or the handshake fails.
 * @throws {TypeError} When the server name is empty or contains `/`, or the URL is invalid.
 * @throws {RangeError} When a timeout option is invalid.
 *
 * @example Usage
 * ```ts
 * import { connectHttp } from "./http_client.ts";
 * import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * // A server that answers HTTP in this process; a real one is a URL away and needs no `fetch`.
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("hello", { description: "Says hello" }, () => ({ content: [{ type: "text", text: "Hello!" }] }));
 * const endpoint = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), enableJsonResponse: true });
 * await server.connect(endpoint);
 *
 * const demo = await connectHttp(
 *   { server: "demo", url: "http://demo.invalid/mcp" },
 *   { fetch: (url, init) => endpoint.handleRequest(new Request(url, init)) },
 * );
 * equal((await demo.tools())[0]?.name, "hello");
 * equal(await demo.call("hello"), "Hello!");
 * await demo.close();
 * await server.close();
 * ```
 *
 * @example A server that cannot be reached
 * ```ts
 * import { connectHttp } from "./http_client.ts";
 * import { McpError } from "../tool_error.ts";
 * import { rejects } from "node:assert/strict";
 *
 * const refused = () => Promise.reject(new TypeError("connection refused"));
 * await rejects(
 *   connectHttp({ server: "remote", url: "http://127.0.0.1:9/mcp" }, { fetch: refused }),
 *   (error) => error instanceof McpError && error.code === "connect",
 * );
 * ```
 */
export async function connectHttp(
  config: HttpServerConfig,
  options: HttpConnectOptions = {},
): Promise<McpConnection> {
  checkServerName(config?.server);
  let url: URL;
  try {
    url = new URL(config.url);
  } catch (error) {
    throw new TypeError(
      `Cannot connect to ${JSON.stringify(config.server)}: ${
        JSON.stringify(String(config.url))
      } is not a URL`,
      { cause: error },
    );
  }
  const { fetch, ...rest } = options;
  const transport = new StreamableHTTPClientTransport(url, {
    ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    ...(fetch === undefined ? {} : { fetch }),
  });
  return await openConnection(config.server, transport, rest, {
    beforeClose: () => endSession(transport),
  });
}

// Asks the server to end the session, but never waits long: closing must not hang on a server
// that does not answer (closing the transport then aborts the request).
async function endSession(transport: StreamableHTTPClientTransport): Promise<void> {
  await within(transport.terminateSession(), END_SESSION_MS);
}
