/**
 * The HTTP API's request and response bodies as `zod/mini` schemas: requests are validated with
 * them, responses are checked against them in tests, and the OpenAPI document is generated from
 * them. Every code list, limit and name pattern comes from the module that owns the rule.
 *
 * @module
 */

import * as z from "zod/mini";
import { BRIDGE_ERROR_CODES, SEARCH_MISS_REASONS } from "../bridge/action.ts";
import { BRIDGE_NAME, DISCLOSURE_LEVELS, MAX_SEARCH_LIMIT, TOOL_FORMATS } from "../config.ts";
import { DESCRIBE_FIRST_MODES } from "../session/session_route.ts";
import { SESSION_NAME } from "../session/store.ts";
import { CATALOG_REF } from "./catalog_cache.ts";
import { NATIVE_KINDS, nativeSchemas } from "./native_schemas.ts";
import { PROBLEM_CODES } from "./problems.ts";
import { EXPLAINED_FIELDS, MATCH_KINDS } from "../ranking/explain.ts";
import { type HttpSettings, SETTING_VARIABLES } from "./settings.ts";

/** The `/v1/result` error codes: the `McpError` codes that mapping a result can raise. */
export const RESULT_ERROR_CODES = ["tool_error", "unsupported_content"] as const;

/** A tool id as `/v1/result` takes it: `server/tool`. */
export const TOOL_ID: RegExp = /^[^/]+\/.+$/;

const JsonObject = z.record(z.string(), z.unknown());
const text = (description: string) => z.string().check(z.describe(description));
const int = () => z.int();

/**
 * The schemas that validate parts of an inject or route request apart (its catalogue, and the
 * rest), for `catalog_request.ts`: not request bodies of their own, so not in the OpenAPI document.
 */
export const REQUEST_PARTS = [
  "CatalogPart",
  "InjectRest",
  "RouteRest",
  "ExplainRest",
  ...Object.values(NATIVE_KINDS).map((name) => `${name}Rest` as const),
] as const;

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
    server: text("The server's name; no `/`."),
    name: text("The tool's name on its server."),
    description: z._default(text("What the tool does (untrusted third-party text)."), ""),
    inputSchema: JsonObject.check(
      z.describe('The JSON Schema input: an object schema, `"type": "object"`.'),
    ),
    title: z.optional(z.string()),
    outputSchema: z.optional(JsonObject),
    annotations: z.optional(JsonObject),
    _meta: z.optional(JsonObject),
  }).check(
    z.describe("An MCP tools/list entry plus the server it came from; its id is `server/name`."),
  );

  const ServerInfo = z.strictObject({
    server: z.string(),
    title: z.optional(z.string()),
    description: z.optional(z.string()),
  }).check(z.describe("Optional information about a server of the catalogue (untrusted text)."));

  const Budget = z.strictObject({
    availableContextTokens: z.optional(
      int().check(
        z.positive(),
        z.describe("Context still available to the model, in tokens (default 100000)."),
      ),
    ),
    inventoryThresholdPercent: z.optional(
      z.number().check(
        z.gt(0),
        z.lte(100),
        z.describe("Share of it the catalogue listing may use (default 6)."),
      ),
    ),
  });

  const limit = () => int().check(z.gte(1), z.lte(MAX_SEARCH_LIMIT));
  const Options = z.strictObject({
    bridgeName: z.optional(z.string().check(z.regex(BRIDGE_NAME))),
    toolFormat: z.optional(z.enum(TOOL_FORMATS)),
    disclosure: z.optional(z.array(z.enum(DISCLOSURE_LEVELS)).check(z.minLength(1))),
    searchDefaultLimit: z.optional(limit()),
    maxSearchLimit: z.optional(limit()),
    describeFirst: z.optional(
      z.enum(DESCRIBE_FIRST_MODES).check(
        z.describe('Refuse an execute of an undescribed tool (default "enforce" with a session).'),
      ),
    ),
    resend: z.optional(
      z.boolean().check(z.describe("Send a schema again even if this session has it.")),
    ),
  });

  const Session = z.string().check(
    z.regex(SESSION_NAME),
    z.describe(`Session name: ${SESSION_NAME.source}`),
  );

  const Catalog = z.array(McpTool).check(
    z.maxLength(settings.maxTools, {
      error: `must hold at most ${settings.maxTools} tools (${SETTING_VARIABLES.maxTools})`,
    }),
    z.describe("The session's whole catalogue (or `catalogRef` instead)."),
  );
  const Servers = z.array(ServerInfo).check(
    z.describe(
      "Information about the catalogue's servers; part of the catalogue `catalogRef` names.",
    ),
  );
  // The fields besides the catalogue: what a request carries when its catalogue is looked up by
  // the text that arrived, or by reference.
  const rest = {
    catalogRef: z.optional(
      z.string().check(
        z.regex(CATALOG_REF, { error: `must be a catalogHash (${CATALOG_REF.source})` }),
        z.describe(
          "The `catalogHash` of a catalogue (with its servers) sent earlier, instead of `catalog` " +
            "and `servers`; a server that does not hold it answers 409 `catalog_unknown`.",
        ),
      ),
    ),
    budget: z.optional(Budget),
    session: z.optional(Session),
    options: z.optional(Options),
  };
  const Arguments = z.union([JsonObject, z.string()], {
    error: "must be an object, or the model's raw JSON string",
  }).check(
    z.describe("The bridge tool's arguments from the model: an object, or its raw JSON string."),
  );
  // Exactly one of catalog and catalogRef; servers only with catalog.
  const oneCatalog = z.superRefine(
    (body: { catalog?: unknown; catalogRef?: unknown; servers?: unknown }, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: "custom", input: body, path: [path], message });
      if (body.catalog === undefined && body.catalogRef === undefined) {
        issue("catalog", 'is required (or "catalogRef")');
      }
      if (body.catalog !== undefined && body.catalogRef !== undefined) {
        issue("catalogRef", 'must not come with "catalog": send one of them');
      }
      if (body.catalogRef !== undefined && body.servers !== undefined) {
        issue("servers", 'must not come with "catalogRef": the catalogue it names has its servers');
      }
    },
  );

  const InjectRequest = z.strictObject({
    catalog: z.optional(Catalog),
    servers: z.optional(Servers),
    ...rest,
  }).check(oneCatalog);
  const RouteRequest = z.strictObject({
    catalog: z.optional(Catalog),
    servers: z.optional(Servers),
    ...rest,
    arguments: Arguments,
  }).check(oneCatalog);
  // The parts of a request whose catalogue arrived as text, parsed apart (src/http/catalog_request.ts).
  const CatalogPart = z.strictObject({ catalog: Catalog, servers: z.optional(Servers) });
  const InjectRest = z.strictObject(rest);
  const RouteRest = z.strictObject({ ...rest, arguments: Arguments });
  // Why a search found what it found (src/ranking/explain.ts): the query, and a tool to look for.
  const explainFields = {
    catalogRef: rest.catalogRef,
    query: z.string().check(
      z.minLength(1),
      z.describe("The search query, as the model would send it (at most the query limit)."),
    ),
    limit: z.optional(
      limit().check(z.describe(`How many ranked tools to explain (default 10).`)),
    ),
    id: z.optional(
      z.string().check(
        z.regex(TOOL_ID, { error: 'must be a tool id "server/tool"' }),
        z.describe("A tool expected to rank: where it ranked and why."),
      ),
    ),
  };
  const ExplainRequest = z.strictObject({
    catalog: z.optional(Catalog),
    servers: z.optional(Servers),
    ...explainFields,
  }).check(oneCatalog);
  const ExplainRest = z.strictObject(explainFields);

  const ResultRequest = z.strictObject({
    session: z.optional(Session),
    tool: z.string().check(
      z.regex(TOOL_ID, { error: 'must be a tool id "server/tool"' }),
      z.describe('The id ("server/tool") of the tool that ran.'),
    ),
    result: z.looseObject({
      content: z.optional(z.array(z.unknown())),
      structuredContent: z.optional(JsonObject),
      isError: z.optional(z.boolean()),
    }).check(z.describe("The upstream MCP CallToolResult, as the server sent it.")),
  });

  const ContentBlock = z.union([
    z.object({ type: z.literal("text"), text: z.string() }),
    z.object({ type: z.literal("image"), mimeType: z.string(), data: z.string() }),
    z.object({
      type: z.literal("resource"),
      uri: z.string(),
      mimeType: z.optional(z.string()),
      text: z.optional(z.string()),
      blob: z.optional(z.string()),
      name: z.optional(z.string()),
      description: z.optional(z.string()),
    }),
  ]);
  const MappedContent = z.union([z.string(), z.array(ContentBlock)]);

  const ResultResponse = z.object({
    toolResult: z.union([
      MappedContent,
      z.object({ content: MappedContent, structuredContent: JsonObject }),
    ]).check(z.describe(
      "What to hand the model: one text block as a string, else the blocks; with structuredContent " +
        "alongside when the server sent it; for a failure, the error text.",
    )),
    isError: z.boolean(),
    error: z.optional(z.object({ code: z.enum(RESULT_ERROR_CODES), message: z.string() })),
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
    toolCount: int(),
    summary: z.optional(z.string()),
    tools: z.optional(
      z.array(z.object({ name: z.string(), description: z.optional(z.string()) })),
    ),
  });

  const Injection = z.object({
    bridgeTool: JsonObject.check(z.describe("The bridge tool in the requested format.")),
    prompt: text("The system-prompt section."),
    mode: z.enum(DISCLOSURE_LEVELS),
    inventory: z.object({
      level: z.enum(DISCLOSURE_LEVELS),
      toolCount: int(),
      servers: z.array(InventoryServer),
    }),
    manifestTokens: int(),
    inventoryBudgetTokens: int(),
    promptTokens: int(),
    overheadTokens: int(),
    budgetWarning: z.optional(
      text("Only when even the inventory listing exceeds the budget: it is listed anyway."),
    ),
  });

  const catalogHash = text(
    "The hash of the request's catalogue: send it as `catalogRef` instead of the catalogue.",
  );
  const SchemaWarning = z.object({
    tool: text("The tool's id."),
    keyword: text("The JSON Schema keyword left unchecked: `pattern` or `patternProperties`."),
    pointer: text(
      "A JSON pointer to it in the tool's `inputSchema`, e.g. `/properties/q/pattern`.",
    ),
    reason: text("Why unfold cannot check it (lookaround, a repeat over 1,000, ...)."),
  });
  const InjectResponse = z.object({
    injection: z.nullable(Injection),
    catalogHash,
    warnings: z.optional(
      z.array(SchemaWarning).check(z.describe(
        "Only when some tool's input schema has parts unfold leaves to the tool's server: the " +
          "tool stays listed and callable, its arguments are checked against the rest.",
      )),
    ),
  });

  const toolResult = text("The exact text to return to the model as the bridge tool's result.");
  const id = text("The resolved tool id.");
  const ArgumentProblem = z.object({ pointer: z.string(), message: z.string() });
  const RouteResult = z.discriminatedUnion("action", [
    z.object({
      action: z.literal("search"),
      query: z.string(),
      limit: int(),
      matches: z.array(ToolMatch),
      miss: z.optional(z.object({ why: z.enum(SEARCH_MISS_REASONS), next: z.string() })),
      toolResult,
      catalogHash,
    }).check(z.describe("Search results.")),
    z.object({
      action: z.literal("describe"),
      id,
      tool: McpTool,
      elided: z.optional(
        z.boolean().check(z.describe("The schema was sent earlier in this session.")),
      ),
      toolResult,
      catalogHash,
    }).check(z.describe("One tool's schema.")),
    z.object({
      action: z.literal("execute"),
      id,
      tool: McpTool,
      arguments: JsonObject.check(z.describe("The arguments for the real tool.")),
      catalogHash,
    }).check(z.describe("The host authorises and calls `tool` with `arguments` itself.")),
    z.object({
      action: z.literal("error"),
      id: z.optional(id),
      toolResult,
      error: z.object({
        code: z.enum(BRIDGE_ERROR_CODES),
        message: z.string(),
        problems: z.optional(z.array(ArgumentProblem)),
      }),
      catalogHash,
    }).check(z.describe("A mistake of the model: toolResult tells it how to recover.")),
  ]).check(z.describe("What one call of the bridge tool comes to, by `action`."));

  const WordMatch = z.object({
    word: z.string(),
    kind: z.enum(MATCH_KINDS),
    term: z.optional(text("The tool's word the query word reached.")),
    field: z.optional(z.enum(EXPLAINED_FIELDS)),
  });
  const ExplainedTool = z.object({
    id,
    rank: z.nullable(int().check(z.describe("1-based; null when the query does not rank it."))),
    score: z.nullable(z.number()),
    matches: z.array(WordMatch),
    missing: z.array(z.string()).check(z.describe("The query words it did not match.")),
  });
  const ExplainResponse = z.object({
    words: z.array(z.string()).check(z.describe("The query's searchable words.")),
    results: z.array(ExplainedTool),
    target: z.optional(
      z.object({ ...ExplainedTool.shape, reason: text("Why it ranked where it did.") }),
    ),
    catalogHash,
  });

  const SessionInfo = z.object({
    session: z.string(),
    catalogHash: z.nullable(z.string()),
    generation: int(),
    described: z.array(z.string()),
    counters: z.object({
      searches: int(),
      emptySearches: int(),
      describes: int(),
      elidedDescribes: int(),
      executes: int(),
      describeToExecute: int(),
      errors: z.record(z.string(), int()),
      upstreamFailures: int(),
    }),
    createdAt: text("ISO 8601"),
    updatedAt: text("ISO 8601"),
  });

  const Health = z.object({ ok: z.literal(true), version: z.string() });
  const ApiStatus = z.object({
    face: z.literal("api").check(z.describe('"api" here; a gateway answers "gateway".')),
    version: z.string(),
  });

  const Problem = z.object({
    type: z.string(),
    title: z.string(),
    status: int(),
    detail: z.string(),
    code: z.enum(PROBLEM_CODES),
    errors: z.optional(z.array(ArgumentProblem)),
  });

  return {
    McpTool,
    ServerInfo,
    Budget,
    Options,
    InjectRequest,
    RouteRequest,
    CatalogPart,
    InjectRest,
    RouteRest,
    ResultRequest,
    ResultResponse,
    ToolMatch,
    Injection,
    InjectResponse,
    RouteResult,
    ExplainRequest,
    ExplainRest,
    ExplainResponse,
    SessionInfo,
    Health,
    ApiStatus,
    Problem,
    ...nativeSchemas({ Catalog, Servers, rest, oneCatalog, maxTools: settings.maxTools }),
  };
}
