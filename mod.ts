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
