/**
 * JSON Schema `pattern`s on a linear-time engine: an ECMAScript pattern (the dialect JSON Schema
 * uses) is checked and run by the Pike VM of `pike_vm.ts`, so no pattern a catalogue sends and no
 * string a model sends can make matching super-linear. Patterns that need backtracking
 * (lookaround, backreferences) are refused.
 *
 * @module
 */

import { compileProgram, pikeSearch } from "./pike_vm.ts";

/** A compiled pattern: `test` searches the text anywhere, as `RegExp.prototype.test` does. */
export interface LinearPattern {
  /** Whether the pattern matches somewhere in the text. */
  test(text: string): boolean;
  /** The first match and its groups (`undefined` for a group that took no part), or `null`. */
  exec(text: string): Array<string | undefined> | null;
}

/** A pattern that compiles, or why it cannot run on the linear-time engine. */
export type CompiledPattern = { ok: true; pattern: LinearPattern } | { ok: false; why: string };

/** The most compiled patterns kept across catalogues (each is a few kilobytes). */
export const MAX_CACHED_PATTERNS = 2_000;

const cache = new Map<string, CompiledPattern>();

/**
 * Compiles an ECMAScript pattern for the linear-time engine, from a bounded cache.
 *
 * @param source The pattern, as a schema's `pattern` or `patternProperties` key holds it.
 * @returns The compiled pattern, or why it is refused (not a valid pattern, or one that needs
 * backtracking).
 *
 * @example Usage
 * ```ts
 * import { compilePattern } from "./pattern.ts";
 * import { equal } from "node:assert/strict";
 *
 * const safe = compilePattern("^/safe/");
 * equal(safe.ok && safe.pattern.test("/safe/a"), true);
 * const slow = compilePattern("^(a+)+$");
 * equal(slow.ok && slow.pattern.test("a".repeat(10_000) + "!"), false); // linear time
 * equal(compilePattern("a(?=b)").ok, false);
 * ```
 */
export function compilePattern(source: string): CompiledPattern {
  const hit = cache.get(source);
  if (hit !== undefined) return hit;
  const compiled = compile(source);
  if (cache.size >= MAX_CACHED_PATTERNS) cache.delete(cache.keys().next().value!);
  cache.set(source, compiled);
  return compiled;
}

function compile(source: string): CompiledPattern {
  try {
    new RegExp(source, "u");
  } catch (e) {
    return { ok: false, why: `is not a valid regular expression (${(e as Error).message})` };
  }
  return compileTranslated(source, false);
}

/**
 * Compiles a fixed ECMAScript regular expression of ours (a `format`'s) for the linear-time
 * engine, once, on first use.
 *
 * @param regex The expression; only its source and its `i` flag count.
 * @returns The compiled pattern.
 * @throws {TypeError} On first use, when the expression cannot run on the linear-time engine.
 */
export function linearRegExp(regex: RegExp): LinearPattern {
  let compiled: LinearPattern | undefined;
  const get = () => {
    if (compiled !== undefined) return compiled;
    const result = compileTranslated(regex.source, regex.flags.includes("i"));
    if (!result.ok) throw new TypeError(`The expression /${regex.source}/ ${result.why}`);
    return compiled = result.pattern;
  };
  return { test: (text) => get().test(text), exec: (text) => get().exec(text) };
}

function compileTranslated(source: string, ignoreCase: boolean): CompiledPattern {
  const program = compileProgram(source, ignoreCase);
  if ("why" in program) return { ok: false, why: program.why };
  return {
    ok: true,
    pattern: {
      test: (text) => pikeSearch(program, text, false) !== null,
      exec: (text) => pikeSearch(program, text),
    },
  };
}
