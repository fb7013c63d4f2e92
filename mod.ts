/**
 * unfold: progressive MCP tool injection for any LLM host.
 *
 * The model sees one bridge tool with three actions (`search`, `describe`, `execute`) and the
 * richest overview of the catalogue that fits a token budget; schemas come on demand.
 *
 * ```ts
 * import { Injector, McpCatalog } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create a new issue", inputSchema: { type: "object", properties: { title: { type: "string" } } } },
 * ]);
 * const injector = new Injector(catalog, { availableContextTokens: 100_000 });
 * const injection = injector.inject(); // bridge tool + system-prompt section
 * equal(injection?.mode, "manifest");
 * const action = injector.route({ action: "describe", name: "github/create_issue" });
 * equal(action.action, "describe");
 * ```
 *
 * MCP servers come in through connections: {@linkcode connectHttp} here (Streamable HTTP, any
 * runtime), `connectStdio` from `./stdio` (Deno and Node: it spawns processes), several at once
 * with {@linkcode connectServers}; {@linkcode mapContent} maps a tool's result for the model.
 *
 * This module is runtime-neutral (Deno, Workers, Node, browsers).
 *
 * @module
 */

export type { McpTool, ServerInfo } from "./src/tool.ts";
export { toolId } from "./src/tool.ts";
export type { McpCatalogOptions, ToolMatch } from "./src/catalog.ts";
export { InvalidCatalogError, McpCatalog } from "./src/catalog.ts";
export type { DisclosureLevel, ProgressiveConfig, ToolFormat } from "./src/config.ts";
export {
  DEFAULT_CONFIG,
  DISCLOSURE_LEVELS,
  InvalidConfigError,
  MAX_SEARCH_LIMIT,
  resolveConfig,
  TOOL_FORMATS,
} from "./src/config.ts";
export type { TokenEstimator } from "./src/tokens.ts";
export { estimateTokens } from "./src/tokens.ts";
export type {
  Disclosure,
  Inventory,
  InventoryServer,
  InventoryTool,
  Listing,
  ListingOptions,
} from "./src/disclosure.ts";
export { disclose, listCatalog } from "./src/disclosure.ts";
export type { ExecutedAction, HandledAction, Injection, McpInvoker } from "./src/injector.ts";
export { Injector } from "./src/injector.ts";
export type {
  BridgeAction,
  BridgeErrorCode,
  DescribeAction,
  ErrorAction,
  ExecuteAction,
  SearchAction,
  SearchMiss,
} from "./src/bridge/action.ts";
export type {
  AnthropicTool,
  BridgeTool,
  BridgeToolOptions,
  McpToolDefinition,
  OpenAiTool,
} from "./src/bridge/tool.ts";
export { BRIDGE_ACTIONS, bridgeParameters, bridgeTool } from "./src/bridge/tool.ts";
export type { RankedTool, Ranker, RankerFactory, RankerOptions } from "./src/ranking/ranker.ts";
export type {
  LexicalField,
  LexicalRankerOptions,
  LexicalSettings,
} from "./src/ranking/lexical_ranker.ts";
export {
  createLexicalRanker,
  LEXICAL_DEFAULTS,
  lexicalRanker,
} from "./src/ranking/lexical_ranker.ts";
export { minisearchRanker } from "./src/ranking/minisearch_ranker.ts";
export type { ArgumentProblem } from "./src/bridge/validate.ts";
export { validateArguments } from "./src/bridge/validate.ts";
export type { Hasher } from "./src/canonical_json.ts";
export { canonicalJson, sha256Hex } from "./src/canonical_json.ts";
export type {
  SessionCounters,
  SessionDecision,
  SessionEvent,
  SessionInput,
  SessionState,
} from "./src/session/state.ts";
export { emptySession, transition } from "./src/session/state.ts";
export type { MaybePromise, SessionKey, SessionStore } from "./src/session/store.ts";
export { DEFAULT_SESSION_TTL_SECONDS, SessionStoreError } from "./src/session/store.ts";
export type { MemorySessionStoreOptions } from "./src/session/memory_store.ts";
export { MemorySessionStore } from "./src/session/memory_store.ts";
export type { SessionRouteOptions } from "./src/session/session_route.ts";
export { routeInSession } from "./src/session/session_route.ts";
export type { AppDeps, AppEnv, UnfoldApp } from "./src/http/app.ts";
export { createApp } from "./src/http/app.ts";
export type { HttpSettings } from "./src/http/settings.ts";
export { DEFAULT_SETTINGS, settingsFromEnv } from "./src/http/settings.ts";
export { VERSION } from "./src/version.ts";
export type { McpErrorCode } from "./src/mcp/error.ts";
export { MCP_ERROR_CODES, McpError } from "./src/mcp/error.ts";
export type {
  CallToolResultLike,
  ContentBlock,
  ImageBlock,
  MappedContent,
  MappedResult,
  ResourceBlock,
  StructuredResult,
  TextBlock,
} from "./src/mcp/content.ts";
export { mapContent } from "./src/mcp/content.ts";
export type { ToolIssue } from "./src/mcp/tool_list.ts";
export type {
  CallOptions,
  ConnectOptions,
  ForwardOptions,
  McpConnection,
  McpTransport,
  ServerIdentity,
} from "./src/mcp/client.ts";
export { connectTransport } from "./src/mcp/client.ts";
export type { HttpConnectOptions, HttpServerConfig } from "./src/mcp/http.ts";
export { connectHttp } from "./src/mcp/http.ts";
export type { McpServers } from "./src/mcp/servers.ts";
export { connectServers } from "./src/mcp/servers.ts";
