/**
 * JSON Schema `pattern`s on a linear-time engine: an ECMAScript pattern (the dialect JSON Schema
 * uses) is checked, translated to RE2 syntax with the same meaning, and run by `re2js`, so no
 * pattern a catalogue sends and no string a model sends can make matching super-linear. A valid
 * pattern the engine cannot run (lookaround, backreferences, a repeat over 1,000, a Unicode
 * property it lacks) is left to the tool's server, never refused; compiling waits for the first
 * string that needs the pattern. The only importer of `re2js`.
 *
 * @module
 */

import { RE2JS } from "re2js";

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

/**
 * What a pattern is, found without compiling it (linear in its length): `invalid` (not an
 * ECMAScript pattern: the schema is broken), `unchecked` (valid, but the linear-time engine cannot
 * run it: left to the server) or `checkable`, with the estimated work of compiling it in units of
 * about one engine instruction (a repeat `x{1,1000}` costs about 1,000).
 */
export type PatternVerdict =
  | { kind: "invalid"; why: string }
  | { kind: "unchecked"; why: string }
  | { kind: "checkable"; units: number };

// RE2's bound on a repeat count, and on the product of nested repeat counts.
const MAX_REPEAT = 1_000;
// Unicode property names the engine knows, learnt one name at a time (ECMAScript's list is finite,
// and a name reaches here only after the RegExp parser accepted it).
const properties = new Map<string, boolean>();

// ECMAScript's \s (WhiteSpace and LineTerminator), as RE2 class content.
const WHITESPACE = "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}" +
  "\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
// ECMAScript's `.` without the s flag: anything but a line terminator.
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";
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

/**
 * Says what a pattern is without compiling it: whether it is valid ECMAScript, whether the
 * linear-time engine can run it, and what compiling it would cost. Linear in the pattern.
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
  try {
    new RegExp(source, "u");
  } catch (e) {
    return { kind: "invalid", why: `is not a valid regular expression (${(e as Error).message})` };
  }
  const translated = translate(source);
  if (typeof translated !== "string") return { kind: "unchecked", why: translated.why };
  return measure(translated);
}

// Walks an RE2 pattern (as translate writes it) once: the estimated program size, repeats past
// RE2's bounds, and Unicode properties it lacks.
function measure(re: string): PatternVerdict {
  type Group = { units: number; last: number; lastNest: number; nest: number };
  const groups: Group[] = [{ units: 0, last: 0, lastNest: 1, nest: 1 }];
  const atom = (units: number, nest = 1) => {
    const group = groups[groups.length - 1]!;
    group.units += units;
    group.last = units;
    group.lastNest = nest;
  };
  for (let i = 0; i < re.length; i++) {
    const c = re[i]!;
    if (c === "\\" || c === "[") {
      // An escape or a class: one instruction; \p{...} names a property to look up.
      const end = c === "[" ? classEnd(re, i) : escapeEnd(re, i);
      const missing = missingProperty(re.slice(i, end));
      if (missing !== undefined) return missing;
      atom(1);
      i = end - 1;
    } else if (c === "(") {
      // (?:, (?s:, (?<name>: skip to the end of the group's prefix, never past it.
      if (re[i + 1] === "?") { while (i + 1 < re.length && re[i] !== ":" && re[i] !== ">") i++; }
      groups.push({ units: 0, last: 0, lastNest: 1, nest: 1 });
    } else if (c === ")") {
      const group = groups.pop()!;
      atom(group.units, group.nest);
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      const group = groups[groups.length - 1]!;
      let count = 1;
      if (c === "{") {
        const close = re.indexOf("}", i);
        const [min, max] = re.slice(i + 1, close).split(",");
        const low = Number(min);
        const high = max === undefined ? low : max === "" ? -1 : Number(max);
        if (low > MAX_REPEAT || high > MAX_REPEAT) {
          return {
            kind: "unchecked",
            why: "repeats more than 1,000 times, past the linear-time engine's limit",
          };
        }
        count = high < 0 ? low : high;
        i = close;
      }
      if (count > 1) {
        const nest = count * group.lastNest;
        if (nest > MAX_REPEAT) {
          return {
            kind: "unchecked",
            why: "nests repeats over 1,000 times in all, past the linear-time engine's limit",
          };
        }
        group.nest = Math.max(group.nest, nest);
        group.units += group.last * (count - 1);
      }
      if (re[i + 1] === "?") i++; // lazy: the same program size
    } else if (c !== "|") atom(1);
  }
  return { kind: "checkable", units: Math.max(1, groups[0]!.units) };
}

function at(index: number, re: string): number {
  return index === -1 ? re.length : index;
}

function escapeEnd(re: string, i: number): number {
  const next = re[i + 1];
  if ((next === "x" || next === "p" || next === "P") && re[i + 2] === "{") {
    return at(re.indexOf("}", i), re) + 1;
  }
  return i + 2;
}

function classEnd(re: string, i: number): number {
  for (let j = i + 1; j < re.length; j++) {
    if (re[j] === "\\") j = escapeEnd(re, j) - 1;
    else if (re[j] === "]" && j > i + 1 && !(j === i + 2 && re[i + 1] === "^")) return j + 1;
  }
  return re.length;
}

// The first \p{...} or \P{...} in a piece of pattern that the engine lacks, as a verdict.
function missingProperty(piece: string): PatternVerdict | undefined {
  for (const [, name] of piece.matchAll(/\\[pP]\{([^}]*)\}/g)) {
    let known = properties.get(name!);
    if (known === undefined) {
      try {
        RE2JS.compile(`\\p{${name}}`);
        known = true;
      } catch {
        known = false;
      }
      properties.set(name!, known);
    }
    if (!known) {
      return {
        kind: "unchecked",
        why: `uses the Unicode property ${
          JSON.stringify(name)
        }, which the linear-time engine lacks`,
      };
    }
  }
  return undefined;
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
  const translated = translate(source);
  if (typeof translated !== "string") return { ok: false, why: translated.why };
  try {
    const re = RE2JS.compile(translated, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    const exec = (text: string) => {
      const m = re.matcher(text);
      if (!m.find()) return null;
      return Array.from({ length: m.groupCount() + 1 }, (_, i) => m.group(i) ?? undefined);
    };
    return { ok: true, pattern: { test: (text) => re.test(text), exec } };
  } catch (e) {
    return {
      ok: false,
      why: `cannot run on a linear-time engine (${(e as Error).message.slice(0, 200)})`,
    };
  }
}

/**
 * Translates a valid ECMAScript (`u` mode) pattern into RE2 syntax with the same meaning.
 *
 * @param source A pattern that `new RegExp(source, "u")` accepts.
 * @returns The RE2 pattern, or why there is none.
 */
export function translate(source: string): string | { why: string } {
  const lookaround = "uses lookaround, which needs a backtracking engine";
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    const code = c.charCodeAt(0);
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = source.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += c + source[++i];
        continue;
      }
      return { why: "contains an unpaired surrogate" };
    }
    if (c === "\\") {
      const escaped = escape(source, i, inClass);
      if ("why" in escaped) return escaped;
      out += escaped.text;
      i = escaped.end - 1;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      if (c === "[") out += "\\[";
      else out += c;
      continue;
    }
    if (c === "[") {
      // [^] matches anything, [] nothing; [\s\S] and its kin also match anything.
      const rest = source.slice(i, i + 6);
      if (rest.startsWith("[^]")) {
        out += "(?s:.)";
        i += 2;
        continue;
      }
      if (rest.startsWith("[]")) {
        out += "[^\\x{0}-\\x{10FFFF}]";
        i += 1;
        continue;
      }
      if (/^\[(\\s\\S|\\S\\s|\\d\\D|\\D\\d|\\w\\W|\\W\\w)\]/.test(rest)) {
        out += "(?s:.)";
        i += 5;
        continue;
      }
      inClass = true;
      out += c;
      if (source[i + 1] === "^") out += source[++i];
      continue;
    }
    if (c === ".") {
      out += DOT;
      continue;
    }
    if (c === "(" && source[i + 1] === "?") {
      const kind = source.slice(i + 2, i + 4);
      if (kind[0] === "=" || kind[0] === "!" || kind === "<=" || kind === "<!") {
        return { why: lookaround };
      }
    }
    out += c;
  }
  return out;
}

// One escape sequence starting at source[i] === "\\": its RE2 text and where it ends.
function escape(
  source: string,
  i: number,
  inClass: boolean,
): { text: string; end: number } | { why: string } {
  const c = source[i + 1] ?? "";
  switch (c) {
    case "s":
      return { text: inClass ? WHITESPACE : `[${WHITESPACE}]`, end: i + 2 };
    case "S":
      if (inClass) return { why: "uses \\S inside a character class" };
      return { text: `[^${WHITESPACE}]`, end: i + 2 };
    case "b":
      return { text: inClass ? "\\x{8}" : "\\b", end: i + 2 };
    case "0":
      return { text: "\\x{0}", end: i + 2 };
    case "c":
      return { text: hex(source.charCodeAt(i + 2) % 32), end: i + 3 };
    case "v":
      return { text: "\\x{0B}", end: i + 2 };
    case "k":
      return { why: "uses a backreference, which needs a backtracking engine" };
    case "u": {
      if (source[i + 2] === "{") {
        const close = source.indexOf("}", i + 3);
        return { text: codePoint(parseInt(source.slice(i + 3, close), 16)), end: close + 1 };
      }
      const unit = parseInt(source.slice(i + 2, i + 6), 16);
      if (unit >= 0xd800 && unit <= 0xdbff && source.slice(i + 6, i + 8) === "\\u") {
        const low = parseInt(source.slice(i + 8, i + 12), 16);
        if (low >= 0xdc00 && low <= 0xdfff) {
          return {
            text: codePoint(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00)),
            end: i + 12,
          };
        }
      }
      if (unit >= 0xd800 && unit <= 0xdfff) return { why: "matches an unpaired surrogate" };
      return { text: codePoint(unit), end: i + 6 };
    }
    case "p":
    case "P": {
      // RE2 names a script or a general category bare: \p{Greek}, not \p{Script=Greek}.
      const close = source.indexOf("}", i + 3);
      const name = source.slice(i + 3, close).replace(/^(Script|sc|General_Category|gc)=/, "");
      return { text: `\\${c}{${name}}`, end: close + 1 };
    }
    default:
      if (c >= "1" && c <= "9") {
        return { why: "uses a backreference, which needs a backtracking engine" };
      }
      // \d \D \w \W \B \f \n \r \t \xHH and escaped syntax characters mean the same in RE2.
      if (c === "x") return { text: source.slice(i, i + 4), end: i + 4 };
      return { text: `\\${c}`, end: i + 2 };
  }
}

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

function codePoint(code: number): string {
  if (code >= 0xd800 && code <= 0xdfff) return "\\x{FFFD}"; // never reached: refused above
  return hex(code);
}
