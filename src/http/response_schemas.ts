/**
 * The HTTP API's response bodies as `zod/mini` schemas, apart from the request schemas: responses
 * are checked against them in tests and the OpenAPI document is generated from them, so the app
 * builds them only when that document is asked for, not in every isolate's startup.
 *
 * @module
 */

import * as z from "zod/mini";
import { BRIDGE_ERROR_CODES, SEARCH_MISS_REASONS } from "../bridge/action.ts";
import type { ToolMatch as CoreToolMatch } from "../catalog.ts";
import { DISCLOSURE_LEVELS } from "../config.ts";
import { EXPLAINED_FIELDS, MATCH_KINDS } from "../ranking/explain.ts";
import { PROBLEM_CODES } from "./problems.ts";
import { RUN_ERROR_CODES } from "../code_mode/answer.ts";
import type { Same } from "../utils/same.ts";

/** The `/v1/result` error codes: the `McpError` codes that mapping a result can raise. */
export const RESULT_ERROR_CODES = ["tool_error", "unsupported_content"] as const;

const JsonObject = z.record(z.string(), z.unknown());

const ToolMatch = z.object({
  id: z.string(),
  server: z.string(),
  name: z.string(),
  description: z.string(),
  score: z.number(),
});
// The core's ToolMatch is the declaration (its JSON Schema is src/bridge/output_schema.ts's
// TOOL_MATCH_SCHEMA): this line stops compiling when the zod schema says otherwise.
const _toolMatchIsTheCoreType: Same<z.infer<typeof ToolMatch>, CoreToolMatch> = true;
const text = (description: string) => z.string().check(z.describe(description));
const int = () => z.int();

/**
 * Builds the response schemas.
 *
 * @param McpTool The request side's tool schema, which describe and execute results carry (the same
 *   object, so that the OpenAPI document names it once).
 * @returns The named schemas.
 *
 * @example Usage
 * ```ts
 * import { responseSchemas } from "./response_schemas.ts";
 * import * as z from "zod/mini";
 * import { equal } from "node:assert/strict";
 *
 * const { Health } = responseSchemas(z.object({}));
 * equal(Health.safeParse({ ok: true, version: "1" }).success, true);
 * ```
 */
// The schemas' types are what zod infers; spelling them out would repeat every schema.
// deno-lint-ignore explicit-module-boundary-types
export function responseSchemas<T extends z.ZodMiniType>(McpTool: T) {
  const ContentBlock = z.union([
    z.object({ type: z.literal("text"), text: z.string() }),
    z.object({ type: z.literal("image"), mimeType: z.string(), data: z.string() }),
    z.object({ type: z.literal("audio"), mimeType: z.string(), data: z.string() }),
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
  const MappedResult = z.union([
    MappedContent,
    z.object({ content: MappedContent, structuredContent: JsonObject }),
  ]);
  const Progress = z.object({
    shownTokens: int(),
    totalTokens: int(),
    percent: z.number().check(z.describe("The share shown so far, one decimal, rounded down.")),
    done: z.boolean(),
  });
  const Cut = z.object({
    part: int().check(z.describe("This part's number: 1 for the answer itself.")),
    next: z.optional(
      z.object({ action: z.literal("more"), ref: z.string() }).check(
        z.describe("The exact bridge call for the next part, while the rest is kept."),
      ),
    ),
    notKept: z.optional(
      z.enum(["no_session", "too_large"]).check(
        z.describe("Why the rest is not kept: no session given, or over what one session keeps."),
      ),
    ),
    text: z.optional(Progress.check(z.describe("The text's progress, when it was cut."))),
    structured: z.optional(
      Progress.check(z.describe("The structured copy's progress, when it was cut.")),
    ),
  }).check(z.describe(
    "An answer over maxResultTokens (or maxResultBytes), cut: the marker at the end of its text " +
      "and in its structured copy says the same to the model.",
  ));

  const ResultResponse = z.object({
    toolResult: MappedResult.check(z.describe(
      "What to hand the model: one text block as a string, else the blocks; with structuredContent " +
        "alongside when the server sent it; for a failure, the error text. Within maxResultTokens " +
        "(and maxResultBytes) plus the marker.",
    )),
    isError: z.boolean(),
    error: z.optional(z.object({ code: z.enum(RESULT_ERROR_CODES), message: z.string() })),
    cut: z.optional(Cut),
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

  const toolResult = text(
    "The exact text to return to the model as the bridge tool's result (within maxResultTokens " +
      "plus the marker of a cut answer).",
  );
  const cut = z.optional(Cut);
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
      cut,
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
      cut,
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
      cut,
      catalogHash,
    }).check(z.describe("A mistake of the model: toolResult tells it how to recover.")),
    z.object({
      action: z.literal("more"),
      ref: text("The ref the model sent."),
      toolResult: MappedResult.check(z.describe(
        "The next part, in the shape of the answer that was cut: a text for a search, describe " +
          "or error; a result's blocks (and structured copy) for a result posted to /v1/result.",
      )),
      cut: Cut,
      catalogHash,
    }).check(z.describe("The next part of a cut answer (a session keeps the rest).")),
    ...runResults(McpTool, { toolResult, id, catalogHash }),
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
    learned: z.optional(
      z.object({ share: z.number(), rankWithout: z.nullable(int()) }).check(
        z.describe("What this tenant ran lifted it: by this share, from rankWithout."),
      ),
    ),
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
      tokensReturned: int().check(z.describe("Tokens of every answer handed to the model.")),
      resultsCut: int().check(z.describe("Answers cut at maxResultTokens or maxResultBytes.")),
      moreCalls: int().check(z.describe("Calls of more, answered or not.")),
      runs: z.optional(int().check(z.describe("Scripts run (code mode)."))),
      scriptCalls: z.optional(
        int().check(z.describe("Real calls made by scripts (each also an execute).")),
      ),
    }),
    createdAt: text("ISO 8601"),
    updatedAt: text("ISO 8601"),
  });

  // Which ranker searches, when the server loads one (`deno-default`), and while it cannot, why.
  const ranking = {
    ranker: z.optional(
      z.enum(["deno-default", "lexical"]).check(
        z.describe(
          'The ranker searches use: "deno-default" (the word vectors and thesaurus), or "lexical" while they are loading or could not load (rankerProblem says which).',
        ),
      ),
    ),
    rankerProblem: z.optional(z.string()),
  };
  const Health = z.object({ ok: z.literal(true), version: z.string(), ...ranking });
  const ApiStatus = z.object({
    face: z.literal("api").check(z.describe('"api" here; a gateway answers "gateway".')),
    version: z.string(),
    ...ranking,
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
    ResultResponse,
    ToolMatch,
    Injection,
    InjectResponse,
    RouteResult,
    ExplainResponse,
    SessionInfo,
    Health,
    ApiStatus,
    Problem,
  };
}

// Code mode's two answers of /v1/route: a run that ended, and the next call a replayed run needs.
function runResults<T extends z.ZodMiniType>(
  McpTool: T,
  fields: { toolResult: z.ZodMiniString; id: z.ZodMiniString; catalogHash: z.ZodMiniString },
) {
  const ScriptCall = z.object({
    id: z.string(),
    ok: z.boolean(),
    error: z.optional(z.string()),
  });
  const RunError = z.object({
    code: z.enum(RUN_ERROR_CODES),
    message: z.string(),
    line: z.optional(int()),
    column: z.optional(int()),
    limit: z.optional(z.string()),
  });
  const content = {
    result: z.unknown().check(
      z.describe("The JSON of the value the script returned (null when none)."),
    ),
    logs: z.array(z.string()).check(z.describe("The script's console lines.")),
    calls: z.array(ScriptCall).check(z.describe("Each real call the script made, in order.")),
    error: z.optional(RunError.check(z.describe("Why the run has no value, when it has none."))),
  };
  return [
    z.object({
      action: z.literal("run"),
      isError: z.boolean(),
      ...content,
      toolResult: fields.toolResult,
      structuredContent: z.object(content).check(
        z.describe("The same as the text: for hosts that pass structured content on."),
      ),
      catalogHash: fields.catalogHash,
    }).check(z.describe("A script that ran: its value, its console lines and its calls.")),
    z.object({
      action: z.literal("call"),
      id: fields.id,
      tool: McpTool,
      arguments: JsonObject.check(z.describe("The arguments for the real tool.")),
      index: int().check(
        z.describe("The call's place among the run's real calls: the length `results` has now."),
      ),
      catalogHash: fields.catalogHash,
    }).check(
      z.describe(
        "The next real call a replayed run needs: the host authorises and calls it, adds its MCP " +
          "result to `results` and sends the same run again.",
      ),
    ),
  ] as const;
}
