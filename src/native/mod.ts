/**
 * Native tool search: unfold as the search behind the Claude Messages API's and the OpenAI
 * Responses API's deferred tools. The host sends every catalogue tool deferred, with a search the
 * host answers through unfold; the model then calls the real tools directly. No SDK is needed at
 * run time: the shapes are plain data.
 *
 * @example Claude
 * ```ts
 * import { McpCatalog, Injector } from "../../mod.ts";
 * import { claudeSearch, claudeTools } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([
 *   { server: "git", name: "commit", description: "Record changes", inputSchema: { type: "object" } },
 * ]));
 * const tools = claudeTools(injector);
 * equal(tools.ok && tools.value[0]!.name, "search_tools");
 * const result = await claudeSearch(injector, { type: "tool_use", id: "t1", name: "search_tools", input: { query: "commit" } });
 * equal(result.content[0]!.type, "tool_reference");
 * ```
 *
 * Why these names: per provider, the tool definitions (`claudeTools`, `openAiTools`), the answer to
 * the model's search (`claudeSearch`, `openAiSearch`) and the resolution of its call back to a
 * `server/tool` (`claudeResolve`, `openAiResolve`), with the options they take and the provider
 * shapes they read and write (`Claude*`, `OpenAi*`, `JsonSchema`); `nativeNames` and
 * `NATIVE_NAME` are the reversible name mapping; `NativeSession` adds session memory.
 *
 * @module
 */

export {
  claudeResolve,
  claudeSearch,
  type NativeSearchOptions,
  openAiResolve,
  openAiSearch,
  type OpenAiSearchAnswer,
} from "./answers.ts";
export {
  CLAUDE_SEARCH_TOOL,
  claudeTools,
  type NativeResult,
  type NativeToolsOptions,
  openAiTools,
} from "./definitions.ts";
export { NATIVE_NAME, type NativeNames, nativeNames } from "./names.ts";
export { type NativeResolved, type NativeSession } from "./search.ts";
export type * from "./types.ts";
