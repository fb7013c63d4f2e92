/**
 * One run of a script, on the host's side: the sandbox runs the code, this answers its requests.
 * Every `call` takes the path of an execute: the catalogue resolves the id (nothing outside it
 * exists), the mode decides (a `read-only` script calls only tools whose definition says
 * `readOnlyHint: true`), the tool's input schema checks the arguments, and the invoker runs it,
 * as the host's execute would (trust, timeouts, cancellation and audit are the invoker's, as
 * they are for an execute). The host enforces every bound here too, whatever the harness inside
 * the sandbox was made to do: requests, log lines, log characters, concurrent calls.
 *
 * Two ways to run the real calls:
 * - live (`invoker`): the host runs each call as the script makes it (the gateway);
 * - replayed (`results`): a host that runs the tools itself (the HTTP API's caller) gets the next
 *   call the script needs as a `CallAction`, runs it, and sends the same run again with the MCP
 *   results of the calls so far; the script is run again from the start, its calls answered from
 *   `results`, until it ends. A run is a function of its code and its replies (no clock, no
 *   randomness, replies in request order), so each replay makes the same calls.
 *
 * Doors: `Injector.run` and `Injector.handle` (the core), `/v1/route` (the HTTP API, Deno and the
 * API Worker) and, through `Injector.run`, the gateway.
 *
 * @module
 */

import type { BridgeAction } from "../bridge/action.ts";
import { checkArguments } from "../bridge/route.ts";
import type { McpCatalog } from "../catalog.ts";
import type { ProgressiveConfig } from "../config.ts";
import { type McpTool, toolId } from "../tool.ts";
import type { CallAction, RunAnswer, RunContent, RunError, ScriptCall } from "./answer.ts";
import { type CodeLimits, codeLimits } from "./limits.ts";
import { type HostReply, readScriptEnd, readScriptMessage, replyText } from "./protocol.ts";
import {
  limitMessage,
  readOnlyRefusal,
  runText,
  sandboxFailure,
  unavailableMessage,
} from "./render.ts";
import type { Sandbox, SandboxEnd } from "./sandbox.ts";
import { fromCallResult, fromInvoker, fromThrown, type ScriptValue } from "./values.ts";

/** Runs a script's real calls: an `McpInvoker`, told when the run no longer needs the call. */
export interface ScriptInvoker {
  /**
   * Calls the tool.
   *
   * @param tool The resolved tool.
   * @param args Its arguments (checked against its input schema).
   * @param signal Aborted when the run ends before the call does.
   * @returns Its result: an MCP `CallToolResult`, a mapped result, or a plain value.
   */
  invoke(
    tool: McpTool,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<unknown> | unknown;
}

/** What a run needs besides its code. */
export interface RunOptions {
  /** Runs the script. Without one, the run answers `unavailable`. */
  sandbox?: Sandbox;
  /** Runs each real call as the script makes it (a live run). */
  invoker?: ScriptInvoker;
  /**
   * The MCP results of the calls so far, in call order (a replayed run): the run answers the
   * next call it needs with a {@linkcode CallAction}.
   */
  results?: readonly unknown[];
  /** Stops the run (the host's cancellation). */
  signal?: AbortSignal;
}

/** What a run reads of the injector it runs for (an `Injector` is one). */
export interface ScriptBridge {
  /** The catalogue: the only tools a script can call. */
  readonly catalog: McpCatalog;
  /** The configuration: `codeMode`, `codeLimits`, the search limits. */
  readonly config: ProgressiveConfig;
  /** Routes a bridge call: a script's search and describe take the bridge's own path. */
  route(args: unknown, options?: { validateArguments?: boolean }): BridgeAction;
}

/**
 * Runs a script.
 *
 * @param bridge The injector over the catalogue.
 * @param code The model's code: the body of an async function.
 * @param options The sandbox, and the invoker (live) or the results so far (replayed).
 * @returns The run's answer; or, in a replayed run, the next call it needs.
 */
export async function runScript(
  bridge: ScriptBridge,
  code: string,
  options: RunOptions,
): Promise<RunAnswer | CallAction> {
  const limits = codeLimits(bridge.config.codeLimits);
  const run = new Run(bridge, code, limits, options);
  if (bridge.config.codeMode === "off" || options.sandbox === undefined) {
    return run.answer(undefined, {
      code: "unavailable",
      message: unavailableMessage(bridge.config.codeMode === "off" ? "off" : "no_sandbox"),
    });
  }
  const results = options.results;
  if (results !== undefined) {
    const problem = resultsProblem(results, limits);
    if (problem !== undefined) {
      return run.answer(undefined, { code: "invalid_results", message: problem });
    }
  }
  const stopper = new AbortController();
  const outer = options.signal;
  const cancel = () => run.stop({ kind: "cancelled" });
  outer?.addEventListener("abort", cancel);
  run.onStop = () => stopper.abort();
  if (outer?.aborted) cancel();
  let end: SandboxEnd;
  try {
    end = await options.sandbox.run(
      { code, limits },
      { message: (t) => run.message(t) },
      stopper.signal,
    );
  } catch (error) {
    end = { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  } finally {
    outer?.removeEventListener("abort", cancel);
    run.finish();
    stopper.abort();
  }
  return run.conclude(end);
}

type Stop =
  | { kind: "limit"; limit: keyof CodeLimits }
  | { kind: "call"; call: CallAction }
  | { kind: "failed"; message: string }
  | { kind: "cancelled" };

const LEVEL_PREFIX: Readonly<Record<string, string>> = {
  log: "",
  info: "",
  debug: "",
  warn: "[warn] ",
  error: "[error] ",
};

class Run {
  readonly calls: (ScriptCall | undefined)[] = [];
  readonly logs: string[] = [];
  onStop: () => void = () => {};
  #bridge: ScriptBridge;
  #code: string;
  #limits: Readonly<CodeLimits>;
  #options: RunOptions;
  #stop: Stop | undefined;
  #requests = 0;
  #searches = 0;
  #describes = 0;
  #logChars = 0;
  #running = 0;
  #queue: (() => void)[] = [];
  #ended = false;
  #signal = new AbortController();

  constructor(
    bridge: ScriptBridge,
    code: string,
    limits: Readonly<CodeLimits>,
    options: RunOptions,
  ) {
    this.#bridge = bridge;
    this.#code = code;
    this.#limits = limits;
    this.#options = options;
  }

  stop(stop: Stop): void {
    if (this.#stop !== undefined || this.#ended) return;
    this.#stop = stop;
    this.onStop();
  }

  finish(): void {
    this.#ended = true;
    this.#signal.abort();
    for (const wake of this.#queue.splice(0)) wake();
  }

  async message(text: string): Promise<string | undefined> {
    const message = readScriptMessage(text);
    if (message === undefined) {
      this.stop({ kind: "failed", message: "it sent a message that is not one of its harness's" });
      return undefined;
    }
    if (message.op === "log") {
      this.#log(message.level, message.text);
      return undefined;
    }
    const seq = message.seq;
    const refuse = (error: string, code: string) => replyText({ seq, ok: false, error, code });
    if (this.#stop !== undefined || this.#ended) return refuse("The run was stopped", "stopped");
    if (++this.#requests > this.#limits.maxCalls) {
      this.stop({ kind: "limit", limit: "maxCalls" });
      return refuse("The run was stopped: it reached maxCalls", "limit");
    }
    switch (message.op) {
      case "search":
        this.#searches++;
        return this.#search(seq, message.query, message.limit);
      case "describe":
        this.#describes++;
        return this.#describe(seq, message.id);
      case "call":
        return await this.#call(seq, message.tool, message.args);
    }
  }

  #log(level: string, text: string): void {
    if (this.#stop !== undefined) return;
    this.#logChars += text.length;
    if (this.logs.length >= this.#limits.maxLogLines) {
      this.stop({ kind: "limit", limit: "maxLogLines" });
    } else if (this.#logChars > this.#limits.maxLogChars) {
      this.stop({ kind: "limit", limit: "maxLogChars" });
    } else this.logs.push(`${LEVEL_PREFIX[level] ?? ""}${text}`);
  }

  #search(seq: number, query: string, limit: number | undefined): string {
    const action = this.#bridge.route({
      action: "search",
      query,
      ...(limit === undefined ? {} : { limit }),
    });
    if (action.action !== "search") {
      return replyText({
        seq,
        ok: false,
        error: action.action === "error" ? action.message : "",
        code: "invalid_arguments",
      });
    }
    const value = action.matches.map((m) => ({ id: m.id, description: m.description }));
    return replyText({ seq, ok: true, value });
  }

  #describe(seq: number, id: string): string {
    const action = this.#bridge.route({ action: "describe", name: id });
    if (action.action !== "describe") {
      const error = action.action === "error"
        ? action.message
        : `Cannot describe ${JSON.stringify(id)}`;
      return replyText({
        seq,
        ok: false,
        error,
        code: action.action === "error" ? action.code : "unknown_tool",
      });
    }
    const { tool } = action;
    const value: Record<string, unknown> = {
      id: action.id,
      description: tool.description.slice(0, this.#bridge.config.maxDescriptionChars),
      inputSchema: tool.inputSchema,
    };
    const output = (tool as { outputSchema?: unknown }).outputSchema;
    if (output !== undefined) value.outputSchema = output;
    return replyText({ seq, ok: true, value });
  }

  async #call(seq: number, id: string, args: Record<string, unknown>): Promise<string> {
    const reply = (value: ScriptValue) =>
      value.ok
        ? safeReply({ seq, ok: true, value: value.value }, id)
        : replyText({ seq, ok: false, error: value.error, code: value.code });
    // The execute's path: the catalogue, the mode, the schema.
    const routed = this.#bridge.route(
      { action: "execute", name: id, arguments: args },
      { validateArguments: false },
    );
    if (routed.action === "error") {
      return reply({ ok: false, error: routed.message, code: routed.code });
    }
    if (routed.action !== "execute") return reply({ ok: false, error: "", code: "unknown_tool" });
    const { tool } = routed;
    const resolved = toolId(tool);
    if (
      this.#bridge.config.codeMode === "read-only" &&
      (tool.annotations as { readOnlyHint?: unknown } | undefined)?.readOnlyHint !== true
    ) {
      return reply({ ok: false, error: readOnlyRefusal(resolved), code: "read_only" });
    }
    const checked = checkArguments(routed);
    if (checked.action === "error") {
      return reply({ ok: false, error: checked.message, code: checked.code });
    }
    const index = this.calls.length;
    this.calls.push(undefined);
    const results = this.#options.results;
    if (results !== undefined) {
      if (index >= results.length) {
        this.stop({
          kind: "call",
          call: { action: "call", id: resolved, tool, arguments: routed.arguments, index },
        });
        return replyText({
          seq,
          ok: false,
          error: "The run stops here for the host",
          code: "stopped",
        });
      }
      return this.#record(index, resolved, fromCallResult(results[index], resolved), reply);
    }
    const invoker = this.#options.invoker;
    if (invoker === undefined) {
      return this.#record(index, resolved, {
        ok: false,
        error: "No invoker runs calls here",
        code: "unavailable",
      }, reply);
    }
    await this.#slot();
    if (this.#ended || this.#stop !== undefined) {
      this.#running--;
      return this.#record(index, resolved, {
        ok: false,
        error: "The run was stopped",
        code: "stopped",
      }, reply);
    }
    let value: ScriptValue;
    try {
      value = fromInvoker(
        await invoker.invoke(tool, routed.arguments, this.#signal.signal),
        resolved,
      );
    } catch (error) {
      value = fromThrown(error);
    } finally {
      this.#release();
    }
    return this.#record(index, resolved, value, reply);
  }

  #record(
    index: number,
    id: string,
    value: ScriptValue,
    reply: (v: ScriptValue) => string,
  ): string {
    if (!this.#ended) {
      this.calls[index] = value.ok ? { id, ok: true } : { id, ok: false, error: cut(value.error) };
    }
    return reply(value);
  }

  async #slot(): Promise<void> {
    while (this.#running >= this.#limits.maxConcurrentCalls && !this.#ended) {
      await new Promise<void>((wake) => this.#queue.push(wake));
    }
    this.#running++;
  }

  #release(): void {
    this.#running--;
    this.#queue.shift()?.();
  }

  conclude(end: SandboxEnd): RunAnswer | CallAction {
    const stop = this.#stop;
    if (stop?.kind === "call") return stop.call;
    if (stop?.kind === "limit") return this.#limited(stop.limit);
    if (stop?.kind === "failed") {
      return this.answer(undefined, {
        code: "sandbox_failed",
        message: sandboxFailure(stop.message),
      });
    }
    if (stop?.kind === "cancelled") {
      return this.answer(undefined, {
        code: "sandbox_failed",
        message: sandboxFailure("the host cancelled the run"),
      });
    }
    switch (end.kind) {
      case "rejected":
        return this.answer(undefined, {
          code: end.problem.code,
          message: end.problem.message,
          ...(end.problem.line === undefined ? {} : { line: end.problem.line }),
          ...(end.problem.column === undefined ? {} : { column: end.problem.column }),
        });
      case "limit":
        return this.#limited(end.limit);
      case "aborted":
        return this.answer(undefined, {
          code: "sandbox_failed",
          message: sandboxFailure("the run was stopped"),
        });
      case "failed":
        return this.answer(undefined, {
          code: "sandbox_failed",
          message: sandboxFailure(end.message),
        });
    }
    const done = readScriptEnd(end.text);
    if (done === undefined) {
      return this.answer(undefined, {
        code: "sandbox_failed",
        message: sandboxFailure("its last message was not one of its harness's"),
      });
    }
    const results = this.#options.results;
    if (results !== undefined && this.calls.length < results.length) {
      return this.answer(undefined, {
        code: "invalid_results",
        message:
          `The host sent ${results.length} results, but the script made ${this.calls.length} calls: ` +
          "send the results of the calls the run asked for, in order",
      });
    }
    if (done.ok) return this.answer(done.result, undefined);
    const failure = done.error;
    switch (failure.kind) {
      case "limit":
        return this.#limited((failure.limit ?? "maxSteps") as keyof CodeLimits);
      case "exception":
        return this.answer(undefined, {
          code: "script_error",
          message: failure.line === undefined
            ? failure.message
            : `${failure.message} (line ${failure.line})`,
          ...(failure.line === undefined ? {} : { line: failure.line }),
        });
      case "not_json":
        return this.answer(undefined, { code: "not_json", message: failure.message });
      case "never_settles":
        return this.answer(undefined, { code: "never_settles", message: failure.message });
      case "syntax_error":
        return this.answer(undefined, {
          code: "syntax_error",
          message: `Syntax error: ${failure.message}`,
        });
    }
  }

  #limited(limit: keyof CodeLimits): RunAnswer {
    const calls = this.#callList();
    const message = limitMessage(limit, this.#limits, {
      calls: calls.length,
      failed: calls.filter((c) => !c.ok).length,
      searches: this.#searches,
      describes: this.#describes,
      lines: this.logs.length,
    });
    return this.answer(undefined, { code: "limit", message, limit });
  }

  #callList(): ScriptCall[] {
    return this.calls.map((call, i) =>
      call ?? {
        id: "",
        ok: false as const,
        error: `call ${i + 1} was still running when the run ended (it may have had its effect)`,
      }
    );
  }

  answer(result: unknown, error: RunError | undefined): RunAnswer {
    const content: RunContent = {
      result: error === undefined ? (result ?? null) : null,
      logs: [...this.logs],
      calls: this.#callList(),
      ...(error === undefined ? {} : { error }),
    };
    return {
      action: "run",
      code: this.#code,
      isError: error !== undefined,
      ...content,
      toolResult: runText(content),
      structuredContent: content,
    };
  }
}

// A tool's value the script cannot be sent (a cycle, a BigInt from an in-process invoker) fails
// that call, not the run.
function safeReply(reply: HostReply, id: string): string {
  try {
    return replyText(reply);
  } catch {
    return replyText({
      seq: reply.seq,
      ok: false,
      error: `The result of ${JSON.stringify(id)} cannot be written as JSON`,
      code: "tool_error",
    });
  }
}

function cut(text: string): string {
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}

// A replay's results: a list of at most maxCalls MCP results of at most maxReplayBytes in all.
function resultsProblem(
  results: readonly unknown[],
  limits: Readonly<CodeLimits>,
): string | undefined {
  if (!Array.isArray(results)) return "results must be a list of MCP results";
  if (results.length > limits.maxCalls) {
    return `results holds ${results.length} results, over maxCalls (${limits.maxCalls})`;
  }
  let bytes = 0;
  for (const result of results) {
    let text: string | undefined;
    try {
      text = JSON.stringify(result);
    } catch {
      return "results must be JSON";
    }
    bytes += (text ?? "").length;
    if (bytes > limits.maxReplayBytes) {
      return `results is over maxReplayBytes (${limits.maxReplayBytes} bytes)`;
    }
  }
  return undefined;
}
