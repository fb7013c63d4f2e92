/**
 * A connection to one MCP server: what hosts hold (every page of its tools, tool calls with a
 * timeout and mapped results, change notifications, failures that are always an
 * {@linkcode McpError} and never hang), and {@linkcode connectTransport} for any transport. The
 * stdio and Streamable HTTP adapters build on the same connection (`_connection.ts`).
 *
 * @module
 */

import { type ConnectOptions, type McpConnection, type McpTransport } from "./types.ts";
import { openConnection } from "./_connection.ts";

/**
 * Connects to an MCP server over a transport the host provides: the handshake, then a live
 * connection. `connectStdio` and `connectHttp` build on it; use it for other transports and for
 * servers in the same process.
 *
 * @param config The server's name (no `/`, not empty) and the transport, not yet started.
 * @param options Timeouts and callbacks.
 * @returns The connection.
 * @throws {McpError} `connect` when the transport fails to start or the handshake fails.
 * @throws {TypeError} When the server name is empty or contains `/`.
 * @throws {RangeError} When a timeout option is invalid.
 *
 * @example In-process server
 * ```ts
 * import { connectTransport } from "./client.ts";
 * import { InMemoryTransport } from "@modelcontextprotocol/client";
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { equal } from "node:assert/strict";
 *
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * server.registerTool("hello", { description: "Says hello" }, () => ({ content: [{ type: "text", text: "Hello!" }] }));
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 *
 * const connection = await connectTransport({ server: "demo", transport: clientSide });
 * equal((await connection.tools())[0]?.name, "hello");
 * equal(await connection.call("hello"), "Hello!");
 * await connection.close();
 * ```
 */
export function connectTransport(
  config: { server: string; transport: McpTransport },
  options: ConnectOptions = {},
): Promise<McpConnection> {
  return openConnection(config.server, config.transport, options, {});
}
