/**
 * Where a long text is cut: the end of the next part that fits a token budget, at the cleanest
 * boundary in the second half of what fits — a line, then (in JSON) an array element or object
 * member, then a space, then any code point — never inside a surrogate pair or a JSON escape
 * (`\n`, `\u00e9`, an escaped surrogate pair `\ud83d\ude00`). Parts are slices of the text, so
 * parts joined are the text, byte for byte. Linear: a call reads its part once (and, with an
 * estimator other than the default, a logarithmic number of its prefixes), and `work` counts it.
 *
 * @module
 */

import { estimateTokens as defaultEstimate, type TokenEstimator } from "../tokens.ts";

/** A running count of the code units the cutter read, for tests that bound its work. */
export interface CutWork {
  /** Code units read: scanned, or passed to the estimator. */
  units: number;
}

/** How to cut one part. */
export interface CutOptions {
  /** The most tokens the part may take: at least 1. */
  budget: number;
  /** The token estimate. */
  estimateTokens: TokenEstimator;
  /** Whether the text is JSON (its elements and members are boundaries; its escapes are not). */
  json: boolean;
  /** Whether the window starts inside a JSON string (what the previous cut said). */
  inString?: boolean;
  /** Whether the window reaches the end of the text. */
  complete: boolean;
  /**
   * Whether the part is measured as the content of a JSON string (`"` and `\` take two code
   * points, a control character two or six): for a part handed on inside a string, as the
   * structured copy's piece of its JSON is.
   */
  escaped?: boolean;
  /** Counts the work. */
  work?: CutWork;
}

/** Where a part ends. */
export interface Cut {
  /** The end of the part in the window (exclusive); the window's length when all of it fits. */
  end: number;
  /** The part's tokens. */
  tokens: number;
  /** Whether `end` is inside a JSON string (for the next cut). */
  inString: boolean;
  /** Whether the part is all the window (and the window the rest of the text). */
  whole: boolean;
}

/**
 * The code units a window needs so that, with the default estimator, the cut of a part of
 * `budget` tokens is decided within it: four code points a token, two units a code point, and
 * the next code point to see where the last one ends.
 *
 * @param budget The part's budget, in tokens.
 * @returns The window's length, in code units.
 *
 * @example Usage
 * ```ts
 * import { windowUnits } from "./cut.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(windowUnits(100), 816);
 * ```
 */
export function windowUnits(budget: number): number {
  return budget * 8 + 16;
}

// A boundary found while scanning: where, after how many code points, and the lexer state there.
interface Boundary {
  at: number;
  points: number;
  inString: boolean;
}

/**
 * Cuts the next part of a window of text.
 *
 * @param window The text from where the part starts (all of the rest, or a window of it).
 * @param options The budget, the estimator, whether the text is JSON, the lexer state.
 * @returns Where the part ends, its tokens and the lexer state there; or `undefined` when the
 * window is not complete and too short to decide (give a longer one).
 *
 * @example Usage
 * ```ts
 * import { cutText } from "./cut.ts";
 * import { estimateTokens } from "../tokens.ts";
 * import { equal } from "node:assert/strict";
 *
 * const text = "first line\nsecond line\nthird line\n";
 * const cut = cutText(text, { budget: 6, estimateTokens, json: false, complete: true });
 * equal(text.slice(0, cut?.end), "first line\nsecond line\n");
 * ```
 */
export function cutText(window: string, options: CutOptions): Cut | undefined {
  const estimate = options.estimateTokens;
  const budget = Math.max(1, Math.floor(options.budget));
  if (estimate === defaultEstimate) {
    // One token per four code points: the scan itself counts what fits.
    return scan(window, options, { maxPoints: budget * 4, stopAt: Infinity, halfAt: 0 }, budget);
  }
  const work = options.work;
  const cost = (end: number) => {
    if (work !== undefined) work.units += end;
    const slice = window.slice(0, end);
    return estimate(options.escaped === true ? JSON.stringify(slice) : slice);
  };
  if (cost(window.length) <= budget) {
    if (!options.complete) return undefined;
    return scan(window, options, { maxPoints: Infinity, stopAt: Infinity, halfAt: 0 }, budget);
  }
  const stopAt = snap(window, largest(window.length, (end) => cost(end) <= budget));
  const halfAt = snap(window, largest(stopAt, (end) => cost(end) < budget / 2));
  return scan(window, options, { maxPoints: Infinity, stopAt, halfAt }, budget);
}

// The largest end in [0, limit] that passes a test true of 0 and monotone (true, then false).
function largest(limit: number, passes: (end: number) => boolean): number {
  let lo = 0;
  let step = 64;
  while (lo + step < limit && passes(lo + step)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(limit, lo + step);
  if (passes(hi)) return hi;
  while (hi - lo > 1) {
    const mid = lo + Math.floor((hi - lo) / 2);
    if (passes(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

// A unit position moved back off the middle of a surrogate pair.
function snap(text: string, at: number): number {
  return at > 0 && at < text.length && isLow(text.charCodeAt(at)) &&
      isHigh(text.charCodeAt(at - 1))
    ? at - 1
    : at;
}

interface Limits {
  // The most code points (the default estimator), or the unit position to stop at (another one).
  maxPoints: number;
  stopAt: number;
  // The unit position from which boundaries count as "in the second half".
  halfAt: number;
}

function scan(
  window: string,
  options: CutOptions,
  limits: Limits,
  budget: number,
): Cut | undefined {
  const { json, estimateTokens: estimate } = options;
  const n = window.length;
  const halfPoints = limits.maxPoints === Infinity ? 0 : Math.ceil(limits.maxPoints / 2);
  let inString = options.inString === true;
  // 0: not in an escape; -1: just after the backslash; 1..4: hex digits still to read.
  let escape = 0;
  let hex = 0;
  // An escaped high surrogate just ended: the boundary after it is inside a pair.
  let highEscape = false;
  let depth = 0;
  let points = 0;
  let i = 0;
  // The latest boundary of each kind (-1: none yet), as plain numbers: an object a boundary
  // would cost an allocation a character.
  let lineAt = -1, linePoints = 0, lineIn = false;
  let spaceAt = -1, spacePoints = 0, spaceIn = false;
  let commaAt = -1, commaPoints = 0, commaDepth = 0;
  let safeAt = 0, safePoints = 0, safeIn = inString;
  const escaped = options.escaped === true;
  // Past the budget with no clean boundary yet (a budget smaller than one escape): the part ends
  // at the first one, so that every cut makes progress.
  let over = false;
  let stopped = false;
  while (i < n) {
    const unit = window.charCodeAt(i);
    const width = isHigh(unit) && i + 1 < n && isLow(window.charCodeAt(i + 1)) ? 2 : 1;
    if (width === 1 && isHigh(unit) && i + 1 === n && !options.complete) {
      // The window ends between the halves of a pair: the next window decides.
      break;
    }
    const weight = escaped ? escapedWidth(unit, width) : 1;
    if (!over && (points + weight > limits.maxPoints || i >= limits.stopAt)) {
      if (safeAt > 0) {
        stopped = true;
        break;
      }
      over = true;
    }
    i += width;
    points += weight;
    // Escapes are tracked in JSON strings and anywhere in plain text (a describe's schema, a
    // log line that quotes JSON): a cut never splits `\u00e9` or `\n`.
    let isSafe = true;
    if (json && !inString) {
      highEscape = false;
      if (unit === 0x22) inString = true;
      else if (unit === 0x7b || unit === 0x5b) depth++;
      else if (unit === 0x7d || unit === 0x5d) depth--;
    } else {
      if (escape === -1) {
        if (unit === 0x75 /* u */) {
          escape = 4;
          hex = 0;
        } else escape = 0;
      } else if (escape > 0) {
        const value = hexValue(unit);
        if (value < 0) escape = 0; // not an escape after all
        else {
          hex = hex * 16 + value;
          escape--;
          if (escape === 0) highEscape = !highEscape && hex >= 0xd800 && hex <= 0xdbff;
        }
      } else if (unit === 0x5c /* \ */) {
        escape = -1;
      } else {
        highEscape = false;
        if (json && unit === 0x22 /* " */) inString = false;
      }
      isSafe = escape === 0 && !highEscape;
    }
    if (!isSafe) continue;
    safeAt = i;
    safePoints = points;
    safeIn = inString;
    if (over) {
      stopped = true;
      break;
    }
    if (points < halfPoints || i < limits.halfAt) continue;
    if (unit === 0x0a) {
      lineAt = i;
      linePoints = points;
      lineIn = inString;
    } else if (unit === 0x20 || unit === 0x09) {
      spaceAt = i;
      spacePoints = points;
      spaceIn = inString;
    } else if (unit === 0x2c && !inString && (commaAt === -1 || depth <= commaDepth)) {
      commaAt = i;
      commaPoints = points;
      commaDepth = depth;
    }
  }
  const line: Boundary | undefined = lineAt < 0
    ? undefined
    : { at: lineAt, points: linePoints, inString: lineIn };
  const space: Boundary | undefined = spaceAt < 0
    ? undefined
    : { at: spaceAt, points: spacePoints, inString: spaceIn };
  const comma: Boundary | undefined = commaAt < 0
    ? undefined
    : { at: commaAt, points: commaPoints, inString: false };
  const safe: Boundary = { at: safeAt, points: safePoints, inString: safeIn };
  if (options.work !== undefined) options.work.units += i;
  const tokensOf = (end: number, count: number) =>
    estimate === defaultEstimate
      ? Math.ceil(count / 4)
      : estimate(escaped ? JSON.stringify(window.slice(0, end)) : window.slice(0, end));
  if (!stopped) {
    if (!options.complete) return undefined;
    return { end: n, tokens: tokensOf(n, points), inString, whole: true };
  }
  const chosen = over
    ? safe
    : json
    ? line ?? comma ?? space ?? safe
    : line ?? space ?? comma ?? safe;
  const tokens = tokensOf(chosen.at, chosen.points);
  return {
    end: chosen.at,
    tokens: over ? tokens : Math.min(budget, tokens),
    inString: chosen.inString,
    whole: chosen.at === n && options.complete,
  };
}

// The code points a code unit (or a pair, `width` 2) takes once escaped in a JSON string, as
// `JSON.stringify` writes it.
function escapedWidth(unit: number, width: number): number {
  if (width === 2) return 1;
  if (unit === 0x22 || unit === 0x5c) return 2;
  if (unit < 0x20) {
    return unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d
      ? 2
      : 6;
  }
  if (unit >= 0xd800 && unit <= 0xdfff) return 6; // a lone surrogate
  return 1;
}

function hexValue(unit: number): number {
  if (unit >= 0x30 && unit <= 0x39) return unit - 0x30;
  if (unit >= 0x61 && unit <= 0x66) return unit - 0x57;
  if (unit >= 0x41 && unit <= 0x46) return unit - 0x37;
  return -1;
}

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
