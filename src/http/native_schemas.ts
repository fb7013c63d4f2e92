/**
 * The request and response bodies of the native tool search routes (`/v1/native/…`), built from
 * the same parts as the other catalogue requests (catalogue or `catalogRef`, budget, session,
 * options), so their limits and rules are the same.
 *
 * @module
 */

import * as z from "zod/mini";
import { CLAUDE_SEARCH_TOOL } from "../native/definitions.ts";

/** The native routes' catalogue requests: route kind → the schema names of its body. */
export const NATIVE_KINDS = {
  claudeTools: "NativeClaudeTools",
  claudeSearch: "NativeClaudeSearch",
  claudeResolve: "NativeClaudeResolve",
  openAiTools: "NativeOpenAiTools",
  openAiSearch: "NativeOpenAiSearch",
  openAiResolve: "NativeOpenAiResolve",
} as const;

/** A native route kind. */
export type NativeKind = keyof typeof NATIVE_KINDS;

/** The parts of a catalogue request the native bodies share with the others. */
export interface CatalogParts<R extends Record<string, z.ZodMiniType>> {
  /** The catalogue, by value. */
  Catalog: z.ZodMiniType;
  /** Its servers. */
  Servers: z.ZodMiniType;
  /** The other fields: catalogRef, budget, session, options. */
  rest: R;
  /** The rule that exactly one of catalog and catalogRef comes. */
  oneCatalog: z.core.$ZodCheck<{ catalog?: unknown; catalogRef?: unknown; servers?: unknown }>;
  /** The largest number of tools. */
  maxTools: number;
}

/**
 * The native request schemas: for each kind `<Name>Request` (whole body) and `<Name>Rest` (the body
 * without its catalogue).
 *
 * @param parts The shared parts.
 * @returns The named schemas.
 *
 * @example Usage
 * ```ts
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const { NativeClaudeToolsRequest } = httpSchemas(DEFAULT_SETTINGS);
 * equal(NativeClaudeToolsRequest.safeParse({ catalog: [], pinned: ["a/b"] }).success, true);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function nativeSchemas<R extends Record<string, z.ZodMiniType>>(parts: CatalogParts<R>) {
  const { Catalog, Servers, oneCatalog } = parts;
  const callId = z.string().check(z.minLength(1), z.maxLength(256));
  const pinned = z.optional(
    z.array(z.string()).check(
      z.maxLength(parts.maxTools),
      z.describe("Ids (`server/tool`) of tools loaded from the start, not deferred."),
    ),
  );
  const ToolUse = z.looseObject({
    type: z.literal("tool_use"),
    id: callId,
    name: z.string().check(z.minLength(1), z.maxLength(256)),
    input: z.unknown(),
  }).check(z.describe("The model's `tool_use` block, as the Messages API returned it."));
  const ToolSearchCall = z.looseObject({
    type: z.literal("tool_search_call"),
    call_id: z.nullable(callId),
    arguments: z.unknown(),
  }).check(z.describe("The model's `tool_search_call` item, as the Responses API returned it."));
  const FunctionCall = z.looseObject({
    type: z.literal("function_call"),
    name: z.string().check(z.minLength(1), z.maxLength(256)),
    namespace: z.optional(z.string().check(z.maxLength(256))),
    arguments: z.string(),
    call_id: callId,
  }).check(z.describe("The model's `function_call` item, as the Responses API returned it."));

  const bodies = {
    NativeClaudeTools: { pinned },
    NativeClaudeSearch: { pinned, toolUse: ToolUse },
    NativeClaudeResolve: { toolUse: ToolUse },
    NativeOpenAiTools: { pinned },
    NativeOpenAiSearch: { pinned, call: ToolSearchCall },
    NativeOpenAiResolve: { call: FunctionCall },
  };
  const whole = <S extends Record<string, z.ZodMiniType>>(own: S) =>
    z.strictObject({
      catalog: z.optional(Catalog),
      servers: z.optional(Servers),
      ...parts.rest,
      ...own,
    }).check(oneCatalog);
  const restOf = <S extends Record<string, z.ZodMiniType>>(own: S) =>
    z.strictObject({ ...parts.rest, ...own });

  return {
    NativeClaudeToolsRequest: whole(bodies.NativeClaudeTools),
    NativeClaudeToolsRest: restOf(bodies.NativeClaudeTools),
    NativeClaudeSearchRequest: whole(bodies.NativeClaudeSearch),
    NativeClaudeSearchRest: restOf(bodies.NativeClaudeSearch),
    NativeClaudeResolveRequest: whole(bodies.NativeClaudeResolve),
    NativeClaudeResolveRest: restOf(bodies.NativeClaudeResolve),
    NativeOpenAiToolsRequest: whole(bodies.NativeOpenAiTools),
    NativeOpenAiToolsRest: restOf(bodies.NativeOpenAiTools),
    NativeOpenAiSearchRequest: whole(bodies.NativeOpenAiSearch),
    NativeOpenAiSearchRest: restOf(bodies.NativeOpenAiSearch),
    NativeOpenAiResolveRequest: whole(bodies.NativeOpenAiResolve),
    NativeOpenAiResolveRest: restOf(bodies.NativeOpenAiResolve),
  };
}

/**
 * The native routes' response schemas: for tests and the OpenAPI document, never built to serve a
 * request.
 *
 * @returns The named schemas.
 *
 * @example Usage
 * ```ts
 * import { nativeResponseSchemas } from "./native_schemas.ts";
 * import { equal } from "node:assert/strict";
 *
 * const { NativeResolveResponse } = nativeResponseSchemas();
 * equal(NativeResolveResponse.safeParse({ id: "a/b", arguments: {}, catalogHash: "h" }).success, true);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function nativeResponseSchemas() {
  const JsonObject = z.record(z.string(), z.unknown());
  const catalogHash = z.string();
  const ClaudeTool = z.object({
    name: z.string(),
    description: z.string(),
    input_schema: JsonObject,
    defer_loading: z.optional(z.literal(true)),
  });
  const OpenAiFunction = z.object({
    type: z.literal("function"),
    name: z.string(),
    description: z.string(),
    parameters: JsonObject,
    defer_loading: z.optional(z.literal(true)),
  });
  const OpenAiNamespace = z.object({
    type: z.literal("namespace"),
    name: z.string(),
    description: z.string(),
    tools: z.array(OpenAiFunction),
  });
  const OpenAiToolSearch = z.object({
    type: z.literal("tool_search"),
    execution: z.literal("client"),
    description: z.string(),
    parameters: JsonObject,
  });
  const ToolResult = z.object({
    type: z.literal("tool_result"),
    tool_use_id: z.string(),
    content: z.array(z.union([
      z.object({ type: z.literal("tool_reference"), tool_name: z.string() }),
      z.object({ type: z.literal("text"), text: z.string() }),
    ])),
    is_error: z.optional(z.literal(true)),
  }).check(z.describe("The `tool_result` to send back in the next user message."));

  return {
    NativeClaudeToolsResponse: z.object({
      tools: z.array(ClaudeTool).check(
        z.describe(
          `The request's \`tools\`: the search tool "${CLAUDE_SEARCH_TOOL}", then each tool.`,
        ),
      ),
      catalogHash,
    }),
    NativeOpenAiToolsResponse: z.object({
      tools: z.array(z.union([OpenAiNamespace, OpenAiToolSearch])).check(
        z.describe("The request's `tools`: one namespace per server, then the tool search."),
      ),
      catalogHash,
    }),
    NativeClaudeSearchResponse: z.object({ toolResult: ToolResult, catalogHash }),
    NativeOpenAiSearchResponse: z.object({
      output: z.object({
        type: z.literal("tool_search_output"),
        execution: z.literal("client"),
        call_id: z.nullable(z.string()),
        status: z.literal("completed"),
        tools: z.array(OpenAiNamespace),
      }).check(z.describe("The item to append to the next request's input.")),
      miss: z.optional(
        z.string().check(z.describe("When the output loads nothing: the text for the model.")),
      ),
      alreadyAvailable: z.optional(
        z.array(z.string()).check(z.describe("Matched functions the conversation already has.")),
      ),
      catalogHash,
    }),
    NativeResolveResponse: z.object({
      id: z.string().check(z.describe("The tool to run: `server/tool`.")),
      arguments: JsonObject.check(z.describe("Its arguments, checked against its input schema.")),
      catalogHash,
    }),
  };
}
