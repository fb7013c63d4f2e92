/**
 * Token estimation: a cheap, tokenizer-free estimate of what a text costs in a model's context.
 *
 * @module
 */

/** Estimates the tokens a text costs in a model's context. */
export type TokenEstimator = (text: string) => number;

/**
 * The default token estimate: one token per four Unicode code points, rounded up. Close to real
 * tokenizers on English prose and JSON, and it never needs a vocabulary.
 *
 * @param text The text to estimate.
 * @returns `ceil(code points / 4)`.
 *
 * @example Usage
 * ```ts
 * import { estimateTokens } from "./tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(estimateTokens(""), 0);
 * equal(estimateTokens("abcde"), 2);
 * equal(estimateTokens("🙂🙂🙂🙂"), 1); // code points, not UTF-16 units
 * ```
 */
export function estimateTokens(text: string): number {
  let codePoints = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is one code point in two units.
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        codePoints--;
        i++;
      }
    }
  }
  return Math.ceil(codePoints / 4);
}
