/**
 * MCP servers in the test's own process, over the SDK's linked in-memory transports: an SDK
 * `Server` for well-formed behaviour on demand, and a raw JSON-RPC responder for what no SDK
 * server would send.
 *
 * @module
 */

import type { ConnectOptions, McpConnection } from "../../src/mcp/mod.ts";
import { connectTransport } from "../../src/mcp/mod.ts";
import {
  type CallToolResult,
  InMemoryTransport,
  type JSONRPCMessage,
  type ListToolsResult,
  Server,
  type Tool,
} from "@modelcontextprotocol/server";

/** A connection to an in-process server, and the server's side of the transport. */
export interface MemoryConnection {
  /** The connection. */
  connection: McpConnection;
  /** The server's end: closing it is the server going away. */
  serverSide: InMemoryTransport;
}

/** How an in-process SDK server behaves. */
export interface FakeServer {
  /** Answers one `tools/list` page; the default lists {@linkcode FakeServer.tools} in one page. */
  list?: (cursor: string | undefined) => ListToolsResult | Promise<ListToolsResult>;
  /** The tools, for the default `list`. */
  tools?: Tool[];
  /** Answers `tools/call`. */
  call?: (name: string, args: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;
  /** The server's title in the handshake. */
  title?: string;
}

/**
 * Starts an SDK server in this process and connects to it.
 *
 * @param name The server's name.
 * @param fake How it behaves.
 * @param options Connection options.
 * @returns The connection, the server's transport end, and the SDK server (to send notifications).
 */
export async function serve(
  name: string,
  fake: FakeServer,
  options: ConnectOptions = {},
): Promise<MemoryConnection & { server: Server }> {
  const server = new Server(
    { name, version: "1.0.0", ...(fake.title === undefined ? {} : { title: fake.title }) },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(
    "tools/list",
    (request) => fake.list?.(request.params?.cursor) ?? { tools: fake.tools ?? [] },
  );
  server.setRequestHandler(
    "tools/call",
    (request) =>
      fake.call?.(request.params.name, request.params.arguments ?? {}) ??
        { content: [], isError: true },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connection = await connectTransport({ server: name, transport: clientSide }, options);
  return { connection, serverSide, server };
}

/**
 * Connects to a raw JSON-RPC responder: it completes the handshake, then answers each request
 * with what `answer` returns (a JSON-RPC error when it throws, nothing when it returns
 * `undefined`).
 *
 * @param name The server's name.
 * @param answer The result of each request after the handshake.
 * @param options Connection options.
 * @returns The connection and the server's transport end.
 */
export async function serveRaw(
  name: string,
  answer: (method: string, params: Record<string, unknown>) => unknown,
  options: ConnectOptions = {},
): Promise<MemoryConnection> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  serverSide.onmessage = async (message: JSONRPCMessage) => {
    if (!("method" in message) || !("id" in message)) return;
    const params = (message.params ?? {}) as Record<string, unknown>;
    let reply: JSONRPCMessage | undefined;
    try {
      const result = message.method === "initialize"
        ? {
          protocolVersion: params.protocolVersion,
          capabilities: { tools: {} },
          serverInfo: { name, version: "0.0.0" },
        }
        : await answer(message.method, params);
      if (result !== undefined) {
        reply = { jsonrpc: "2.0", id: message.id, result: result as Record<string, unknown> };
      }
    } catch (error) {
      reply = {
        jsonrpc: "2.0",
        id: message.id,
        error: { code: -32603, message: error instanceof Error ? error.message : String(error) },
      };
    }
    if (reply !== undefined) await serverSide.send(reply).catch(() => {});
  };
  await serverSide.start();
  const connection = await connectTransport({ server: name, transport: clientSide }, options);
  return { connection, serverSide };
}

/**
 * A tool definition for in-process servers.
 *
 * @param name The tool's name.
 * @param description What it does.
 * @returns The tool.
 */
export function fakeTool(name: string, description = `The ${name} tool`): Tool {
  return { name, description, inputSchema: { type: "object", properties: {} } };
}
