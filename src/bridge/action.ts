/**
 * What the bridge makes of one call of the model: search results, a schema, a resolved tool to
 * execute, or an error that tells the model how to recover.
 *
 * @module
 */

import type { ToolMatch } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import type { ArgumentProblem } from "../schema/validate.ts";
import type { CutInfo } from "./ceiling.ts";
import { codeList } from "../utils/code_list.ts";

/**
 * The stable codes of model mistakes:
 * - `invalid_json`: the arguments are a string that is not JSON;
 * - `invalid_arguments`: the bridge arguments, or an execute's tool arguments, break their schema;
 * - `unknown_tool`: the name is not an id of this catalogue (a bare name, a typo, another server);
 * - `describe_first`: execute of a tool not yet described in this session;
 * - `unknown_ref`: `more` with a ref this session does not keep (expired, or from elsewhere).
 */
export type BridgeErrorCode =
  | "invalid_json"
  | "invalid_arguments"
  | "unknown_tool"
  | "describe_first"
  | "unknown_ref";

/** Every {@linkcode BridgeErrorCode} (the object literal makes the compiler check the list is complete). */
export const BRIDGE_ERROR_CODES: readonly [BridgeErrorCode, ...BridgeErrorCode[]] = codeList<
  BridgeErrorCode
>({
  invalid_json: 0,
  invalid_arguments: 0,
  unknown_tool: 0,
  describe_first: 0,
  unknown_ref: 0,
});

/** Every reason a search can miss (see {@linkcode SearchMiss}). */
export const SEARCH_MISS_REASONS: readonly [SearchMiss["why"], ...SearchMiss["why"][]] = codeList<
  SearchMiss["why"]
>({ empty_query: 0, no_match: 0 });

/** Why a search found nothing, and the one step that helps. */
export type SearchMiss = NonNullable<SearchAction["miss"]>;

/**
 * What the bridge makes of one call of the model, by `action`: search results, one tool's exact
 * input schema, a resolved tool call for the host to authorise and run, or a mistake of the model
 * with what to do next. A mistake carries its code and message twice: at the top level (as
 * before) and as `error: {code, message}`, the place where `/v1/route` and
 * `Injector.handle()`'s failed executes put them too.
 */
export type BridgeAction =
  | {
    /** Search results. */
    action: "search";
    /** The query, trimmed. */
    query: string;
    /** The number of results asked for, after defaults and caps. */
    limit: number;
    /** The matches, best first. */
    matches: ToolMatch[];
    /**
     * When there are no matches: why (`empty_query`: no searchable words; `no_match`: no tool
     * matches them) and the next step, in words for the model.
     */
    miss?: { why: "empty_query" | "no_match"; next: string };
    /** The text for the model. */
    toolResult: string;
  }
  | {
    /** One tool's exact input schema. */
    action: "describe";
    /** The resolved id. */
    id: string;
    /** The tool, unmodified. */
    tool: McpTool;
    /** True when the session already has this schema and `toolResult` only says so. */
    elided?: boolean;
    /** The text for the model: description and schema as compact JSON. */
    toolResult: string;
  }
  | {
    /** A resolved tool call, for the host to authorise and run. */
    action: "execute";
    /** The resolved id. */
    id: string;
    /** The tool, from the catalogue. */
    tool: McpTool;
    /** The arguments for the tool. */
    arguments: Record<string, unknown>;
  }
  | {
    /** A mistake of the model, with what to do next. */
    action: "error";
    /** The stable code (the same as `error.code`). */
    code: BridgeErrorCode;
    /** What went wrong and how to recover (the same as `error.message`). */
    message: string;
    /**
     * The mistake as every face gives it: `/v1/route`'s `error` and a failed execute's `error` in
     * `Injector.handle()` are in the same place; `problems` as below.
     */
    error: { code: BridgeErrorCode; message: string; problems?: ArgumentProblem[] };
    /** The resolved id, when the mistake concerns a known tool. */
    id?: string;
    /** For `invalid_arguments` against a tool's schema: each problem with its JSON pointer. */
    problems?: ArgumentProblem[];
    /** The text for the model. */
    toolResult: string;
  };

// The members by action, for the modules that build or take one kind: derived from the one
// declaration above, so the root exports BridgeAction alone.
/** Search results. */
export type SearchAction = Extract<BridgeAction, { action: "search" }>;
/** One tool's exact input schema. */
export type DescribeAction = Extract<BridgeAction, { action: "describe" }>;
/** A resolved tool call, for the host to authorise and run. */
export type ExecuteAction = Extract<BridgeAction, { action: "execute" }>;
/** A mistake of the model, with what to do next. */
export type ErrorAction = Extract<BridgeAction, { action: "error" }>;
/**
 * A script to run (code mode on), as `Injector.script` finds it in a call of the bridge: for
 * `Injector.run` (or `handle`, which runs it) to run in a sandbox. What a run answers is a
 * `RunAnswer`, or a `CallAction` for a host that runs the tools itself. Not a `BridgeAction`:
 * `route()` answers a run as a mistake of a host that runs no scripts.
 */
export interface RunAction {
  /** A script to run. */
  action: "run";
  /** The model's JavaScript: the body of an async function. */
  code: string;
}

/**
 * The next part of a cut answer (`{action: "more", ref}`), as a face that keeps parts answers it
 * (`routeBounded` in `src/session/bounded.ts`): the part in the shape of the answer that was cut
 * (a bridge text, or a result's blocks and structured copy), and the facts of the cut. Kept
 * apart from {@linkcode BridgeAction} (see {@linkcode RoutedAction}) until every face answers it.
 */
export interface MoreAction {
  /** The next part of a cut answer. */
  action: "more";
  /** The ref the model sent. */
  ref: string;
  /** The part, in its answer's shape, its marker included. */
  toolResult: unknown;
  /** The facts of the cut. */
  cut: CutInfo;
}

/** What a face that keeps cut answers routes a bridge call to: any action, or a part. */
export type RoutedAction = BridgeAction | MoreAction;

/**
 * A mistake of the model, its code and message at the top level and in `error` (one builder, so
 * the two places cannot disagree).
 *
 * @param code The stable code.
 * @param message What went wrong and how to recover.
 * @param toolResult The text for the model.
 * @param about The resolved id and, for `invalid_arguments`, each problem.
 * @returns The error action.
 *
 * @example Usage
 * ```ts
 * import { errorAction } from "./action.ts";
 * import { equal } from "node:assert/strict";
 *
 * const action = errorAction("unknown_tool", "no such tool", "Error unknown_tool: no such tool");
 * equal(action.error.code, action.code);
 * ```
 */
export function errorAction(
  code: BridgeErrorCode,
  message: string,
  toolResult: string,
  about: { id?: string; problems?: ArgumentProblem[] } = {},
): ErrorAction {
  const { id, problems } = about;
  return {
    action: "error",
    code,
    message,
    error: { code, message, ...(problems === undefined ? {} : { problems }) },
    ...(id === undefined ? {} : { id }),
    ...(problems === undefined ? {} : { problems }),
    toolResult,
  };
}
