/**
 * Names as the config uses them: tool patterns with `*` globs (profiles), and the closest of some
 * names to one that matches none (a "did you mean" for server and profile names).
 *
 * @module
 */

import { editDistance } from "../../utils/edit_distance.ts";

/**
 * Matches text against a pattern where `*` is any run of characters; linear in practice and at
 * worst the product of both lengths (no regular expression, so no backtracking blow-up on the
 * names an upstream chooses).
 *
 * @param pattern The pattern.
 * @param text The text.
 * @returns Whether the whole text matches.
 *
 * @example Usage
 * ```ts
 * import { globMatch } from "./_name_match.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(globMatch("get_*", "get_issue"), true);
 * equal(globMatch("*_issue", "get_pull"), false);
 * ```
 */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

/**
 * The closest of some names to one, as a suggestion (empty when none is close).
 *
 * @param name The name given.
 * @param names The names that exist.
 * @returns `; did you mean "x"?`, or `""`.
 *
 * @example Usage
 * ```ts
 * import { closest } from "./_name_match.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(closest("wrok", ["work", "home"]), '; did you mean "work"?');
 * equal(closest("zzzzzz", ["work"]), "");
 * ```
 */
export function closest(name: string, names: readonly string[]): string {
  let best: string | undefined;
  let distance = Infinity;
  for (const candidate of names) {
    const d = editDistance(name, candidate);
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best !== undefined && distance <= Math.max(2, Math.floor(name.length / 3))
    ? `; did you mean ${JSON.stringify(best)}?`
    : "";
}
