/**
 * The ceiling of what one bridge answer may carry, and the facts of a cut: a configuration's
 * ceiling (`maxResultTokens`, `maxResultBytes`, its estimate), the ref that names a kept part
 * (`<id>.<part>`), and what every face reports of a cut answer ({@linkcode CutInfo}).
 *
 * @module
 */

import type { ProgressiveConfig } from "../config.ts";
import type { TokenEstimator } from "../tokens.ts";

/** The ceilings of one answer, and the estimate that measures them. */
export interface Ceiling {
  /** The most tokens of its text, and of its structured copy; `0`: no ceiling. */
  maxResultTokens: number;
  /** The most decoded bytes of its binary blocks; `0`: no ceiling. */
  maxResultBytes: number;
  /** The token estimate. */
  estimateTokens: TokenEstimator;
}

/**
 * The ceiling of a configuration.
 *
 * @param config The injector's configuration.
 * @returns Its token and byte ceilings and its estimate.
 *
 * @example Usage
 * ```ts
 * import { resultCeiling } from "./ceiling.ts";
 * import { resolveConfig } from "../config.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(resultCeiling(resolveConfig({ availableContextTokens: 32_000 })).maxResultTokens, 3_200);
 * ```
 */
export function resultCeiling(
  config: Pick<ProgressiveConfig, "maxResultTokens" | "maxResultBytes" | "estimateTokens">,
): Ceiling {
  return {
    maxResultTokens: config.maxResultTokens,
    maxResultBytes: config.maxResultBytes,
    estimateTokens: config.estimateTokens,
  };
}

/** How far one channel of a cut answer (its text, or its structured copy) has been shown. */
export interface ChannelProgress {
  /** The tokens shown so far, this part included. */
  shownTokens: number;
  /** The tokens of the whole channel. */
  totalTokens: number;
  /** The share shown, in per cent (one decimal, rounded down). */
  percent: number;
  /** Whether this channel has been shown in full. */
  done: boolean;
}

/** What every face reports of a cut answer, beside the markers the model reads. */
export interface CutInfo {
  /** This part's number: 1 for the answer itself. */
  part: number;
  /** The exact call for the next part, when the rest is kept. */
  next?: { action: "more"; ref: string };
  /**
   * Why the rest is not kept, when it is not: `no_session` (stateless), `too_large` (over what
   * one session keeps).
   */
  notKept?: "no_session" | "too_large";
  /** The text's progress, when the text was cut. */
  text?: ChannelProgress;
  /** The structured copy's progress, when it was cut. */
  structured?: ChannelProgress;
}

/** What a ref is: a kept answer's id (12 of `a-z 0-9`), a dot, and a part number from 2. */
export const RESULT_REF: RegExp = /^([a-z0-9]{12})\.([1-9][0-9]{0,8})$/;

/**
 * Reads a ref.
 *
 * @param ref The ref the model sent.
 * @returns The kept answer's id and the part, or `undefined` for text that is no ref.
 *
 * @example Usage
 * ```ts
 * import { parseRef } from "./ceiling.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(parseRef("k3x9q2m7w1ab.2"), { id: "k3x9q2m7w1ab", part: 2 });
 * ```
 */
export function parseRef(ref: string): { id: string; part: number } | undefined {
  const match = RESULT_REF.exec(ref);
  if (match === null) return undefined;
  const part = Number(match[2]);
  return part >= 2 ? { id: match[1]!, part } : undefined;
}

/**
 * Writes a ref.
 *
 * @param id The kept answer's id.
 * @param part The part it names.
 * @returns The ref.
 *
 * @example Usage
 * ```ts
 * import { formatRef } from "./ceiling.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(formatRef("k3x9q2m7w1ab", 3), "k3x9q2m7w1ab.3");
 * ```
 */
export function formatRef(id: string, part: number): string {
  return `${id}.${part}`;
}
