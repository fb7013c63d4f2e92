/**
 * Routing one call of the model: parse and validate the bridge arguments (an object or the raw
 * JSON string), then resolve them against the catalogue. Never throws on model input.
 *
 * @module
 */

import type { McpCatalog } from "../catalog.ts";
import { toolId } from "../tool.ts";
import { quote, quoteId } from "../untrusted.ts";
import {
  type BridgeAction,
  type BridgeErrorCode,
  type ErrorAction,
  errorAction,
  type ExecuteAction,
  type RunAction,
  type SearchMiss,
} from "./action.ts";
import {
  renderArgumentProblems,
  renderDescribe,
  renderError,
  renderMiss,
  renderSearch,
  unknownRefMessage,
} from "./render.ts";
import { BRIDGE_EXAMPLE, parseBridgeCall, type ParsedCall } from "./parse.ts";
import { closestIds, hasServer, MAX_ID_CHARS, sameNameIds } from "./suggest.ts";
import { validateArguments } from "../schema/validate.ts";
import type { CodeMode } from "../code_mode/limits.ts";
import { declaration } from "../code_mode/declaration.ts";

/** What routing needs to know besides the catalogue. */
export interface RouteOptions {
  /** The number of search results when the model gives no limit. */
  searchDefaultLimit: number;
  /** The most search results; a larger limit is capped. */
  maxSearchLimit: number;
  /** The longest query accepted, in code points. */
  maxQueryChars: number;
  /** The most code points of a description in a result. */
  maxDescriptionChars: number;
  /** The catalogue's inventory listing, shown when a search finds nothing. */
  inventory: () => string;
  /**
   * Whether an execute's arguments are checked against the tool's input schema.
   * @default {true}
   */
  validateArguments?: boolean;
  /**
   * The arguments already parsed (`parseBridgeCall` of them with these limits), so that a caller
   * that read them first (the gateway) does not have them parsed again.
   * @default {parsed here}
   */
  parsed?: ParsedCall;
  /** What this user ran after earlier searches, to lift those tools (`McpCatalog.search`). */
  learned?: { lift(words: readonly string[]): ReadonlyMap<string, number> } | undefined;
  /**
   * Whether the bridge offers `run` (describe then adds the tool's declaration for code).
   * @default {"off"}
   */
  codeMode?: CodeMode;
}

const EXAMPLE = BRIDGE_EXAMPLE;
const MORE_REF = "the ref from a cut answer's marker";

/**
 * Routes one call of the model against a catalogue.
 *
 * @param catalog The session's catalogue; nothing outside it is ever named.
 * @param args The bridge arguments: an object, or the model's raw JSON string.
 * @param options Limits, and the inventory to show when a search finds nothing.
 * @returns The action: search results, a schema, a resolved execute, or an error for the model.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { route } from "./route.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "Create an issue", inputSchema: { type: "object" } },
 * ]);
 * const options = { searchDefaultLimit: 5, maxSearchLimit: 20, maxQueryChars: 1000, maxDescriptionChars: 4000, inventory: () => "" };
 * equal(route(catalog, '{"action":"describe","name":"github/create_issue"}', options).action, "describe");
 * equal(route(catalog, { action: "execute", name: "create_issue" }, options).action, "error");
 * ```
 */
export function route(catalog: McpCatalog, args: unknown, options: RouteOptions): BridgeAction {
  const parsed = options.parsed ?? parseBridgeCall(args, options);
  if (!parsed.ok) return error(parsed.error.code, parsed.error.message);
  const call = parsed.value;
  switch (call.action) {
    case "search":
      return search(catalog, call.query ?? call.name ?? "", call.limit, options);
    case "more":
      if (call.ref === undefined || call.ref.trim() === "") {
        return error("invalid_arguments", `"ref" is required for more: ${MORE_REF}`);
      }
      // Nothing is kept by routing alone: a face that keeps parts answers `more` itself.
      return error("unknown_ref", unknownRefMessage(call.ref, true));
    case "run":
      return run(call.code);
    case "describe":
    case "execute": {
      if (call.name === undefined || call.name.trim() === "") {
        return error(
          "invalid_arguments",
          `"name" is required for ${call.action}: a tool id "server/tool" from search results`,
        );
      }
      const tool = catalog.get(call.name.trim());
      if (tool === undefined) return unknownTool(catalog, call.name.trim());
      const id = toolId(tool);
      if (call.action === "execute") {
        const execute = { action: "execute", id, tool, arguments: call.arguments ?? {} } as const;
        return options.validateArguments === false ? execute : checkArguments(execute);
      }
      const body = renderDescribe(id, tool, options.maxDescriptionChars);
      return {
        action: "describe",
        id,
        tool,
        toolResult: (options.codeMode ?? "off") === "off"
          ? body
          : `${body}\n${declaration(id, tool)}`,
      };
    }
  }
}

// A run reaches route() only from a host that does not run scripts (one that does asks
// Injector.script first): the model is told to do without.
function run(code: string | undefined): BridgeAction {
  if (code === undefined) {
    return error(
      "invalid_arguments",
      '"code" is required for run: JavaScript, the body of an async function, e.g. ' +
        '{"action":"run","code":"return await call(\\"server/tool\\", {})"}',
    );
  }
  return error(
    "invalid_arguments",
    "this host runs no scripts: use search, describe and execute instead of run",
  );
}

/**
 * The script a call of the bridge asks to run, when it is a well-formed `run` (code mode on).
 *
 * @param args The bridge arguments: an object, or the model's raw JSON string.
 * @param options The search limits and code mode the bridge announces.
 * @returns The run, or `undefined` for any other call (which `route()` answers, mistakes too).
 *
 * @example Usage
 * ```ts
 * import { scriptOf } from "./route.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const options = { searchDefaultLimit: 5, maxSearchLimit: 20, codeMode: "all" as const };
 * deepEqual(scriptOf({ action: "run", code: "return 1" }, options), { action: "run", code: "return 1" });
 * equal(scriptOf({ action: "search", query: "x" }, options), undefined);
 * ```
 */
export function scriptOf(
  args: unknown,
  options: Pick<RouteOptions, "searchDefaultLimit" | "maxSearchLimit" | "codeMode">,
): RunAction | undefined {
  if ((options.codeMode ?? "off") === "off") return undefined;
  const parsed = parseBridgeCall(args, options);
  if (!parsed.ok || parsed.value.action !== "run" || parsed.value.code === undefined) {
    return undefined;
  }
  return { action: "run", code: parsed.value.code };
}

function search(
  catalog: McpCatalog,
  rawQuery: string,
  rawLimit: number | undefined,
  options: RouteOptions,
): BridgeAction {
  const query = rawQuery.trim();
  // Counted without building an array of the query's code points.
  if (query.length > options.maxQueryChars && codePoints(query) > options.maxQueryChars) {
    return error(
      "invalid_arguments",
      `"query" is longer than ${options.maxQueryChars} characters: search with the request's ` +
        "first sentences, or a few words about what the tool should do",
    );
  }
  const limit = Math.min(rawLimit ?? options.searchDefaultLimit, options.maxSearchLimit);
  const matches = query === "" ? [] : catalog.search(query, limit, { learned: options.learned });
  if (matches.length > 0) {
    return {
      action: "search",
      query,
      limit,
      matches,
      toolResult: renderSearch(query, matches, catalog.size),
    };
  }
  const miss: SearchMiss = query === ""
    ? { why: "empty_query", next: `send "query" with a few words about the task, e.g. ${EXAMPLE}` }
    : {
      why: "no_match",
      next:
        "search again with other words: what the tool does, or a server name from the list above",
    };
  return {
    action: "search",
    query,
    limit,
    matches,
    miss,
    toolResult: renderMiss(miss, options.inventory()),
  };
}

// The code points of a string (a surrogate pair is one).
function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xdc00 || unit > 0xdfff || i === 0) n++;
    else {
      const before = text.charCodeAt(i - 1);
      if (before < 0xd800 || before > 0xdbff) n++;
    }
  }
  return n;
}

/**
 * Checks an execute's arguments against the tool's input schema.
 *
 * @param execute The resolved execute.
 * @returns The execute, or an `invalid_arguments` error listing each problem with its JSON pointer.
 *
 * @example Usage
 * ```ts
 * import { checkArguments } from "./route.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = {
 *   server: "a", name: "b", description: "",
 *   inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
 * };
 * equal(checkArguments({ action: "execute", id: "a/b", tool, arguments: { n: 1 } }).action, "execute");
 * const refused = checkArguments({ action: "execute", id: "a/b", tool, arguments: {} });
 * equal(refused.action === "error" && refused.code, "invalid_arguments");
 * ```
 */
export function checkArguments(execute: ExecuteAction): ExecuteAction | ErrorAction {
  const problems = validateArguments(execute.tool, execute.arguments);
  if (problems.length === 0) return execute;
  const message = `the arguments do not match the input schema of ${quoteId(execute.id)}: ${
    renderArgumentProblems(problems)
  }. Fix them and execute again; describe the tool if you need its schema`;
  return errorAction("invalid_arguments", message, renderError("invalid_arguments", message), {
    id: execute.id,
    problems,
  });
}

// Explains a name that is not an id of this catalogue, suggesting ids of this catalogue only, from
// a bounded candidate set (./suggest.ts).
function unknownTool(catalog: McpCatalog, name: string): ErrorAction {
  // Quoted, not cleaned: invisible characters show as escapes, so the name reads as it was sent.
  const shown = quote(name.length > 200 ? `${name.slice(0, 199)}…` : name);
  if (name.length > MAX_ID_CHARS) {
    return error(
      "unknown_tool",
      `there is no tool ${shown} in this catalogue. Use an id from search results`,
    );
  }
  const slash = name.indexOf("/");
  const sameName = sameNameIds(catalog, slash === -1 ? name : name.slice(slash + 1));
  const ids = (list: readonly string[]) => list.slice(0, 5).map((id) => quote(id)).join(", ");
  if (slash === -1 && sameName.length > 0) {
    return error(
      "unknown_tool",
      `${shown} is a bare tool name, but "name" takes an id "server/tool": ${
        sameName.length === 1 ? `use ${ids(sameName)}` : `one of ${ids(sameName)}`
      }`,
    );
  }
  const near = sameName.length > 0 ? sameName : closest(catalog, name);
  const hint = near.length > 0 ? ` Closest ids: ${ids(near)}.` : "";
  // A server name the catalogue does not have is the first thing to fix, so it is said first.
  const noServer = slash > 0 && !hasServer(catalog, name.slice(0, slash))
    ? ` The server ${quote(name.slice(0, slash))} does not exist here.`
    : "";
  return error(
    "unknown_tool",
    `there is no tool ${shown} in this catalogue.${noServer}${hint} Use an id from search results, or search with ${EXAMPLE}`,
  );
}

// Ids a mistyped name probably meant: the nearest by edit distance when that is small, otherwise
// the best search matches. Only ids of this catalogue.
function closest(catalog: McpCatalog, name: string): string[] {
  const near = closestIds(catalog, name).ids;
  return near.length > 0 ? near : catalog.search(name, 3).map((m) => m.id);
}

function error(code: BridgeErrorCode, message: string): ErrorAction {
  return errorAction(code, message, renderError(code, message));
}
