/**
 * JSON Schema `pattern`s on a linear-time engine: an ECMAScript pattern (the dialect JSON Schema
 * uses) is checked and run by the Pike VM of `pike_vm.ts`, so no pattern a catalogue sends and no
 * string a model sends can make matching super-linear. A valid pattern the engine cannot run
 * (lookaround, backreferences, a repeat over `MAX_REPEAT`, a program over `MAX_PROGRAM`, nesting
 * over `MAX_NESTING`) is left to the tool's server, never refused; compiling waits for the first
 * string that needs the pattern.
 *
 * @module
 */

import { compileProgram, measureProgram, pikeSearch } from "./pike_vm.ts";
import { parsePattern, Refusal } from "./regex_parse.ts";

/**
 * Told the engine's work as it searches (in steps: one live thread at one position), so a caller
 * can stop a search past its budget by throwing.
 */
export type PatternMeter = (steps: number) => void;

/** A compiled pattern: `test` searches the text anywhere, as `RegExp.prototype.test` does. */
export interface LinearPattern {
  /** Whether the pattern matches somewhere in the text; `meter` is told the work as it goes. */
  test(text: string, meter?: PatternMeter): boolean;
  /** The first match and its groups (`undefined` for a group that took no part), or `null`. */
  exec(text: string): Array<string | undefined> | null;
}

/**
 * A pattern that compiles (with its program's size, in instructions: the work compiling it took),
 * or why it cannot run on the linear-time engine.
 */
export type CompiledPattern =
  | { ok: true; pattern: LinearPattern; size: number }
  | { ok: false; why: string };

/** The most compiled patterns kept across catalogues. */
export const MAX_CACHED_PATTERNS = 2_000;

/**
 * The most instructions the kept patterns may hold in all: a program takes some 16 bytes an
 * instruction, and 2,000 patterns of `MAX_PROGRAM` would be 160 MB, more than a Worker has.
 */
export const MAX_CACHED_INSTRUCTIONS = 500_000;

/**
 * What a pattern is, found without compiling it (linear in its length): `invalid` (not an
 * ECMAScript pattern: the schema is broken), `unchecked` (valid, but the linear-time engine cannot
 * run it: left to the server) or `checkable`, with the work of compiling it in units of one engine
 * instruction: the size of its program (`x{1,1000}` is about 2,000).
 */
export type PatternVerdict =
  | { kind: "invalid"; why: string }
  | { kind: "unchecked"; why: string }
  | { kind: "checkable"; units: number };

// Each kept pattern with its program's size, oldest first.
const cache = new Map<string, { compiled: CompiledPattern; size: number }>();
let cachedInstructions = 0;

/**
 * Compiles an ECMAScript pattern for the linear-time engine, from a bounded cache.
 *
 * @param source The pattern, as a schema's `pattern` or `patternProperties` key holds it.
 * @returns The compiled pattern, or why it cannot be (not a valid pattern, or one the engine
 * cannot run).
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
  if (hit !== undefined) return hit.compiled;
  const { compiled, size } = compile(source);
  while (
    cache.size > 0 &&
    (cache.size >= MAX_CACHED_PATTERNS || cachedInstructions + size > MAX_CACHED_INSTRUCTIONS)
  ) {
    const [oldest, entry] = cache.entries().next().value!;
    cache.delete(oldest);
    cachedInstructions -= entry.size;
  }
  cache.set(source, { compiled, size });
  cachedInstructions += size;
  return compiled;
}

/**
 * The instructions the kept patterns hold in all, at most {@linkcode MAX_CACHED_INSTRUCTIONS}.
 *
 * @returns The count.
 *
 * @example Usage
 * ```ts
 * import { cachedPatternInstructions, MAX_CACHED_INSTRUCTIONS } from "./pattern.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(cachedPatternInstructions() <= MAX_CACHED_INSTRUCTIONS);
 * ```
 */
export function cachedPatternInstructions(): number {
  return cachedInstructions;
}

/**
 * Says what a pattern is without compiling it: whether it is valid ECMAScript, whether the
 * linear-time engine can run it, and the size of its program. Linear in the pattern.
 *
 * @param source The pattern, as a schema's `pattern` or `patternProperties` key holds it.
 * @returns The verdict.
 *
 * @example Usage
 * ```ts
 * import { inspectPattern } from "./pattern.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(inspectPattern("^[a-z]{1,1000}$").kind, "checkable");
 * equal(inspectPattern("^.{0,4096}$").kind, "unchecked");
 * equal(inspectPattern("a(?=b)").kind, "unchecked");
 * equal(inspectPattern("(").kind, "invalid");
 * ```
 */
export function inspectPattern(source: string): PatternVerdict {
  const invalid = validate(source);
  if (invalid !== undefined) return { kind: "invalid", why: invalid };
  try {
    // The instructions the VM would write, counted from the tree without writing them.
    return { kind: "checkable", units: measureProgram(parsePattern(source).tree) };
  } catch (e) {
    return { kind: "unchecked", why: refusalWhy(e) };
  }
}

// Why a valid pattern cannot run: the parser's refusal, or (failing closed on a pattern the parser
// misreads, though the platform read it) a reason that says so.
function refusalWhy(e: unknown): string {
  if (e instanceof Refusal) return e.why;
  return `cannot be read by the linear-time engine (${String(e).slice(0, 200)})`;
}

// Why a pattern is not ECMAScript, or undefined when it is.
function validate(source: string): string | undefined {
  try {
    new RegExp(source, "u");
    return undefined;
  } catch (e) {
    return `is not a valid regular expression (${(e as Error).message})`;
  }
}

function compile(source: string): { compiled: CompiledPattern; size: number } {
  const invalid = validate(source);
  if (invalid !== undefined) return { compiled: { ok: false, why: invalid }, size: 1 };
  const compiled = compileChecked(source, false);
  return { compiled, size: compiled.ok ? compiled.size : 1 };
}

/**
 * Compiles a fixed ECMAScript regular expression of ours (a `format`'s) for the linear-time
 * engine, once, on first use.
 *
 * @param regex The expression; only its source and its `i` flag count.
 * @returns The compiled pattern.
 * @throws {TypeError} On first use, when the expression cannot run on the linear-time engine.
 *
 * @example Usage
 * ```ts
 * import { linearRegExp } from "./pattern.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(linearRegExp(/^[a-f]+$/i).test("CafE"), true);
 * ```
 */
export function linearRegExp(regex: RegExp): LinearPattern {
  let compiled: LinearPattern | undefined;
  const get = () => {
    if (compiled !== undefined) return compiled;
    const result = compileChecked(regex.source, regex.flags.includes("i"));
    if (!result.ok) throw new TypeError(`The expression /${regex.source}/ ${result.why}`);
    return compiled = result.pattern;
  };
  return { test: (text, meter) => get().test(text, meter), exec: (text) => get().exec(text) };
}

// A pattern the platform accepted, compiled for the VM, with its program's size.
function compileChecked(
  source: string,
  ignoreCase: boolean,
): { ok: true; pattern: LinearPattern; size: number } | { ok: false; why: string } {
  const program = compileProgram(source, ignoreCase);
  if ("why" in program) return { ok: false, why: program.why };
  return {
    ok: true,
    size: program.op.length,
    pattern: {
      test: (text, meter) => pikeSearch(program, text, false, meter) !== null,
      exec: (text) => pikeSearch(program, text),
    },
  };
}
