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
 * Code mode (`codeMode: "read-only" | "all"`) adds a fourth action, `run`: JavaScript that
 * composes tools in a sandbox the host gives (`Sandbox`: a Deno child process, a Worker Loader
 * isolate), answered with `RunAnswer`, or `CallAction` for a host that runs the tools itself;
 * `CodeLimits` are the bounds of a run.
 *
 * This is the core: plain data in and out, runtime-neutral (Deno, Workers, Node, browsers), with
 * the JSON Schema validator as its one dependency. Adapters are their own exports: `./http` (the
 * HTTP API app), `./mcp` (MCP client connections and content mapping), `./stdio` (MCP servers as
 * child processes) and `./minisearch` (the MiniSearch ranker).
 *
 * @module
 */

export type { McpTool, ServerInfo } from "./src/tool.ts";
export { toolId } from "./src/tool.ts";
export type { McpCatalogOptions, ToolMatch } from "./src/catalog.ts";
export { InvalidCatalogError, McpCatalog } from "./src/catalog.ts";
export type { DisclosureLevel, ProgressiveConfig, ToolFormat } from "./src/config.ts";
export { InvalidConfigError } from "./src/config.ts";
export type { Inventory } from "./src/disclosure.ts";
export type { HandledAction, Injection, McpInvoker } from "./src/injector.ts";
export { Injector } from "./src/injector.ts";
export type { BridgeAction, BridgeErrorCode } from "./src/bridge/action.ts";
export type { BridgeTool } from "./src/bridge/tool.ts";
export type { ArgumentProblem } from "./src/schema/validate.ts";
export type { RankedTool, Ranker, RankerFactory } from "./src/ranking/ranker.ts";
export { lexicalRanker } from "./src/ranking/lexical_ranker.ts";
export type { Result } from "./src/result.ts";
export type { CallAction, RunAnswer } from "./src/code_mode/answer.ts";
export type { CodeLimits } from "./src/code_mode/limits.ts";
export type { Sandbox } from "./src/code_mode/sandbox.ts";
