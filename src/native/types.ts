/**
 * The shapes of the Claude Messages API and the OpenAI Responses API that native tool search
 * reads and writes, written here so that nothing at run time depends on either SDK; tests check
 * them against the SDKs' own types.
 *
 * @module
 */

/** A JSON Schema object, as a tool's input takes it. */
export type JsonSchema = Record<string, unknown>;

/** A Claude custom tool (`Tool` in `@anthropic-ai/sdk`). */
export interface ClaudeTool {
  /** The name the model calls it by. */
  name: string;
  /** What it does. */
  description: string;
  /** Its input, an object schema. */
  input_schema: JsonSchema & { type: "object" };
  /** Loaded only when a search returns a `tool_reference` to it. */
  defer_loading?: boolean;
}

/** The model's call of a tool (`ToolUseBlock`). */
export interface ClaudeToolUse {
  /** Always `tool_use`. */
  type: "tool_use";
  /** The call's id, which the `tool_result` answers. */
  id: string;
  /** The tool called. */
  name: string;
  /** Its input. */
  input: unknown;
}

/** A reference that makes the API load a deferred tool (`ToolReferenceBlockParam`). */
export interface ClaudeToolReference {
  /** Always `tool_reference`. */
  type: "tool_reference";
  /** The tool to load, by its name in the request's `tools`. */
  tool_name: string;
}

/** A text block. */
export interface ClaudeText {
  /** Always `text`. */
  type: "text";
  /** The text. */
  text: string;
}

/** The answer to a `tool_use` (`ToolResultBlockParam`). */
export interface ClaudeToolResult {
  /** Always `tool_result`. */
  type: "tool_result";
  /** The `tool_use` it answers. */
  tool_use_id: string;
  /** Tools to load, or text. */
  content: Array<ClaudeToolReference | ClaudeText>;
  /** Set when the call was a mistake the text explains. */
  is_error?: boolean;
}

/** A function of an OpenAI namespace (`NamespaceTool.Function`). */
export interface OpenAiFunction {
  /** Always `function`. */
  type: "function";
  /** The name the model calls it by. */
  name: string;
  /** What it does. */
  description: string;
  /** Its input, an object schema. */
  parameters: JsonSchema;
  /** Loaded only when a tool search output carries it. */
  defer_loading?: boolean;
}

/** An OpenAI namespace: one server's functions (`NamespaceTool`). */
export interface OpenAiNamespace {
  /** Always `namespace`. */
  type: "namespace";
  /** Its name. */
  name: string;
  /** What the model sees of it before any search. */
  description: string;
  /** Its functions. */
  tools: OpenAiFunction[];
}

/** OpenAI's tool search, answered by the client (`ToolSearchTool`). */
export interface OpenAiToolSearch {
  /** Always `tool_search`. */
  type: "tool_search";
  /** The host runs the search. */
  execution: "client";
  /** What the model is told about it. */
  description: string;
  /** The arguments the model sends. */
  parameters: JsonSchema;
}

/** The model's tool search call (`ResponseToolSearchCall`). */
export interface OpenAiToolSearchCall {
  /** Always `tool_search_call`. */
  type: "tool_search_call";
  /** The id the output answers. */
  call_id: string | null;
  /** The arguments, per the tool search's `parameters`. */
  arguments: unknown;
}

/** The answer to a tool search call (`ResponseToolSearchOutputItemParam`). */
export interface OpenAiToolSearchOutput {
  /** Always `tool_search_output`. */
  type: "tool_search_output";
  /** The host ran it. */
  execution: "client";
  /** The call it answers. */
  call_id: string | null;
  /** Done. */
  status: "completed";
  /** The definitions to load, under their namespaces. */
  tools: OpenAiNamespace[];
}

/** The model's call of a function (`ResponseFunctionToolCall`). */
export interface OpenAiFunctionCall {
  /** Always `function_call`. */
  type: "function_call";
  /** The function called. */
  name: string;
  /** Its namespace, when it has one. */
  namespace?: string;
  /** Its arguments, as the model's JSON text. */
  arguments: string;
  /** The id its output answers. */
  call_id: string;
}
