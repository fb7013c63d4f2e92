/**
 * The texts of code mode the model reads: a run's answer, the bounds it can reach and what a
 * script was refused, each with its next step.
 *
 * @module
 */

import { escapeInvisible, quoteId } from "../untrusted.ts";
import type { RunContent } from "./answer.ts";
import type { CodeLimits } from "./limits.ts";

/** What a script had done when its run stopped. */
export interface RunProgress {
  /** Real calls made. */
  calls: number;
  /** Of which failed. */
  failed: number;
  /** Searches made. */
  searches: number;
  /** Describes made. */
  describes: number;
  /** `console` lines kept. */
  lines: number;
}

const BOUNDS: Readonly<Record<keyof CodeLimits, (value: number) => string>> = Object.freeze({
  timeoutMs: (v) => `its time (timeoutMs: ${v} ms)`,
  cpuMs: (v) => `its CPU time (cpuMs: ${v} ms)`,
  memoryMb: (v) => `its memory (memoryMb: ${v} MiB)`,
  maxCodeChars: (v) => `the longest script (maxCodeChars: ${v} characters)`,
  maxCalls: (v) => `its requests (maxCalls: ${v} calls, searches and describes)`,
  maxConcurrentCalls: (v) => `its concurrent calls (maxConcurrentCalls: ${v})`,
  maxSteps: (v) => `its steps (maxSteps: ${v} loop iterations and function calls)`,
  maxLogLines: (v) => `its console lines (maxLogLines: ${v})`,
  maxLogChars: (v) => `its console output (maxLogChars: ${v} characters)`,
  maxOutputChars: (v) => `its output (maxOutputChars: ${v} characters of JSON)`,
  maxReplayBytes: (v) => `the results it may replay (maxReplayBytes: ${v} bytes)`,
});

/**
 * The message of a run stopped at a bound: which bound, and what the script had done by then.
 *
 * @param limit The bound.
 * @param limits The run's bounds.
 * @param progress What the script had done.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { limitMessage } from "./render.ts";
 * import { DEFAULT_CODE_LIMITS } from "./limits.ts";
 * import { match } from "node:assert/strict";
 *
 * const text = limitMessage("maxCalls", DEFAULT_CODE_LIMITS, { calls: 100, failed: 2, searches: 0, describes: 0, lines: 1 });
 * match(text, /^The run was stopped: it reached its requests \(maxCalls: 100/);
 * match(text, /100 calls \(2 failed\)/);
 * ```
 */
export function limitMessage(
  limit: string,
  limits: Readonly<CodeLimits>,
  progress: RunProgress,
): string {
  const bound = Object.hasOwn(BOUNDS, limit)
    ? BOUNDS[limit as keyof CodeLimits](limits[limit as keyof CodeLimits])
    : `a bound (${limit})`;
  const { calls, failed, searches, describes, lines } = progress;
  return `The run was stopped: it reached ${bound}. By then the script had made ${
    count(calls, "call")
  }${failed > 0 ? ` (${failed} failed)` : ""}, ${count(searches, "search")} and ${
    count(describes, "describe")
  }, and logged ${count(lines, "line")} (all listed here). Do less in one run: split the work, ` +
    "or filter with search and execute first";
}

/**
 * The error thrown in a script that calls a tool a read-only script may not call.
 *
 * @param id The tool's id.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { readOnlyRefusal } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(readOnlyRefusal("fs/write_file"), /execute it through the bridge/);
 * ```
 */
export function readOnlyRefusal(id: string): string {
  return `${quoteId(id)} is not a read-only tool (its definition does not say readOnlyHint: ` +
    `true), and scripts here may call only read-only tools: execute it through the bridge ` +
    `instead, where the host approves each change: {"action":"execute","name":${
      escapeInvisible(JSON.stringify(id))
    },"arguments":{...}}`;
}

/**
 * Why a `read-only` script may not call a tool whose annotations the user has not approved (trust
 * on): its `readOnlyHint` is the server's word alone, so the call goes through the bridge.
 *
 * @param id The tool's id.
 * @param approve The command that approves it, as the user runs it (set in backticks).
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { unapprovedRefusal } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(unapprovedRefusal("a/b"), /not approved/);
 * ```
 */
export function unapprovedRefusal(id: string, approve?: string): string {
  return `${quoteId(id)} has annotations the user has not approved, so its readOnlyHint cannot ` +
    `be trusted, and scripts here may call only read-only tools: execute it through the bridge ` +
    `instead, where the host approves each change: {"action":"execute","name":${
      escapeInvisible(JSON.stringify(id))
    },"arguments":{...}}${
      approve === undefined
        ? ""
        : `; once the user approves its definition (${approve}), scripts may call it`
    }`;
}

/**
 * The message of a run code mode cannot give.
 *
 * @param why `off`: code mode is off; `no_sandbox`: the host gave no sandbox.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { unavailableMessage } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(unavailableMessage("off"), /use search, describe and execute/);
 * ```
 */
export function unavailableMessage(why: "off" | "no_sandbox"): string {
  return `${
    why === "off" ? "Code mode is off here" : "Code mode has no sandbox here"
  }: scripts cannot run; use search, describe and execute`;
}

/**
 * The message of a run whose sandbox broke.
 *
 * @param detail What the sandbox said.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { sandboxFailure } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(sandboxFailure("it exited"), /^The sandbox could not run the script: it exited/);
 * ```
 */
export function sandboxFailure(detail: string): string {
  return `The sandbox could not run the script: ${detail}. Try again, or use execute`;
}

/**
 * The text of a run's answer: its content as compact JSON, invisible characters escaped.
 *
 * @param content The answer's content.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { runText } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(runText({ result: 3, logs: [], calls: [] }), '{"result":3,"logs":[],"calls":[]}');
 * ```
 */
export function runText(content: RunContent): string {
  return escapeInvisible(JSON.stringify(content));
}

function count(n: number, what: string): string {
  const plural = what.endsWith("h") ? `${what}es` : `${what}s`;
  return `${n} ${n === 1 ? what : plural}`;
}
