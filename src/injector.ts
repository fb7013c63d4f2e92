/**
 * The injector: what a host puts in front of the model (one bridge tool and the richest catalogue
 * overview that fits the budget) and what it makes of the model's calls of that tool.
 *
 * @module
 */

import type { BridgeAction } from "./bridge/action.ts";
import { renderToolFailure } from "./bridge/render.ts";
import { route, scriptOf } from "./bridge/route.ts";
import { type BridgeTool, bridgeTool } from "./bridge/tool.ts";
import type { McpCatalog } from "./catalog.ts";
import { type DisclosureLevel, type ProgressiveConfig, resolveConfig } from "./config.ts";
import { disclose, type Inventory, listCatalog } from "./disclosure.ts";
import { instructions, renderPrompt } from "./prompt.ts";
import type { McpTool } from "./tool.ts";
import type { CallAction, RunAnswer } from "./code_mode/answer.ts";
import { runScript } from "./code_mode/run.ts";
import type { Sandbox } from "./code_mode/sandbox.ts";

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
 * What {@linkcode Injector.prototype.handle} returns: every result carries its `toolResult`. An
 * execute that ran carries the invoker's `result`, or `isError: true` and the failure as
 * `error: {code, message}`, the place where a model mistake (`action: "error"`) has its own.
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
  #inventory: string | undefined;

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
    const tool = bridgeTool(c);
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
   * layer checks them after its describe-first rule).
   * @returns The action.
   */
  route(args: unknown, options: { validateArguments?: boolean } = {}): BridgeAction {
    return route(this.catalog, args, {
      ...this.config,
      ...options,
      inventory: () => this.#inventory ??= listCatalog(this.catalog, "inventory", this.config).text,
    });
  }

  /**
   * Routes one call of the bridge tool and, for an execute, runs the resolved tool through the
   * invoker. Model mistakes and invoker failures come back as results with `isError`, never as
   * exceptions; `toolResult` is what to hand back to the model.
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
    const run = this.script(args);
    if (run !== undefined) {
      return await runScript(this, run.code, { ...options, invoker }) as RunAnswer;
    }
    const action = this.route(args);
    if (action.action !== "execute") return action;
    try {
      const result = await invoker.invoke(action.tool, action.arguments);
      return { ...action, isError: false, result, toolResult: result };
    } catch (e) {
      const code = typeof (e as { code?: unknown })?.code === "string"
        ? (e as { code: string }).code
        : "tool_failed";
      const message = e instanceof Error ? e.message : String(e);
      return {
        ...action,
        isError: true,
        error: { code, message },
        toolResult: renderToolFailure(action.id, code, message),
      };
    }
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

// The inventory is the floor: it is listed whatever the budget, and the host is told.
function budgetWarning(listingTokens: number, budget: number, c: ProgressiveConfig): string {
  return `Over budget: the smallest catalogue listing (inventory) costs ${listingTokens} tokens, ` +
    `the listing budget is ${budget} (${c.inventoryThresholdPercent} % of ${c.availableContextTokens} ` +
    `available tokens); it is listed anyway. Raise availableContextTokens or ` +
    `inventoryThresholdPercent to stay within budget`;
}
