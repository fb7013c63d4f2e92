/**
 * The injector: what a host puts in front of the model (one bridge tool and the richest catalogue
 * overview that fits the budget) and what it makes of the model's calls of that tool.
 *
 * @module
 */

import type { BridgeAction } from "./bridge/action.ts";
import type { ParsedCall } from "./bridge/parse.ts";
import type { Answer } from "./bridge/answer.ts";
import { type CutInfo, resultCeiling } from "./bridge/ceiling.ts";
import { renderToolFailure } from "./bridge/render.ts";
import { route, scriptOf } from "./bridge/route.ts";
import { type BridgeTool, bridgeTool } from "./bridge/tool.ts";
import type { McpCatalog } from "./catalog.ts";
import { type DisclosureLevel, type ProgressiveConfig, resolveConfig } from "./config.ts";
import { disclose, type Inventory, listCatalog } from "./disclosure.ts";
import { instructions, renderPrompt } from "./prompt.ts";
import { boundAnswer, type Bounded } from "./session/bound.ts";
import type { McpTool } from "./tool.ts";
import type { CallAction, RunAnswer } from "./code_mode/answer.ts";
import { runScript } from "./code_mode/run.ts";
import type { Sandbox } from "./code_mode/sandbox.ts";
import { isRecord } from "./utils/record.ts";

/** What a host puts in front of the model. */
export interface Injection {
  /** The bridge tool, in the configured format. */
  bridgeTool: BridgeTool;
  /** The system-prompt section: protocol instructions and the catalogue listing. */
  prompt: string;
  /** The disclosure level chosen. */
  mode: DisclosureLevel;
  /** The structured form of what the prompt lists. */
  inventory: Inventory;
  /** The estimated tokens of the full manifest listing (every id with its description). */
  manifestTokens: number;
  /** The listing's budget: floor(availableContextTokens × inventoryThresholdPercent / 100). */
  inventoryBudgetTokens: number;
  /** The estimated tokens of the chosen level's listing. */
  promptTokens: number;
  /** The estimated tokens of the fixed part: bridge tool definition and instructions. */
  overheadTokens: number;
  /**
   * Present only when the budget is too small even for the smallest level, the inventory, which is
   * listed anyway (`promptTokens` > `inventoryBudgetTokens`): one line for the host's log saying
   * so and what to raise.
   */
  budgetWarning?: string;
}

/** Runs a resolved tool call: the host's bridge to the real MCP server. */
export interface McpInvoker {
  /**
   * Calls the tool.
   *
   * @param tool The resolved tool.
   * @param args Its arguments.
   * @param signal Aborted when the call is no longer needed (a script's run ended first).
   * @returns The result to hand back to the model.
   */
  invoke(
    tool: McpTool,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<unknown> | unknown;
}

/**
 * What {@linkcode Injector.prototype.handle} returns: every result carries its `toolResult`,
 * within the result ceiling (`maxResultTokens`, `maxResultBytes`; a cut one ends with a marker
 * that says so). An execute that ran carries the invoker's `result` as it came, or
 * `isError: true` and the failure as `error: {code, message}`, the place where a model mistake
 * (`action: "error"`) has its own.
 */
export type HandledAction =
  | Exclude<BridgeAction, { action: "execute" }>
  | RunAnswer
  | (
    & Extract<BridgeAction, { action: "execute" }>
    & (
      | { isError: false; result: unknown; toolResult: unknown }
      | { isError: true; error: { code: string; message: string }; toolResult: string }
    )
  );

/** An execute that ran: its action, and the invoker's result or failure. */
export type ExecutedAction = Extract<HandledAction, { action: "execute" }>;

/**
 * The injector over one catalogue and configuration.
 *
 * @example Usage
 * ```ts
 * import { Injector, McpCatalog } from "../mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "everything", name: "echo", description: "Echoes back the input", inputSchema: { type: "object", properties: { message: { type: "string" } } } },
 * ]);
 * const injector = new Injector(catalog, { availableContextTokens: 32_000 });
 * equal(injector.inject()?.mode, "manifest");
 * const invoker = { invoke: (_tool: unknown, args: Record<string, unknown>) => `Echo: ${args.message}` };
 * const result = await injector.handle({ action: "execute", name: "everything/echo", arguments: { message: "hi" } }, invoker);
 * equal(result.toolResult, "Echo: hi");
 * ```
 */
export class Injector {
  /** The catalogue. */
  readonly catalog: McpCatalog;
  /** The complete, validated configuration. */
  readonly config: ProgressiveConfig;
  #injection: Injection | null | undefined;

  /**
   * Makes an injector.
   *
   * @param catalog The catalogue the model may use; nothing outside it exists for the model.
   * @param config Changes to the default configuration.
   * @throws {RangeError} When the configuration is invalid.
   */
  constructor(catalog: McpCatalog, config: Partial<ProgressiveConfig> = {}) {
    this.catalog = catalog;
    this.config = resolveConfig(config);
  }

  /**
   * The bridge tool and the richest catalogue listing that fits the budget.
   *
   * @returns The injection, or `null` when the catalogue is empty.
   */
  inject(): Injection | null {
    if (this.#injection !== undefined) return this.#injection;
    if (this.catalog.size === 0) return this.#injection = null;
    const c = this.config;
    const budget = Math.floor(c.availableContextTokens * c.inventoryThresholdPercent / 100);
    const chosen = disclose(this.catalog, budget, c);
    const tool = bridgeTool({ ...c, resultCeilingTokens: c.maxResultTokens });
    this.#injection = {
      bridgeTool: tool,
      prompt: renderPrompt(c.bridgeName, chosen.mode, chosen.text),
      mode: chosen.mode,
      inventory: chosen.inventory,
      manifestTokens: chosen.manifestTokens,
      inventoryBudgetTokens: budget,
      promptTokens: chosen.promptTokens,
      overheadTokens: c.estimateTokens(JSON.stringify(tool)) +
        c.estimateTokens(instructions(c.bridgeName, chosen.mode)),
      ...(chosen.promptTokens > budget
        ? { budgetWarning: budgetWarning(chosen.promptTokens, budget, c) }
        : {}),
    };
    return this.#injection;
  }

  /**
   * Routes one call of the bridge tool. Never throws on model input: mistakes come back as
   * `action: "error"` with a message that says how to recover.
   *
   * @param args The bridge arguments: an object, or the model's raw JSON string.
   * @param options `validateArguments: false` leaves an execute's arguments unchecked (the session
   * layer checks them after its describe-first rule); `learned`, what this user ran, lifts the
   * tools they ran for a search's words (unless the configuration says `learn: false`).
   * @returns The action.
   */
  route(
    args: unknown,
    options: {
      validateArguments?: boolean;
      learned?: { lift(words: readonly string[]): ReadonlyMap<string, number> } | undefined;
    } = {},
  ): BridgeAction {
    return routeParsed(this, args, undefined, options);
  }

  /**
   * Routes one call of the bridge tool and, for an execute, runs the resolved tool through the
   * invoker. Model mistakes and invoker failures come back as results with `isError`, never as
   * exceptions; `toolResult` is what to hand back to the model, within the result ceiling: an
   * answer over it is cut at a clean boundary and ends with a marker saying so. Nothing is kept
   * here: `handleBounded` (`@unfold/unfold/session`) keeps the rest in a session for `more`.
   *
   * A run (code mode) runs in the sandbox given, each of its calls through the invoker.
   *
   * @param args The bridge arguments: an object, or the model's raw JSON string.
   * @param invoker Runs the resolved tool.
   * @param options `sandbox` runs the scripts of `run` (code mode; without one, a run answers
   * that it cannot); `signal` stops a run.
   * @returns The action, with its `toolResult`.
   */
  async handle(
    args: unknown,
    invoker: McpInvoker,
    options: { sandbox?: Sandbox; signal?: AbortSignal } = {},
  ): Promise<HandledAction> {
    const ceiling = resultCeiling(this.config);
    const bound = (answer: Answer) => boundAnswer(answer, { ceiling });
    const run = this.script(args);
    if (run !== undefined) {
      return await boundRun(
        await runScript(this, run.code, { ...options, invoker }) as RunAnswer,
        bound,
      );
    }
    const action = this.route(args);
    if (action.action !== "execute") {
      const bounded = await bound({ shape: "text", text: action.toolResult });
      return { ...action, toolResult: bounded.answer as string };
    }
    const { cut: _, ...executed } = await executeBounded(action, invoker, bound);
    return executed as ExecutedAction;
  }

  /**
   * The script a call of the bridge asks to run (code mode on): a host that runs scripts asks
   * this first, runs the script with {@linkcode Injector.prototype.run}, and routes any other
   * call ({@linkcode Injector.prototype.route} answers a run as a mistake, for a host that runs
   * none).
   *
   * @param args The bridge arguments: an object, or the model's raw JSON string.
   * @returns The run, or `undefined` for any other call.
   */
  script(args: unknown): { action: "run"; code: string } | undefined {
    return scriptOf(args, this.config);
  }

  /**
   * Runs a script of `run` (code mode): live, each call through `options.invoker`; or replayed
   * for a host that runs the tools itself, with `options.results` (the MCP results of the calls
   * so far, in call order), answering the next call the script needs as `action: "call"` until
   * it ends. Never throws: every failure is a `RunAnswer` with `isError` and its `error`.
   *
   * @param code The script (a `run` action's `code`).
   * @param options `sandbox` runs the script (without one, the run answers `unavailable`);
   * `invoker` runs each real call as the script makes it (a live run); or `results`, the MCP
   * results of the calls so far in call order (a replayed run); `signal` stops the run.
   * @returns The run's answer, or the next call a replayed run needs.
   */
  run(
    code: string,
    options: {
      sandbox?: Sandbox;
      invoker?: McpInvoker;
      results?: readonly unknown[];
      signal?: AbortSignal;
    },
  ): Promise<RunAnswer | CallAction> {
    return runScript(this, code, options);
  }
}

/**
 * Runs a resolved execute through the invoker and bounds what the model is handed: the result
 * (`result` as it came, `toolResult` within the ceiling), or the failure's text.
 *
 * @param action The resolved execute.
 * @param invoker Runs the tool.
 * @param bound Bounds an answer (and, in a session, keeps and counts it).
 * @returns The executed action.
 */
export async function executeBounded(
  action: Extract<BridgeAction, { action: "execute" }>,
  invoker: McpInvoker,
  bound: (answer: Answer) => Promise<Bounded>,
): Promise<ExecutedAction & { cut?: CutInfo }> {
  try {
    const result = await invoker.invoke(action.tool, action.arguments);
    const answer = answerOf(result);
    const bounded = await bound(answer);
    // A value that is no text or result reaches the model as its JSON only when that is cut.
    const toolResult = "value" in answer && bounded.cut === undefined ? result : bounded.answer;
    return withCut({ ...action, isError: false, result, toolResult }, bounded);
  } catch (e) {
    const code = typeof (e as { code?: unknown })?.code === "string"
      ? (e as { code: string }).code
      : "tool_failed";
    const message = e instanceof Error ? e.message : String(e);
    const bounded = await bound({
      shape: "text",
      text: renderToolFailure(action.id, code, message),
    });
    return withCut({
      ...action,
      isError: true,
      error: { code, message },
      toolResult: bounded.answer as string,
    }, bounded);
  }
}

/**
 * Bounds a run's answer as every other answer is bounded: its text, and its structured copy, cut
 * (or replaced by a note) the same way, with the marker; `result`, `logs` and `calls` stay whole
 * for the host.
 *
 * @param answer The run's answer.
 * @param bound Bounds an answer (and, in a session, keeps and counts it).
 * @returns The answer with its text and structured copy within the ceiling.
 */
export async function boundRun(
  answer: RunAnswer,
  bound: (answer: Answer) => Promise<Bounded>,
): Promise<RunAnswer & { cut?: CutInfo }> {
  const bounded = await bound({
    shape: "mcp",
    result: {
      content: [{ type: "text", text: answer.toolResult }],
      structuredContent: answer.structuredContent as unknown as Record<string, unknown>,
    },
  });
  if (bounded.cut === undefined) return answer;
  const result = bounded.answer as {
    content?: { type?: string; text?: string }[];
    structuredContent?: unknown;
  };
  const text = (result.content ?? []).filter((b) => b.type === "text").map((b) => b.text).join(
    "\n",
  );
  return withCut({
    ...answer,
    toolResult: text,
    structuredContent: (result.structuredContent ?? {}) as RunAnswer["structuredContent"],
  }, bounded);
}

function withCut<T extends object>(action: T, bounded: Bounded): T & { cut?: CutInfo } {
  return bounded.cut === undefined ? action : { ...action, cut: bounded.cut };
}

// A value that is no text or result: its JSON text, and the value it stands for.
type JsonAnswer = Extract<Answer, { shape: "text" }> & { value: unknown };

// What an invoker's result is to the ceiling: a text; a mapped result's blocks (an array, or a
// text with its structured copy); an MCP result (`content` as a list of blocks); anything else,
// its JSON text (only when it is over the ceiling does it reach the model as that text).
function answerOf(result: unknown): Answer | JsonAnswer {
  if (typeof result === "string") return { shape: "text", text: result };
  if (Array.isArray(result)) return { shape: "mapped", result: result as never };
  if (isRecord(result) && typeof result.content === "string") {
    return { shape: "mapped", result: result as never };
  }
  if (isRecord(result) && Array.isArray(result.content)) return { shape: "mcp", result };
  let text: string;
  try {
    text = JSON.stringify(result) ?? String(result);
  } catch {
    text = String(result);
  }
  return { shape: "text", text, value: result };
}

// The inventory is the floor: it is listed whatever the budget, and the host is told.
function budgetWarning(listingTokens: number, budget: number, c: ProgressiveConfig): string {
  return `Over budget: the smallest catalogue listing (inventory) costs ${listingTokens} tokens, ` +
    `the listing budget is ${budget} (${c.inventoryThresholdPercent} % of ${c.availableContextTokens} ` +
    `available tokens); it is listed anyway. Raise availableContextTokens or ` +
    `inventoryThresholdPercent to stay within budget`;
}

// Each injector's inventory listing, made at its first search that finds nothing.
const INVENTORIES = new WeakMap<Injector, string>();

/**
 * Routes one call of the bridge tool whose arguments may already be parsed (`parseBridgeCall`
 * with the injector's limits): the gateway parses them once and routes with the parse. Not part
 * of the package's API (the root exports `Injector.route`).
 *
 * @param injector The injector.
 * @param args The bridge arguments.
 * @param parsed Them parsed, or `undefined` to parse them here.
 * @param options `validateArguments: false` leaves an execute's arguments unchecked; `learned`
 * lifts what this user ran (when the configuration learns).
 * @returns The action.
 *
 * @example Usage
 * ```ts
 * import { Injector, routeParsed } from "./injector.ts";
 * import { McpCatalog } from "./catalog.ts";
 * import { parseBridgeCall } from "./bridge/parse.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([{ server: "a", name: "b", description: "B", inputSchema: { type: "object" } }]));
 * const args = { action: "describe", name: "a/b" };
 * equal(routeParsed(injector, args, parseBridgeCall(args, injector.config)).action, "describe");
 * ```
 */
export function routeParsed(
  injector: Injector,
  args: unknown,
  parsed: ParsedCall | undefined,
  options: {
    validateArguments?: boolean;
    learned?: { lift(words: readonly string[]): ReadonlyMap<string, number> } | undefined;
  } = {},
): BridgeAction {
  const { catalog, config } = injector;
  const { learned, ...rest } = options;
  return route(catalog, args, {
    ...config,
    ...rest,
    ...(learned !== undefined && config.learn ? { learned } : {}),
    ...(parsed === undefined ? {} : { parsed }),
    inventory: () => {
      let text = INVENTORIES.get(injector);
      if (text === undefined) {
        text = listCatalog(catalog, "inventory", config).text;
        INVENTORIES.set(injector, text);
      }
      return text;
    },
  });
}
