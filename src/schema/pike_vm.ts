/**
 * A linear-time engine for ECMAScript patterns: the pattern is parsed into a program of
 * instructions and run as a Pike VM (Thompson's NFA simulation, keeping every live thread at once,
 * at most one per instruction), so matching costs the text's length times the program's size,
 * whatever the pattern and the text. Each single-character test (a literal, a class, an escape such
 * as `\d` or `\p{L}`, `.`) is the platform's own `RegExp` run on one code point, which cannot
 * backtrack, so those keep their exact ECMAScript meaning. Captures and the match chosen follow the
 * leftmost-first rule of a backtracking engine. Lookaround and backreferences need backtracking and
 * are refused.
 *
 * @module
 */

import { END, groupDigits, type Node, parsePattern, Refusal, START, WORD } from "./regex_parse.ts";

export { MAX_NESTING, MAX_REPEAT } from "./regex_parse.ts";

/**
 * The most instructions in one program: bounds a pattern's memory and each step's work (the largest
 * `format` expression, IPv6's, takes 1,508).
 */
export const MAX_PROGRAM = 5_000;

// Instruction kinds.
const CHAR = 0, SPLIT = 1, JMP = 2, SAVE = 3, ASSERT = 4, MATCH = 5;

/** A compiled program: run it with {@linkcode pikeSearch}. */
export interface Program {
  /** Each instruction's kind. */
  op: number[];
  /** Its first operand: a target, a capture slot or an assertion kind. */
  x: number[];
  /** Its second operand: a split's other target. */
  y: number[];
  /** The test of each character instruction. */
  tests: Array<(char: string) => boolean>;
  /** One test per distinct atom, shared by its copies (`a{3}` holds one). */
  atoms: Map<string, (char: string) => boolean>;
  /** The number of capturing groups. */
  groups: number;
  /** Whether a character is a word character, for `\b` and `\B`. */
  isWord: (char: string) => boolean;
}

/**
 * Compiles an ECMAScript pattern that `new RegExp(source, "u")` accepts.
 *
 * @param source The pattern.
 * @param ignoreCase Whether it matches without regard to case (the `i` flag).
 * @returns The program, or why it cannot run in linear time.
 *
 * @example Usage
 * ```ts
 * import { compileProgram, pikeSearch } from "./pike_vm.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const program = compileProgram("(\\d+)-(\\d+)", false);
 * deepEqual("why" in program ? null : pikeSearch(program, "a 12-34 b"), ["12-34", "12", "34"]);
 * ```
 */
export function compileProgram(source: string, ignoreCase: boolean): Program | { why: string } {
  const flags = ignoreCase ? "iu" : "u";
  try {
    const { tree, groups } = parsePattern(source);
    const program: Program = {
      op: [],
      x: [],
      y: [],
      tests: [],
      atoms: new Map(),
      groups,
      isWord: (char) => single("\\w", flags)(char),
    };
    measureProgram(tree);
    emit(program, { t: "group", cap: 0, body: tree }, flags);
    push(program, MATCH, 0, 0);
    return program;
  } catch (e) {
    if (e instanceof Refusal) return { why: e.why };
    // Fail closed: a pattern the parser misreads is refused, never a crash of the caller.
    return { why: `cannot run on the linear-time engine (${String(e).slice(0, 200)})` };
  }
}

// The tests of atoms, shared by every program: most patterns spell the same few classes and
// escapes, and a test with its ASCII answers is worth keeping. Bounded, oldest out first.
const SHARED_TESTS = new Map<string, (char: string) => boolean>();
const MAX_SHARED_TESTS = 4_096;

// One code point against one atom, by the platform's engine (no backtracking is possible), its
// answers for ASCII kept: most text is ASCII, and a call into the engine costs far more. A literal
// character that case cannot change is compared as it is.
function single(src: string, flags: string): (char: string) => boolean {
  if (!/^[\\[.]/.test(src) && (flags === "u" || src.toLowerCase() === src.toUpperCase())) {
    return (char) => char === src;
  }
  const key = flags + src;
  const shared = SHARED_TESTS.get(key);
  if (shared !== undefined) return shared;
  const re = new RegExp(`^(?:${src})$`, flags);
  const ascii = new Int8Array(128);
  const test = (char: string) => {
    const code = char.charCodeAt(0);
    if (code >= 128 || char.length > 1) return re.test(char);
    return (ascii[code] ||= re.test(char) ? 1 : -1) > 0;
  };
  if (SHARED_TESTS.size >= MAX_SHARED_TESTS) SHARED_TESTS.delete(SHARED_TESTS.keys().next().value!);
  SHARED_TESTS.set(key, test);
  return test;
}

/**
 * The number of instructions a pattern's program holds, counted from its tree without writing
 * them (in time linear in the tree): what compiling it costs.
 *
 * @param tree The tree {@linkcode parsePattern} read.
 * @returns The program's size.
 * @throws {Refusal} When the program would hold more than {@linkcode MAX_PROGRAM} instructions.
 *
 * @example Usage
 * ```ts
 * import { compileProgram, measureProgram } from "./pike_vm.ts";
 * import { parsePattern } from "./regex_parse.ts";
 * import { equal } from "node:assert/strict";
 *
 * const program = compileProgram("^a{2,3}$", false);
 * equal(measureProgram(parsePattern("^a{2,3}$").tree), "why" in program ? -1 : program.op.length);
 * ```
 */
export function measureProgram(tree: Node): number {
  // The whole pattern is group 0 (two SAVEs), then MATCH.
  const size = sizeOf(tree) + 3;
  if (size > MAX_PROGRAM) throw new Refusal(PROGRAM_TOO_LARGE);
  return size;
}

const PROGRAM_TOO_LARGE = `compiles to more than ${
  groupDigits(MAX_PROGRAM)
} instructions (MAX_PROGRAM), past the linear-time engine's limit`;

// What emit writes for a node, in the same layout; Infinity-safe for nested repeats.
function sizeOf(node: Node): number {
  switch (node.t) {
    case "atom":
    case "assert":
      return 1;
    case "cat":
      return node.items.reduce((sum, item) => sum + sizeOf(item), 0);
    case "group":
      return sizeOf(node.body) + 2;
    case "alt":
      return node.alts.reduce((sum, alt) => sum + sizeOf(alt), 2 * (node.alts.length - 1));
    case "rep": {
      const body = sizeOf(node.body);
      const optional = node.max === Infinity ? body + 2 : (node.max - node.min) * (body + 1);
      return node.min * body + optional;
    }
  }
}

function push(program: Program, op: number, x: number, y: number): number {
  if (program.op.length >= MAX_PROGRAM) {
    throw new Refusal(PROGRAM_TOO_LARGE);
  }
  program.op.push(op);
  program.x.push(x);
  program.y.push(y);
  return program.op.length - 1;
}

function emit(program: Program, node: Node, flags: string): void {
  switch (node.t) {
    case "atom": {
      const pc = push(program, CHAR, 0, 0);
      program.tests[pc] = program.atoms.get(node.src) ??
        program.atoms.set(node.src, single(node.src, flags)).get(node.src)!;
      return;
    }
    case "assert":
      push(program, ASSERT, node.kind, 0);
      return;
    case "cat":
      for (const item of node.items) emit(program, item, flags);
      return;
    case "group":
      push(program, SAVE, 2 * node.cap, 0);
      emit(program, node.body, flags);
      push(program, SAVE, 2 * node.cap + 1, 0);
      return;
    case "alt": {
      const jumps: number[] = [];
      node.alts.forEach((alt, k) => {
        const split = k < node.alts.length - 1 ? push(program, SPLIT, 0, 0) : -1;
        if (split >= 0) program.x[split] = split + 1;
        emit(program, alt, flags);
        if (split >= 0) {
          jumps.push(push(program, JMP, 0, 0));
          program.y[split] = program.op.length;
        }
      });
      for (const jump of jumps) program.x[jump] = program.op.length;
      return;
    }
    case "rep": {
      for (let k = 0; k < node.min; k++) emit(program, node.body, flags);
      if (node.max === Infinity) {
        const split = push(program, SPLIT, 0, 0);
        emit(program, node.body, flags);
        push(program, JMP, split, 0);
        branch(program, split, split + 1, program.op.length, node.greedy);
        return;
      }
      const splits: number[] = [];
      for (let k = node.min; k < node.max; k++) {
        splits.push(push(program, SPLIT, 0, 0));
        emit(program, node.body, flags);
      }
      for (const split of splits) branch(program, split, split + 1, program.op.length, node.greedy);
    }
  }
}

// A split that prefers `into` (greedy) or `out` (lazy).
function branch(program: Program, split: number, into: number, out: number, greedy: boolean) {
  program.x[split] = greedy ? into : out;
  program.y[split] = greedy ? out : into;
}

type Caps = Array<number | undefined>;

// How many steps a search does between telling its meter: often enough to stop a search within a
// millisecond, seldom enough to cost nothing.
const METER_EVERY = 4_096;

/**
 * Finds the first match of a program anywhere in a text, in time linear in the text's length.
 *
 * @param program The compiled pattern.
 * @param text The text.
 * @param captures Whether to report the groups (else only whether it matches).
 * @param meter Told the work done (live threads times positions) every few thousand steps and at
 * the end; it may throw to stop the search.
 * @returns The match and its groups (`undefined` for a group that took no part), or `null`;
 * without captures, `[]` for a match.
 *
 * @example Usage
 * ```ts
 * import { compileProgram, pikeSearch } from "./pike_vm.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const program = compileProgram("^(a+)+$", false);
 * if ("why" in program) throw new Error(program.why);
 * equal(pikeSearch(program, "a".repeat(10_000) + "!", false), null); // linear time
 * deepEqual(pikeSearch(program, "aa"), ["aa", "aa"]);
 * ```
 */
export function pikeSearch(
  program: Program,
  text: string,
  captures = true,
  meter?: (steps: number) => void,
): Array<string | undefined> | null {
  const { op, x, y, tests } = program;
  const size = op.length;
  // Two thread lists (instruction, captures), each instruction at most once per position.
  let current = { pcs: new Int32Array(size), caps: [] as Caps[], n: 0 };
  let next = { pcs: new Int32Array(size), caps: [] as Caps[], n: 0 };
  const marks = new Int32Array(size).fill(-1);
  // Each instruction expanded pushes at most two more.
  const stackPcs = new Int32Array(2 * size + 2);
  const stackCaps: Caps[] = [];
  let found: Caps | null = null;
  let work = 0;
  // Adds a thread and everything it reaches without consuming, in priority order.
  const add = (list: typeof current, pc0: number, caps0: Caps, pos: number) => {
    let top = 0;
    stackPcs[top] = pc0;
    stackCaps[top++] = caps0;
    while (top > 0) {
      const pc = stackPcs[--top]!;
      const caps = stackCaps[top]!;
      work++;
      if (marks[pc] === pos) continue;
      marks[pc] = pos;
      const kind = op[pc]!;
      if (kind === JMP) {
        stackPcs[top] = x[pc]!;
        stackCaps[top++] = caps;
      } else if (kind === SPLIT) {
        stackPcs[top] = y[pc]!;
        stackCaps[top++] = caps;
        stackPcs[top] = x[pc]!;
        stackCaps[top++] = caps;
      } else if (kind === SAVE) {
        let saved = caps;
        if (captures) {
          saved = caps.slice();
          saved[x[pc]!] = pos;
        }
        stackPcs[top] = pc + 1;
        stackCaps[top++] = saved;
      } else if (kind === ASSERT) {
        if (holds(program, x[pc]!, text, pos)) {
          stackPcs[top] = pc + 1;
          stackCaps[top++] = caps;
        }
      } else {
        list.pcs[list.n] = pc;
        list.caps[list.n++] = caps;
      }
    }
  };
  const empty: Caps = new Array(captures ? 2 * (program.groups + 1) : 0).fill(undefined);
  for (let pos = 0;;) {
    if (found === null) add(current, 0, empty, pos);
    if (current.n === 0 && found !== null) break;
    const code = text.codePointAt(pos);
    const width = code === undefined ? 0 : code > 0xffff ? 2 : 1;
    const char = code === undefined ? "" : width === 1 ? text[pos]! : text.slice(pos, pos + 2);
    for (let k = 0; k < current.n; k++) {
      const pc = current.pcs[k]!;
      if (op[pc] === MATCH) {
        found = current.caps[k]!;
        break; // the threads after it have lower priority
      }
      if (width > 0 && tests[pc]!(char)) add(next, pc + 1, current.caps[k]!, pos + width);
    }
    const done = current;
    current = next;
    next = done;
    next.n = 0;
    if (meter !== undefined && work >= METER_EVERY) {
      meter(work);
      work = 0;
    }
    if (width === 0) break;
    pos += width;
  }
  meter?.(work);
  if (found === null) return null;
  if (!captures) return [];
  const caps = found;
  return Array.from({ length: program.groups + 1 }, (_, k) => {
    const [from, to] = [caps[2 * k], caps[2 * k + 1]];
    return from === undefined || to === undefined ? undefined : text.slice(from, to);
  });
}

function holds(program: Program, kind: number, text: string, pos: number): boolean {
  if (kind === START) return pos === 0;
  if (kind === END) return pos === text.length;
  const before = pos > 0 && program.isWord(text[pos - 1]!);
  const after = pos < text.length && program.isWord(text[pos]!);
  return (before !== after) === (kind === WORD);
}
