/**
 * unfold's answers in each API's own shapes: a Claude `tool_result` of `tool_reference` blocks, an
 * OpenAI `tool_search_output` of namespaced definitions, and the resolution of a loaded tool's call.
 * A miss or a mistake is always text for the model, never a bare empty list.
 *
 * @module
 */

import type { Injector } from "../injector.ts";
import { quoteId } from "../untrusted.ts";
import { openAiFunction } from "./definitions.ts";
import { nativeNames } from "./names.ts";
import {
  type NativeFound,
  nativeResolve,
  type NativeResolved,
  nativeSearch,
  type NativeSession,
} from "./search.ts";
import type {
  ClaudeText,
  ClaudeToolReference,
  ClaudeToolResult,
  ClaudeToolUse,
  OpenAiFunctionCall,
  OpenAiNamespace,
  OpenAiToolSearchCall,
  OpenAiToolSearchOutput,
} from "./types.ts";

/** What a native search takes besides the model's call. */
export interface NativeSearchOptions {
  /** Ids loaded from the start (as in the `tools` request). */
  pinned?: readonly string[];
  /** The conversation's session: what it loaded before is not loaded again. */
  session?: NativeSession;
}

/** The answer to an OpenAI tool search call. */
export interface OpenAiSearchAnswer {
  /** The item to append to the conversation's input. */
  output: OpenAiToolSearchOutput;
  /** When `output` loads nothing: the text to show the model (why, and what to do next). */
  miss?: string;
  /** Names of matched functions the conversation already has (pinned, or loaded earlier). */
  alreadyAvailable?: string[];
}

/**
 * Answers Claude's call of the search tool with a `tool_result`: a `tool_reference` per tool to
 * load, and text for tools already loaded, a miss, or a mistake.
 *
 * @param injector The catalogue and its limits.
 * @param toolUse The model's `tool_use` block.
 * @param options The pinned tools and the session.
 * @returns The `tool_result` block.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { claudeSearch } from "./answers.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "git", name: "commit", description: "Record changes", inputSchema: { type: "object" } }]);
 * const result = await claudeSearch(new Injector(catalog), { type: "tool_use", id: "toolu_1", name: "search_tools", input: { query: "commit" } });
 * deepEqual(result.content, [{ type: "tool_reference", tool_name: "git__commit" }]);
 * ```
 */
export async function claudeSearch(
  injector: Injector,
  toolUse: ClaudeToolUse,
  options: NativeSearchOptions = {},
): Promise<ClaudeToolResult> {
  const found = await nativeSearch(injector, toolUse.input, options);
  const names = nativeNames(injector.catalog);
  const result = (content: ClaudeToolResult["content"], isError = false): ClaudeToolResult => ({
    type: "tool_result",
    tool_use_id: toolUse.id,
    content,
    ...(isError ? { is_error: true } : {}),
  });
  if (found.kind !== "found") return result([text(found.text)], found.kind === "error");
  const references: ClaudeToolReference[] = found.load.map((id) => ({
    type: "tool_reference",
    tool_name: names.nameOf(id)!,
  }));
  const note = availableText(found, (id) => names.nameOf(id)!);
  return result(note === undefined ? references : [...references, text(note)]);
}

/**
 * Answers OpenAI's `tool_search_call` with a `tool_search_output` that loads the tools found under
 * their namespaces; a miss loads nothing and says why in `miss`.
 *
 * @param injector The catalogue and its limits.
 * @param call The model's `tool_search_call` item.
 * @param options The pinned tools and the session.
 * @returns The output item, with `miss` and `alreadyAvailable` beside it.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { openAiSearch } from "./answers.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "git", name: "commit", description: "Record changes", inputSchema: { type: "object" } }]);
 * const answer = await openAiSearch(new Injector(catalog), { type: "tool_search_call", call_id: "c1", arguments: { query: "commit" } });
 * equal(answer.output.tools[0]!.tools[0]!.name, "git__commit");
 * ```
 */
export async function openAiSearch(
  injector: Injector,
  call: OpenAiToolSearchCall,
  options: NativeSearchOptions = {},
): Promise<OpenAiSearchAnswer> {
  // JSON text is read by the search, which tells broken JSON from a wrong value.
  const found = await nativeSearch(injector, call.arguments, options);
  const names = nativeNames(injector.catalog);
  const namespaces = new Map<string, OpenAiNamespace>();
  if (found.kind === "found") {
    for (const id of found.load) {
      const tool = injector.catalog.get(id)!;
      const name = names.namespaceOf(tool.server)!;
      let namespace = namespaces.get(name);
      if (namespace === undefined) {
        namespace = {
          type: "namespace",
          name,
          description: `MCP server ${quoteId(tool.server)}`,
          tools: [],
        };
        namespaces.set(name, namespace);
      }
      namespace.tools.push(openAiFunction(injector, tool));
    }
  }
  const output: OpenAiToolSearchOutput = {
    type: "tool_search_output",
    execution: "client",
    call_id: call.call_id,
    status: "completed",
    tools: [...namespaces.values()],
  };
  if (found.kind !== "found") return { output, miss: found.text };
  const available = found.available.map((id) => names.nameOf(id)!);
  const note = availableText(found, (id) => names.nameOf(id)!);
  return {
    output,
    ...(found.load.length === 0 && note !== undefined ? { miss: note } : {}),
    ...(available.length > 0 ? { alreadyAvailable: available } : {}),
  };
}

/**
 * Resolves Claude's call of a loaded tool.
 *
 * @param injector The catalogue.
 * @param toolUse The model's `tool_use` block.
 * @param session The session, if any.
 * @returns The tool id and its checked arguments, or why not.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { claudeResolve } from "./answers.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "git", name: "commit", description: "", inputSchema: { type: "object" } }]);
 * const resolved = await claudeResolve(new Injector(catalog), { type: "tool_use", id: "t", name: "git__commit", input: {} });
 * equal(resolved.ok && resolved.id, "git/commit");
 * ```
 */
export function claudeResolve(
  injector: Injector,
  toolUse: ClaudeToolUse,
  session?: NativeSession,
): Promise<NativeResolved> {
  return nativeResolve(injector, toolUse.name, toolUse.input, session);
}

/**
 * Resolves OpenAI's `function_call` of a loaded function; its `namespace`, when given, must be the
 * function's own.
 *
 * @param injector The catalogue.
 * @param call The model's `function_call` item.
 * @param session The session, if any.
 * @returns The tool id and its checked arguments, or why not.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { openAiResolve } from "./answers.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "git", name: "commit", description: "", inputSchema: { type: "object" } }]);
 * const call = { type: "function_call", name: "git__commit", namespace: "git", arguments: "{}", call_id: "c" } as const;
 * equal((await openAiResolve(new Injector(catalog), call)).ok, true);
 * ```
 */
export function openAiResolve(
  injector: Injector,
  call: OpenAiFunctionCall,
  session?: NativeSession,
): Promise<NativeResolved> {
  const names = nativeNames(injector.catalog);
  const id = names.idOf(call.name);
  if (call.namespace !== undefined && id !== undefined) {
    const own = names.namespaceOf(injector.catalog.get(id)!.server);
    if (own !== call.namespace) {
      return Promise.resolve({
        ok: false,
        code: "unknown_tool",
        message: `Cannot resolve ${quoteId(call.name)} in namespace ${
          quoteId(call.namespace)
        }: its namespace is ${own}`,
      });
    }
  }
  return nativeResolve(injector, call.name, call.arguments, session);
}

function text(value: string): ClaudeText {
  return { type: "text", text: value };
}

function availableText(
  found: Extract<NativeFound, { kind: "found" }>,
  nameOf: (id: string) => string,
): string | undefined {
  if (found.available.length === 0) return undefined;
  return `Already loaded in this conversation, call directly: ${
    found.available.map(nameOf).join(", ")
  }`;
}
