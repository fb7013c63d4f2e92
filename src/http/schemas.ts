/**
 * The HTTP API's request and response bodies as zod schemas: requests are validated with them,
 * responses are checked against them in tests, and the OpenAPI document is generated from them.
 *
 * @module
 */

import { z } from "zod";
import { DISCLOSURE_LEVELS, MAX_SEARCH_LIMIT, TOOL_FORMATS } from "../config.ts";
import { SESSION_NAME } from "../session/store.ts";
import { type ProblemCode, PROBLEMS } from "./problems.ts";
import type { HttpSettings } from "./settings.ts";

const JsonObject = z.record(z.string(), z.unknown());

/** The schemas of one deployment (limits shape them). */
export type HttpSchemas = ReturnType<typeof httpSchemas>;

/**
 * Builds the schemas for a deployment's limits.
 *
 * @param settings The limits.
 * @returns The named schemas.
 *
 * @example Usage
 * ```ts
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const { InjectRequest } = httpSchemas(DEFAULT_SETTINGS);
 * equal(InjectRequest.safeParse({ catalog: [] }).success, true);
 * equal(InjectRequest.safeParse({ catalog: [], budjet: {} }).success, false);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function httpSchemas(settings: Pick<HttpSettings, "maxTools">) {
  const McpTool = z.looseObject({
    server: z.string().describe("The server's name; no `/`."),
    name: z.string().describe("The tool's name on its server."),
    description: z.string().default("").describe(
      "What the tool does (untrusted third-party text).",
    ),
    inputSchema: JsonObject.describe(
      'The JSON Schema input: an object schema, `"type": "object"`.',
    ),
    title: z.string().optional(),
    outputSchema: JsonObject.optional(),
    annotations: JsonObject.optional(),
    _meta: JsonObject.optional(),
  }).describe("An MCP tools/list entry plus the server it came from; its id is `server/name`.");

  const ServerInfo = z.strictObject({
    server: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
  }).describe("Optional information about a server of the catalogue (untrusted text).");

  const Budget = z.strictObject({
    availableContextTokens: z.number().int().positive().optional()
      .describe("Context still available to the model, in tokens (default 100000)."),
    inventoryThresholdPercent: z.number().gt(0).lte(100).optional()
      .describe("Share of it the catalogue listing may use (default 6)."),
  });

  const Options = z.strictObject({
    bridgeName: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/).optional(),
    toolFormat: z.enum(TOOL_FORMATS).optional(),
    disclosure: z.array(z.enum(DISCLOSURE_LEVELS)).min(1).optional(),
    searchDefaultLimit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
    maxSearchLimit: z.number().int().min(1).max(MAX_SEARCH_LIMIT).optional(),
    describeFirst: z.enum(["enforce", "off"]).optional()
      .describe('Refuse an execute of an undescribed tool (default "enforce" with a session).'),
    resend: z.boolean().optional().describe("Send a schema again even if this session has it."),
  });

  const Session = z.string().regex(SESSION_NAME).describe("Session name: ^[A-Za-z0-9._:-]{1,128}$");

  const common = {
    catalog: z.array(McpTool).max(settings.maxTools).describe("The session's whole catalogue."),
    servers: z.array(ServerInfo).optional(),
    budget: Budget.optional(),
    session: Session.optional(),
    options: Options.optional(),
  };

  const InjectRequest = z.strictObject(common);
  const RouteRequest = z.strictObject({
    ...common,
    arguments: z.union([JsonObject, z.string()])
      .describe("The bridge tool's arguments from the model: an object, or its raw JSON string."),
  });

  const ResultRequest = z.strictObject({
    session: Session.optional(),
    tool: z.string().regex(/^[^/]+\/.+$/).describe('The id ("server/tool") of the tool that ran.'),
    result: z.looseObject({
      content: z.array(z.unknown()).optional(),
      structuredContent: JsonObject.optional(),
      isError: z.boolean().optional(),
    }).describe("The upstream MCP CallToolResult, as the server sent it."),
  });

  const ContentBlock = z.union([
    z.object({ type: z.literal("text"), text: z.string() }),
    z.object({ type: z.literal("image"), mimeType: z.string(), data: z.string() }),
    z.object({
      type: z.literal("resource"),
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
      name: z.string().optional(),
      description: z.string().optional(),
    }),
  ]);
  const MappedContent = z.union([z.string(), z.array(ContentBlock)]);

  const ResultResponse = z.object({
    toolResult: z.union([
      MappedContent,
      z.object({ content: MappedContent, structuredContent: JsonObject }),
    ]).describe(
      "What to hand the model: one text block as a string, else the blocks; with structuredContent " +
        "alongside when the server sent it; for a failure, the error text.",
    ),
    isError: z.boolean(),
    error: z.object({
      code: z.enum(["tool_error", "unsupported_content"]),
      message: z.string(),
    }).optional(),
  });

  const ToolMatch = z.object({
    id: z.string(),
    server: z.string(),
    name: z.string(),
    description: z.string(),
    score: z.number(),
  });

  const InventoryServer = z.object({
    server: z.string(),
    toolCount: z.number().int(),
    summary: z.string().optional(),
    tools: z.array(z.object({ name: z.string(), description: z.string().optional() })).optional(),
  });

  const Injection = z.object({
    bridgeTool: JsonObject.describe("The bridge tool in the requested format."),
    prompt: z.string().describe("The system-prompt section."),
    mode: z.enum(DISCLOSURE_LEVELS),
    inventory: z.object({
      level: z.enum(DISCLOSURE_LEVELS),
      toolCount: z.number().int(),
      servers: z.array(InventoryServer),
    }),
    manifestTokens: z.number().int(),
    inventoryBudgetTokens: z.number().int(),
    promptTokens: z.number().int(),
    overheadTokens: z.number().int(),
  });

  const InjectResponse = z.object({ injection: Injection.nullable() });

  const RouteResult = z.object({
    action: z.enum(["search", "describe", "execute", "error"]),
    toolResult: z.string().optional()
      .describe("The text to return to the model (search, describe, error)."),
    id: z.string().optional().describe("The resolved tool id (describe, execute, some errors)."),
    query: z.string().optional(),
    limit: z.number().int().optional(),
    matches: z.array(ToolMatch).optional(),
    miss: z.object({ why: z.enum(["empty_query", "no_match"]), next: z.string() }).optional(),
    tool: McpTool.optional().describe("The resolved tool (describe, execute)."),
    elided: z.boolean().optional()
      .describe("describe: the schema was sent earlier in this session."),
    arguments: JsonObject.optional().describe("execute: the arguments for the real tool."),
    error: z.object({
      code: z.enum(["invalid_json", "invalid_arguments", "unknown_tool", "describe_first"]),
      message: z.string(),
      problems: z.array(z.object({ pointer: z.string(), message: z.string() })).optional(),
    }).optional(),
  });

  const SessionInfo = z.object({
    session: z.string(),
    catalogHash: z.string().nullable(),
    generation: z.number().int(),
    described: z.array(z.string()),
    counters: z.object({
      searches: z.number().int(),
      emptySearches: z.number().int(),
      describes: z.number().int(),
      elidedDescribes: z.number().int(),
      executes: z.number().int(),
      describeToExecute: z.number().int(),
      errors: z.record(z.string(), z.number().int()),
      upstreamFailures: z.number().int(),
    }),
    createdAt: z.string().describe("ISO 8601"),
    updatedAt: z.string().describe("ISO 8601"),
  });

  const Health = z.object({ ok: z.literal(true), version: z.string() });

  const Problem = z.object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.enum(Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]]),
    errors: z.array(z.object({ pointer: z.string(), message: z.string() })).optional(),
  });

  return {
    McpTool,
    ServerInfo,
    Budget,
    Options,
    InjectRequest,
    RouteRequest,
    ResultRequest,
    ResultResponse,
    ToolMatch,
    Injection,
    InjectResponse,
    RouteResult,
    SessionInfo,
    Health,
    Problem,
  };
}
