/**
 * The HTTP API's request and response bodies as `zod/mini` schemas: requests are validated with
 * them, responses are checked against them in tests, and the OpenAPI document is generated from
 * them. Every code list, limit and name pattern comes from the module that owns the rule.
 *
 * @module
 */

import * as z from "zod/mini";
import {
  BRIDGE_NAME,
  DISCLOSURE_LEVELS,
  MAX_AVAILABLE_CONTEXT_TOKENS,
  MAX_RESULT_BYTES,
  MAX_SEARCH_LIMIT,
  TOOL_FORMATS,
} from "../config.ts";
import { DESCRIBE_FIRST_MODES } from "../session/describe_first.ts";
import { CODE_LIMIT_NAMES, CODE_MODES } from "../code_mode/limits.ts";
import { SESSION_NAME } from "../session/store.ts";
import { CATALOG_REF } from "./catalog_cache.ts";
import { NATIVE_KINDS, nativeResponseSchemas, nativeSchemas } from "./native_schemas.ts";
import { responseSchemas } from "./response_schemas.ts";
import { type HttpSettings, SETTING_VARIABLES } from "./settings.ts";

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

/** The request schemas of one deployment (limits shape them): what serving a request needs. */
export type RequestSchemas = ReturnType<typeof requestSchemas>;

/**
 * Builds the request schemas for a deployment's limits: all the app builds at startup, since the
 * response schemas serve only tests and the OpenAPI document.
 *
 * @param settings The limits.
 * @returns The named schemas.
 *
 * @example Usage
 * ```ts
 * import { requestSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const { InjectRequest } = requestSchemas(DEFAULT_SETTINGS);
 * equal(InjectRequest.safeParse({ catalog: [] }).success, true);
 * equal(InjectRequest.safeParse({ catalog: [], budjet: {} }).success, false);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function requestSchemas(settings: Pick<HttpSettings, "maxTools">) {
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
  // The result ceilings, on /v1/route and /v1/result alike (the core checks the ranges' rules).
  const ceilings = {
    maxResultTokens: z.optional(
      int().check(
        z.gte(0),
        z.lte(MAX_AVAILABLE_CONTEXT_TOKENS),
        z.describe(
          "The most tokens one answer to the model may carry (0: no ceiling; else at least 100). " +
            "Default: 10 % of availableContextTokens, from 1,000 to 25,000.",
        ),
      ),
    ),
    maxResultBytes: z.optional(
      int().check(
        z.gte(0),
        z.lte(MAX_RESULT_BYTES),
        z.describe(
          "The most decoded bytes of images, audio and blobs in one answer (0: no ceiling; " +
            "default 1 MiB); a bigger block becomes a line naming it.",
        ),
      ),
    ),
  };
  const ResultOptions = z.strictObject(ceilings);
  const Options = z.strictObject({
    ...ceilings,
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
    learn: z.optional(
      z.boolean().check(z.describe("Learn from and use this tenant's runs (default true).")),
    ),
    codeMode: z.optional(
      z.enum(CODE_MODES).check(
        z.describe(
          'Code mode: "run" scripts whose calls the host answers (default "off"; "read-only": ' +
            "only tools whose definition says readOnlyHint).",
        ),
      ),
    ),
    codeLimits: z.optional(
      z.strictObject(
        Object.fromEntries(CODE_LIMIT_NAMES.map((name) => [name, z.optional(int())])),
      ).check(z.describe("The bounds of a run, each at most this deployment's.")),
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
  const Results = z.array(
    z.looseObject({
      content: z.optional(z.array(z.unknown())),
      structuredContent: z.optional(JsonObject),
      isError: z.optional(z.boolean()),
    }),
  ).check(
    z.describe(
      "A run replayed (code mode): the MCP results of the calls the run asked for so far, in order.",
    ),
  );
  const RouteRequest = z.strictObject({
    catalog: z.optional(Catalog),
    servers: z.optional(Servers),
    ...rest,
    arguments: Arguments,
    results: z.optional(Results),
  }).check(oneCatalog);
  // The parts of a request whose catalogue arrived as text, parsed apart (src/http/catalog_request.ts).
  const CatalogPart = z.strictObject({ catalog: Catalog, servers: z.optional(Servers) });
  const InjectRest = z.strictObject(rest);
  const RouteRest = z.strictObject({ ...rest, arguments: Arguments, results: z.optional(Results) });
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
    budget: z.optional(Budget.check(z.describe("The budget the default ceiling derives from."))),
    options: z.optional(ResultOptions),
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

  return {
    McpTool,
    ServerInfo,
    Budget,
    Options,
    ResultOptions,
    InjectRequest,
    RouteRequest,
    CatalogPart,
    InjectRest,
    RouteRest,
    ResultRequest,
    ExplainRequest,
    ExplainRest,
    ...nativeSchemas({ Catalog, Servers, rest, oneCatalog, maxTools: settings.maxTools }),
  };
}

/** The schemas of one deployment: its request schemas, then the responses. */
export type HttpSchemas = ReturnType<typeof httpSchemas>;

/**
 * Builds the schemas for a deployment's limits: the requests' and the responses'.
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
 * const { InjectRequest, Health } = httpSchemas(DEFAULT_SETTINGS);
 * equal(InjectRequest.safeParse({ catalog: [], budjet: {} }).success, false);
 * equal(Health.safeParse({ ok: true, version: "1" }).success, true);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function httpSchemas(settings: Pick<HttpSettings, "maxTools">) {
  const requests = requestSchemas(settings);
  return {
    ...requests,
    ...responseSchemas(requests.McpTool),
    ...nativeResponseSchemas(),
  };
}
