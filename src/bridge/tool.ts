/**
 * The bridge tool: the one tool the model sees, with its actions (search, describe, execute, and
 * more for the next part of a cut answer), emitted in OpenAI, Anthropic or MCP format.
 *
 * @module
 */

import type { ToolFormat } from "../config.ts";
import { ceilingSentence } from "./render.ts";

/** The bridge's actions. */
export const BRIDGE_ACTIONS = ["search", "describe", "execute", "more"] as const;

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
}

const DESCRIPTION = "Use the tools of MCP servers; ids are server/tool. " +
  "search: find tools by keywords. describe: get a tool's input schema. " +
  "execute: run a tool with arguments that follow that schema. Describe before you execute.";

// The description, with the ceiling's sentence when there is one.
function description(resultCeilingTokens: number | undefined): string {
  const ceiling = resultCeilingTokens === undefined ? "" : ceilingSentence(resultCeilingTokens);
  return ceiling === "" ? DESCRIPTION : `${DESCRIPTION} ${ceiling}`;
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
  options: Pick<BridgeToolOptions, "maxSearchLimit" | "searchDefaultLimit">,
): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      action: { type: "string", enum: [...BRIDGE_ACTIONS] },
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
  const DESCRIPTION = description(options.resultCeilingTokens);
  switch (options.toolFormat) {
    case "openai":
      return { type: "function", function: { name, description: DESCRIPTION, parameters } };
    case "anthropic":
      return { name, description: DESCRIPTION, input_schema: parameters };
    case "mcp":
      return { name, description: DESCRIPTION, inputSchema: parameters };
  }
}
