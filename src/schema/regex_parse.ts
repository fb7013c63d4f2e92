/**
 * The parser of the linear-time engine (`pike_vm.ts`): an ECMAScript pattern that the platform
 * already accepted (`new RegExp(source, "u")`) as a tree of alternatives, sequences, groups,
 * repetitions, zero-width assertions and single-character atoms (kept as their source, for the
 * platform to test). What needs backtracking is refused here.
 *
 * @module
 */

/** The largest repetition count (`a{1000}`): a count is a copy of the body in the program. */
export const MAX_REPEAT = 1000;
/** The deepest nesting of groups: parsing and compiling recurse once per level. */
export const MAX_NESTING = 500;
// Assertion kinds.
export const START = 0, END = 1, WORD = 2, NOT_WORD = 3;

/** A parsed pattern. */
export type Node =
  | { t: "alt"; alts: Node[] }
  | { t: "cat"; items: Node[] }
  | { t: "atom"; src: string }
  | { t: "group"; cap: number; body: Node }
  | { t: "rep"; body: Node; min: number; max: number; greedy: boolean }
  | { t: "assert"; kind: number };

/**
 * Writes a whole number with a comma between each group of three digits, as `toLocaleString("en-US")`
 * would, without Intl: its first call loads locale data, about 11 ms of CPU, and a message built when
 * a module loads would charge that to every Worker isolate's startup.
 *
 * @param n A whole number.
 * @returns Its digits, grouped.
 *
 * @example Usage
 * ```ts
 * import { groupDigits } from "./regex_parse.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(groupDigits(100_000), "100,000");
 * equal(groupDigits(999), "999");
 * ```
 */
export function groupDigits(n: number): string {
  const digits = String(n);
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return out;
}

/** Why a pattern cannot run on the engine, thrown while parsing or compiling. */
export class Refusal {
  constructor(readonly why: string) {}
}

/**
 * Parses a whole pattern.
 *
 * @param source A pattern that `new RegExp(source, "u")` accepts.
 * @returns The tree and the number of capturing groups.
 * @throws {Refusal} When the pattern needs backtracking or nests too deep.
 *
 * @example Usage
 * ```ts
 * import { parsePattern } from "./regex_parse.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(parsePattern("(a)(?:b)|(c)").groups, 2);
 * ```
 */
export function parsePattern(source: string): { tree: Node; groups: number } {
  const parser = { source, i: 0, groups: 0, depth: 0 };
  const tree = parseAlternation(parser);
  return { tree, groups: parser.groups };
}

type Parser = { source: string; i: number; groups: number; depth: number };

function parseAlternation(p: Parser): Node {
  const alts = [parseSequence(p)];
  while (p.source[p.i] === "|") {
    p.i++;
    alts.push(parseSequence(p));
  }
  return alts.length === 1 ? alts[0]! : { t: "alt", alts };
}

function parseSequence(p: Parser): Node {
  const items: Node[] = [];
  while (p.i < p.source.length && p.source[p.i] !== "|" && p.source[p.i] !== ")") {
    const atom = parseAtom(p);
    items.push(atom.t === "assert" ? atom : parseQuantifier(p, atom));
  }
  return { t: "cat", items };
}

function parseAtom(p: Parser): Node {
  const { source } = p;
  const start = p.i;
  const c = source[start]!;
  if (c === "^" || c === "$") {
    p.i++;
    return { t: "assert", kind: c === "^" ? START : END };
  }
  if (c === "(") {
    let cap = -1;
    if (source.startsWith("(?:", start)) p.i += 3;
    else if (/^\(\?<?[=!]/.test(source.slice(start, start + 4))) {
      throw new Refusal("uses lookaround, which needs a backtracking engine");
    } else if (source.startsWith("(?<", start)) {
      p.i = source.indexOf(">", start) + 1;
      cap = ++p.groups;
    } else if (source[start + 1] === "?") {
      throw new Refusal("uses a modifier group, which the linear-time engine does not run");
    } else {
      p.i++;
      cap = ++p.groups;
    }
    if (++p.depth > MAX_NESTING) {
      throw new Refusal(
        `nests groups more than ${MAX_NESTING} deep (MAX_NESTING), past the linear-time engine's limit`,
      );
    }
    const body = parseAlternation(p);
    p.depth--;
    p.i++; // the ")"
    return cap < 0 ? body : { t: "group", cap, body };
  }
  if (c === "[") {
    let j = start + (source[start + 1] === "^" ? 2 : 1);
    while (source[j] !== "]") j += source[j] === "\\" ? 2 : 1;
    p.i = j + 1;
    return atom(source.slice(start, p.i));
  }
  if (c === "\\") return parseEscape(p);
  const code = source.charCodeAt(start);
  if (code >= 0xd800 && code <= 0xdfff) {
    const next = source.charCodeAt(start + 1);
    if (code > 0xdbff || !(next >= 0xdc00 && next <= 0xdfff)) {
      throw new Refusal("contains an unpaired surrogate");
    }
    p.i += 2;
  } else p.i++;
  return atom(source.slice(start, p.i));
}

function parseEscape(p: Parser): Node {
  const { source } = p;
  const start = p.i;
  const c = source[start + 1] ?? "";
  let end = start + 2;
  if (c === "b" || c === "B") {
    p.i = end;
    return { t: "assert", kind: c === "b" ? WORD : NOT_WORD };
  }
  if (c === "k" || (c >= "1" && c <= "9")) {
    throw new Refusal("uses a backreference, which needs a backtracking engine");
  }
  if (c === "u" && source[start + 2] === "{") end = source.indexOf("}", start) + 1;
  else if (c === "u") {
    const unit = parseInt(source.slice(start + 2, start + 6), 16);
    const low = source.slice(start + 6, start + 8) === "\\u"
      ? parseInt(source.slice(start + 8, start + 12), 16)
      : 0;
    if (unit >= 0xd800 && unit <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) end = start + 12;
    else if (unit >= 0xd800 && unit <= 0xdfff) {
      throw new Refusal("matches an unpaired surrogate");
    } else end = start + 6;
  } else if (c === "p" || c === "P") end = source.indexOf("}", start) + 1;
  else if (c === "x") end = start + 4;
  else if (c === "c") end = start + 3;
  p.i = end;
  return atom(source.slice(start, end));
}

function parseQuantifier(p: Parser, body: Node): Node {
  const { source } = p;
  const c = source[p.i];
  let min: number, max: number;
  if (c === "*") [min, max] = [0, Infinity];
  else if (c === "+") [min, max] = [1, Infinity];
  else if (c === "?") [min, max] = [0, 1];
  else if (c === "{") {
    const close = source.indexOf("}", p.i);
    const [low, high] = source.slice(p.i + 1, close).split(",");
    min = Number(low);
    max = high === undefined ? min : high === "" ? Infinity : Number(high);
    if (min > MAX_REPEAT || (max !== Infinity && max > MAX_REPEAT)) {
      throw new Refusal(
        `repeats more than ${
          groupDigits(MAX_REPEAT)
        } times (MAX_REPEAT), past the linear-time engine's limit`,
      );
    }
    p.i = close;
  } else return body;
  p.i++;
  const greedy = source[p.i] !== "?";
  if (!greedy) p.i++;
  return { t: "rep", body, min, max, greedy };
}

function atom(src: string): Node {
  return { t: "atom", src };
}
