/**
 * The bridge tool: the one tool the model sees, with its actions (search, describe, execute, and
 * more for the next part of a cut answer), emitted in OpenAI, Anthropic or MCP format.
 *
 * @module
 */

import type { ToolFormat } from "../config.ts";
import type { CodeMode } from "../code_mode/limits.ts";
import { ceilingSentence } from "./render.ts";

/** The bridge's actions. */
export const BRIDGE_ACTIONS = ["search", "describe", "execute", "more"] as const;

/** The action code mode adds (only when it is on: the bridge offers it then alone). */
export const RUN_ACTION = "run";

/**
 * The bridge tool in one of the formats: OpenAI's function (`{type: "function", function}`),
 * Anthropic's tool (`input_schema`) or MCP's `tools/list` entry (`inputSchema`).
 */
export type BridgeTool =
  | {
    type: "function";
    function: { name: string; description: string; parameters: Record<string, unknown> };
  }
  | { name: string; description: string; input_schema: Record<string, unknown> }
  | { name: string; description: string; inputSchema: Record<string, unknown> };

/** A bridge tool in OpenAI's function format. */
export type OpenAiTool = Extract<BridgeTool, { type: "function" }>;

/** A bridge tool in Anthropic's format. */
export type AnthropicTool = Extract<BridgeTool, { input_schema: unknown }>;

/** A bridge tool in MCP's `tools/list` format. */
export type McpToolDefinition = Extract<BridgeTool, { inputSchema: unknown }>;

/** What shapes the bridge tool. */
export interface BridgeToolOptions {
  /** The tool's name. */
  bridgeName: string;
  /** The definition format. */
  toolFormat: ToolFormat;
  /** The most search results the model may ask for. */
  maxSearchLimit: number;
  /** The number of search results when the model gives no limit. */
  searchDefaultLimit: number;
  /**
   * The result ceiling the face applies (`maxResultTokens`; `0`: none), said in the description;
   * not said when not given (a face that does not cut answers).
   */
  resultCeilingTokens?: number;
  /**
   * Whether the bridge offers `run`, and what a script may call.
   * @default {"off"}
   */
  codeMode?: CodeMode;
}

const DESCRIPTION = "Use the tools of MCP servers; ids are server/tool. " +
  "search: find tools by keywords. describe: get a tool's input schema. " +
  "execute: run a tool with arguments that follow that schema. Describe before you execute.";
const RUN = " run: JavaScript code (an async function's body) composing tools in a sandbox: " +
  "await call(id, args) returns a tool's result, search(query, limit?), describe(id), console.log; " +
  "return a JSON value. Answers {result, logs, calls}.";
const READ_ONLY = " Scripts call only read-only tools; execute the others.";

/**
 * The bridge tool's description: the actions, `run` when code mode is on, and the ceiling's
 * sentence when there is one.
 *
 * @param codeMode Whether it offers `run` (and for which tools).
 * @param resultCeilingTokens The result ceiling the face applies, when it says one.
 * @returns The description.
 *
 * @example Usage
 * ```ts
 * import { bridgeDescription } from "./tool.ts";
 * import { equal, ok } from "node:assert/strict";
 *
 * equal(bridgeDescription("off").includes("run:"), false);
 * ok(bridgeDescription("read-only").includes("read-only tools"));
 * ```
 */
export function bridgeDescription(
  codeMode: CodeMode = "off",
  resultCeilingTokens?: number,
): string {
  const code = codeMode === "off" ? "" : ` ${runSentence(codeMode)}`;
  const ceiling = resultCeilingTokens === undefined ? "" : ceilingSentence(resultCeilingTokens);
  return DESCRIPTION + code + (ceiling === "" ? "" : ` ${ceiling}`);
}

/**
 * What the bridge's description says of `run` when code mode is on (a face whose description is
 * an overview says it there too).
 *
 * @param codeMode `read-only` or `all`.
 * @returns The sentences.
 *
 * @example Usage
 * ```ts
 * import { runSentence } from "./tool.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(runSentence("all").startsWith("run: JavaScript"));
 * ```
 */
export function runSentence(codeMode: Exclude<CodeMode, "off">): string {
  return (RUN + (codeMode === "read-only" ? READ_ONLY : "")).trim();
}

/**
 * The bridge tool's JSON Schema parameters.
 *
 * @param options The limits to announce.
 * @returns The parameters schema.
 *
 * @example Usage
 * ```ts
 * import { bridgeParameters } from "./tool.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(bridgeParameters({ maxSearchLimit: 20, searchDefaultLimit: 5 }).required, ["action"]);
 * ```
 */
export function bridgeParameters(
  options: Pick<BridgeToolOptions, "maxSearchLimit" | "searchDefaultLimit" | "codeMode">,
): Record<string, unknown> {
  const code = (options.codeMode ?? "off") !== "off";
  return {
    type: "object",
    properties: {
      action: {
        type: "string",
        enum: code ? [...BRIDGE_ACTIONS, RUN_ACTION] : [...BRIDGE_ACTIONS],
      },
      query: {
        type: "string",
        description:
          "search: what the tool should do, in the words a tool would use for the action and object",
      },
      limit: {
        type: "integer",
        minimum: 1,
        maximum: options.maxSearchLimit,
        description: `search: max results, default ${options.searchDefaultLimit}`,
      },
      name: { type: "string", description: "describe, execute: the tool id server/tool" },
      arguments: { type: "object", description: "execute: the tool's arguments" },
      ref: { type: "string", description: "more: the ref a cut answer gives" },
      ...(code
        ? { code: { type: "string", description: "run: the JavaScript, an async function's body" } }
        : {}),
    },
    required: ["action"],
    additionalProperties: false,
  };
}

/**
 * The bridge tool definition in the requested format.
 *
 * @param options Name, format and search limits.
 * @returns The definition.
 *
 * @example Usage
 * ```ts
 * import { bridgeTool, type OpenAiTool } from "./tool.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = bridgeTool({ bridgeName: "mcp", toolFormat: "openai", maxSearchLimit: 20, searchDefaultLimit: 5 });
 * equal((tool as OpenAiTool).function.name, "mcp");
 * ```
 */
export function bridgeTool(options: BridgeToolOptions): BridgeTool {
  const name = options.bridgeName;
  const parameters = bridgeParameters(options);
  const description = bridgeDescription(options.codeMode, options.resultCeilingTokens);
  switch (options.toolFormat) {
    case "openai":
      return { type: "function", function: { name, description, parameters } };
    case "anthropic":
      return { name, description, input_schema: parameters };
    case "mcp":
      return { name, description, inputSchema: parameters };
  }
}
