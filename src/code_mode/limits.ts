/**
 * Code mode's settings, declared once: whether the bridge offers `run` (`codeMode`) and the bounds
 * of one run (`CodeLimits`), with their defaults and the ceilings nothing may raise them above.
 * The configuration, the HTTP options, the docs' table and both sandboxes read them from here.
 *
 * @module
 */

import { codeList } from "../utils/code_list.ts";
import type { Result } from "../result.ts";

/**
 * Whether the bridge offers `run`, and what a script may call:
 * - `off`: no `run` (the core's and the HTTP API's default);
 * - `read-only`: a script may call only tools whose definition says `readOnlyHint: true`; every
 *   other tool is executed through the bridge, where the host's approval sees it (the gateway's
 *   default);
 * - `all`: a script may call every tool of the catalogue.
 */
export type CodeMode = "off" | "read-only" | "all";

/** Every {@linkcode CodeMode}. */
export const CODE_MODES: readonly [CodeMode, ...CodeMode[]] = codeList<CodeMode>({
  off: 0,
  "read-only": 0,
  all: 0,
});

/** The bounds of one run of a script; a run that reaches one is stopped and says which. */
export interface CodeLimits {
  /**
   * Wall time of a run, in ms, calls included.
   * @default {60000}
   */
  timeoutMs: number;
  /**
   * CPU time of a run, in ms (Deno: measured in the sandbox process; Workers: the Worker Loader's
   * `limits.cpuMs`, which the deployed platform enforces).
   * @default {10000}
   */
  cpuMs: number;
  /**
   * The script's heap, in MiB (Deno: the sandbox process's V8 heap; Workers: the isolate's 128 MB
   * when deployed, and unfold's own count of bulk allocations everywhere).
   * @default {64}
   */
  memoryMb: number;
  /**
   * The longest script, in characters.
   * @default {20000}
   */
  maxCodeChars: number;
  /**
   * The most requests a run makes of the bridge: `call`, `search` and `describe` together.
   * @default {100}
   */
  maxCalls: number;
  /**
   * The most calls running at once; more wait for a free slot.
   * @default {8}
   */
  maxConcurrentCalls: number;
  /**
   * The most loop iterations, function calls and `catch`/`finally` entries of a run: the bound
   * that stops a busy script where CPU time cannot be read (a Worker isolate sees no clock).
   * @default {2000000}
   */
  maxSteps: number;
  /**
   * The most `console` lines a run keeps.
   * @default {200}
   */
  maxLogLines: number;
  /**
   * The most characters of `console` lines, all lines together.
   * @default {20000}
   */
  maxLogChars: number;
  /**
   * The most characters of JSON a script sends out at once: its result, or one call's arguments.
   * @default {100000}
   */
  maxOutputChars: number;
  /**
   * The most bytes of `results` a replayed run takes (hosts that run the tools themselves).
   * @default {4194304}
   */
  maxReplayBytes: number;
}

/** The default bounds of a run. */
export const DEFAULT_CODE_LIMITS: Readonly<CodeLimits> = Object.freeze({
  timeoutMs: 60_000,
  cpuMs: 10_000,
  memoryMb: 64,
  maxCodeChars: 20_000,
  maxCalls: 100,
  maxConcurrentCalls: 8,
  maxSteps: 2_000_000,
  maxLogLines: 200,
  maxLogChars: 20_000,
  maxOutputChars: 100_000,
  maxReplayBytes: 4 * 1024 * 1024,
});

/**
 * The range of each bound: what a configuration may set it to. The ceilings keep a run one
 * machine can afford however it is configured.
 */
export const CODE_LIMIT_RANGES: Readonly<Record<keyof CodeLimits, readonly [number, number]>> =
  Object.freeze({
    timeoutMs: [100, 600_000],
    cpuMs: [10, 300_000],
    memoryMb: [16, 1024],
    maxCodeChars: [1, 1_000_000],
    maxCalls: [1, 10_000],
    maxConcurrentCalls: [1, 64],
    maxSteps: [1_000, 1_000_000_000],
    maxLogLines: [0, 100_000],
    maxLogChars: [0, 10_000_000],
    maxOutputChars: [1_000, 16_000_000],
    maxReplayBytes: [1_024, 64 * 1024 * 1024],
  });

/** The name of every bound, in the order of {@linkcode DEFAULT_CODE_LIMITS}. */
export const CODE_LIMIT_NAMES: readonly (keyof CodeLimits)[] = Object.freeze(
  Object.keys(DEFAULT_CODE_LIMITS) as (keyof CodeLimits)[],
);

/** Why a code mode setting is refused: the field and the rule it breaks. */
export interface CodeSettingProblem {
  /** `codeMode`, or `codeLimits` (the rule names the bound). */
  field: "codeMode" | "codeLimits";
  /** The rule it breaks, in words. */
  message: string;
  /** The value that breaks it. */
  value: unknown;
}

/**
 * Checks code mode's two settings: the mode, and bounds given as a partial object over
 * {@linkcode DEFAULT_CODE_LIMITS}.
 *
 * @param mode The `codeMode`.
 * @param limits The `codeLimits` (fields left out keep their default).
 * @returns The checked settings, or the first problem.
 *
 * @example Usage
 * ```ts
 * import { checkCodeSettings } from "./limits.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(checkCodeSettings("read-only", { timeoutMs: 5000 }).ok, true);
 * const refused = checkCodeSettings("all", { timeoutMs: 1 });
 * equal(refused.ok ? "" : refused.error.message, '"timeoutMs" must be an integer from 100 to 600000');
 * ```
 */
export function checkCodeSettings(
  mode: unknown,
  limits: unknown,
): Result<{ mode: CodeMode; limits: Readonly<Partial<CodeLimits>> }, CodeSettingProblem> {
  if (!(CODE_MODES as readonly unknown[]).includes(mode)) {
    return {
      ok: false,
      error: {
        field: "codeMode",
        message: `must be one of "off", "read-only", "all"`,
        value: mode,
      },
    };
  }
  if (typeof limits !== "object" || limits === null || Array.isArray(limits)) {
    return {
      ok: false,
      error: { field: "codeLimits", message: "must be an object of bounds", value: limits },
    };
  }
  const checked: Partial<CodeLimits> = {};
  for (const [name, value] of Object.entries(limits)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(CODE_LIMIT_RANGES, name)) {
      return {
        ok: false,
        error: {
          field: "codeLimits",
          message: `has no bound ${JSON.stringify(name)}: the bounds are ${
            CODE_LIMIT_NAMES.join(", ")
          }`,
          value: name,
        },
      };
    }
    const [low, high] = CODE_LIMIT_RANGES[name as keyof CodeLimits];
    if (!Number.isSafeInteger(value) || (value as number) < low || (value as number) > high) {
      return {
        ok: false,
        error: {
          field: "codeLimits",
          message: `${JSON.stringify(name)} must be an integer from ${low} to ${high}`,
          value,
        },
      };
    }
    checked[name as keyof CodeLimits] = value as number;
  }
  return { ok: true, value: { mode: mode as CodeMode, limits: Object.freeze(checked) } };
}

/**
 * The complete bounds of a run: the configured ones over the defaults.
 *
 * @param limits The configured bounds (checked).
 * @returns Every bound.
 *
 * @example Usage
 * ```ts
 * import { codeLimits } from "./limits.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(codeLimits({ maxCalls: 5 }).maxCalls, 5);
 * equal(codeLimits({}).timeoutMs, 60_000);
 * ```
 */
export function codeLimits(limits: Readonly<Partial<CodeLimits>> = {}): Readonly<CodeLimits> {
  const merged = { ...DEFAULT_CODE_LIMITS };
  for (const name of CODE_LIMIT_NAMES) {
    const value = limits[name];
    if (value !== undefined) merged[name] = value;
  }
  return Object.freeze(merged);
}
