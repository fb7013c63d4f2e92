/**
 * The harness's settings: the bounds of a run it enforces inside the sandbox, as both sandboxes
 * hand them to it (apart from the harness itself, which the Worker sandbox loads from a static
 * asset, so its code stays out of the Worker's script).
 *
 * @module
 */

import type { CodeLimits } from "./limits.ts";

/** The harness's settings: the bounds it enforces inside the sandbox. */
export interface HarnessSettings {
  /** `maxSteps`. */
  maxSteps: number;
  /** `cpuMs`. */
  cpuMs: number;
  /** `memoryMb`. */
  memoryMb: number;
  /** `maxLogLines`. */
  maxLogLines: number;
  /** `maxLogChars`. */
  maxLogChars: number;
  /** `maxOutputChars`. */
  maxOutputChars: number;
  /** `maxCalls`: requests past it are not even sent. */
  maxCalls: number;
  /** How many lines the sandbox's wrapper adds above the script (stack lines are shifted back). */
  lineShift: number;
}

/**
 * The harness's settings for a run's bounds.
 *
 * @param limits The bounds.
 * @param lineShift The lines the sandbox's wrapper puts above the script.
 * @returns The settings.
 *
 * @example Usage
 * ```ts
 * import { harnessSettings } from "./harness_settings.ts";
 * import { DEFAULT_CODE_LIMITS } from "./limits.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(harnessSettings(DEFAULT_CODE_LIMITS, 1).maxSteps, 2_000_000);
 * ```
 */
export function harnessSettings(limits: Readonly<CodeLimits>, lineShift: number): HarnessSettings {
  const { maxSteps, cpuMs, memoryMb, maxLogLines, maxLogChars, maxOutputChars, maxCalls } = limits;
  return {
    maxSteps,
    cpuMs,
    memoryMb,
    maxLogLines,
    maxLogChars,
    maxOutputChars,
    maxCalls,
    lineShift,
  };
}
