/**
 * What the bridge makes of one call of the model: search results, a schema, a resolved tool to
 * execute, or an error that tells the model how to recover.
 *
 * @module
 */

import type { ToolMatch } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import type { ArgumentProblem } from "../schema/validate.ts";

/**
 * The stable codes of model mistakes:
 * - `invalid_json`: the arguments are a string that is not JSON;
 * - `invalid_arguments`: the bridge arguments, or an execute's tool arguments, break their schema;
 * - `unknown_tool`: the name is not an id of this catalogue (a bare name, a typo, another server);
 * - `describe_first`: execute of a tool not yet described in this session.
 */
export type BridgeErrorCode =
  | "invalid_json"
  | "invalid_arguments"
  | "unknown_tool"
  | "describe_first";

/** Every {@linkcode BridgeErrorCode} (the object literal makes the compiler check the list is complete). */
export const BRIDGE_ERROR_CODES: readonly [BridgeErrorCode, ...BridgeErrorCode[]] = Object.freeze(
  Object.keys(
    {
      invalid_json: 0,
      invalid_arguments: 0,
      unknown_tool: 0,
      describe_first: 0,
    } satisfies Record<BridgeErrorCode, 0>,
  ) as [BridgeErrorCode, ...BridgeErrorCode[]],
);

/** Every reason a search can miss (see {@linkcode SearchMiss}). */
export const SEARCH_MISS_REASONS: readonly [SearchMiss["why"], ...SearchMiss["why"][]] = Object
  .freeze(
    Object.keys(
      { empty_query: 0, no_match: 0 } satisfies Record<SearchMiss["why"], 0>,
    ) as [SearchMiss["why"], ...SearchMiss["why"][]],
  );

/** Why a search found nothing, and the one step that helps. */
export type SearchMiss = NonNullable<SearchAction["miss"]>;

/** Search results. */
export interface SearchAction {
  /** The action. */
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

/** One tool's exact input schema. */
export interface DescribeAction {
  /** The action. */
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

/** A resolved tool call, for the host to authorise and run. */
export interface ExecuteAction {
  /** The action. */
  action: "execute";
  /** The resolved id. */
  id: string;
  /** The tool, from the catalogue. */
  tool: McpTool;
  /** The arguments for the tool. */
  arguments: Record<string, unknown>;
}

/** A mistake of the model, with what to do next. */
export interface ErrorAction {
  /** The action. */
  action: "error";
  /** The stable code. */
  code: BridgeErrorCode;
  /** What went wrong and how to recover. */
  message: string;
  /** The resolved id, when the mistake concerns a known tool. */
  id?: string;
  /** For `invalid_arguments` against a tool's schema: each problem with its JSON pointer. */
  problems?: ArgumentProblem[];
  /** The text for the model. */
  toolResult: string;
}

/** What the bridge makes of one call of the model. */
export type BridgeAction = SearchAction | DescribeAction | ExecuteAction | ErrorAction;
