/**
 * The MCP client adapter (`@unfold/unfold/mcp`): connections to MCP servers over Streamable HTTP
 * (any runtime) or any SDK transport, several gathered into one catalogue and invoker, and the
 * mapping of a tool's result for the model. Servers started as child processes are in `./stdio`.
 *
 * ```ts
 * import { mapContent } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(mapContent({ content: [{ type: "text", text: "done" }] }), "done");
 * // const servers = await connectServers([connectHttp({ server: "remote", url })]);
 * // new Injector(servers.catalog) … injector.handle(args, servers.invoker)
 * ```
 *
 * Why these names: one function per way to connect (`connectHttp`, `connectTransport`,
 * `connectServers` for several at once) with its options and the connection it gives
 * (`McpConnection`, `McpServers`, `CallOptions`, `ForwardOptions` with its `CallProgress` and
 * `ProtocolEra`, `ServerIdentity`, `ToolIssue`);
 * `McpError` with `MCP_ERROR_CODES` is the one failure type; `mapContent` and its content types are
 * the mapping of a result for the model, which a host that calls tools itself needs too.
 *
 * @module
 */

export type {
  CallOptions,
  CallProgress,
  ConnectOptions,
  ForwardOptions,
  McpConnection,
  McpTransport,
  ProtocolEra,
  Root,
  ServerIdentity,
  UpstreamRoots,
} from "./types.ts";
export { connectTransport } from "./client.ts";
export type { HttpConnectOptions, HttpServerConfig } from "./http_client.ts";
export { connectHttp } from "./http_client.ts";
export type { McpServers } from "./servers.ts";
export { connectServers } from "./servers.ts";
export type {
  CallToolResultLike,
  ContentBlock,
  ImageBlock,
  MappedContent,
  MappedResult,
  ResourceBlock,
  StructuredResult,
  TextBlock,
} from "../tool_result.ts";
export { mapContent } from "../tool_result.ts";
export type { McpErrorCode } from "../tool_error.ts";
export { MCP_ERROR_CODES, McpError } from "../tool_error.ts";
export type { ToolIssue } from "./tool_list.ts";
