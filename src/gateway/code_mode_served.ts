/**
 * The code mode the gateway serves: the config's where a sandbox runs scripts (`read-only` when
 * it says none), else `off`, so that the bridge offers `run` only where it can run
 * (`code_runs.ts` runs them).
 *
 * @module
 */

import type { CodeMode } from "../code_mode/limits.ts";
import { GATEWAY_CODE_MODE } from "./config/model.ts";

/**
 * The `unfold` block with the code mode the gateway serves: the config's (`read-only` when it
 * says none) where a sandbox runs scripts, else `off` (the bridge then offers no `run`).
 *
 * @param options The block (a profile's, narrowed).
 * @param sandbox Whether the gateway has a sandbox.
 * @returns The block with its `codeMode`.
 *
 * @example Usage
 * ```ts
 * import { servedCodeMode } from "./code_mode_served.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(servedCodeMode({}, true).codeMode, "read-only");
 * equal(servedCodeMode({ codeMode: "all" as const }, false).codeMode, "off");
 * ```
 */
export function servedCodeMode<T extends { codeMode?: CodeMode }>(
  options: T,
  sandbox: boolean,
): T & { codeMode: CodeMode } {
  return { ...options, codeMode: sandbox ? options.codeMode ?? GATEWAY_CODE_MODE : "off" };
}
