/**
 * A script made ready for a sandbox: parsed once (acorn, as an ES module's body, so strict), refused
 * with its line and column when it is not JavaScript or uses what scripts may not (`import`,
 * `export`, BigInt, HTML-like comments, names that start `__unfold`), then given a step at the
 * head of every loop iteration, function, `catch` and `finally`, so that the harness can stop a
 * busy script where nothing outside can (a Worker isolate runs on the thread of the Worker that
 * loaded it). Insertions only, on the lines where the code is: a line number of the prepared code
 * is the model's line number.
 *
 * Used by the sandboxes, so that the parser stays out of the core: the Deno sandbox imports it,
 * the Worker sandbox runs it in an isolate of its own from a static asset built from this file
 * (`deno task code-mode-asset`), so that the parser stays out of the Worker's script too.
 *
 * @module
 */

import { type Node, parse, type Token } from "acorn";
import type { Result } from "../result.ts";
import type { ScriptProblem } from "./sandbox.ts";
import { STEP } from "./script_text.ts";

const RESERVED = "__unfold";
const CALL = `${STEP}();`;
// Deeper nesting than this is refused: the walk below and the engines' parsers stay bounded.
const MAX_NESTING = 400;

/** A prepared script: the code with its steps, and how many were put in. */
export interface PreparedScript {
  /** The code, as the body of an async function, with its steps. */
  source: string;
  /** The number of steps put in. */
  steps: number;
}

/**
 * Prepares a script: parses and checks it, then puts its steps in.
 *
 * @param code The model's code: the body of an async function.
 * @param maxCodeChars The longest code accepted.
 * @returns The prepared script, or why it is refused (with its line and column).
 *
 * @example Usage
 * ```ts
 * import { prepareScript } from "./prepare.ts";
 * import { equal } from "node:assert/strict";
 *
 * const prepared = prepareScript("for (;;) {}", 1000);
 * equal(prepared.ok && prepared.value.source, "for (;;) {__unfold_step();}");
 * const refused = prepareScript("return import('x')", 1000);
 * equal(refused.ok ? 0 : refused.error.line, 1);
 * ```
 */
export function prepareScript(
  code: string,
  maxCodeChars: number,
): Result<PreparedScript, ScriptProblem> {
  if (code.length > maxCodeChars) {
    return refuse({
      code: "too_long",
      message:
        `The script is ${code.length} characters long, over maxCodeChars (${maxCodeChars}): ` +
        "write a shorter one, or do part of the work with execute",
    });
  }
  const tokens: Token[] = [];
  const opaque: [number, number][] = [];
  let program: Node;
  try {
    program = parse(code, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowReturnOutsideFunction: true,
      allowAwaitOutsideFunction: true,
      allowHashBang: false,
      locations: true,
      onToken: tokens,
      onComment: (_block, _text, start, end) => void opaque.push([start, end]),
    });
  } catch (error) {
    return refuse(syntaxProblem(error));
  }
  for (const token of tokens) {
    const label = token.type.label;
    if (label === "string" || label === "template" || label === "regexp") {
      opaque.push([token.start, token.end]);
    }
  }
  const html = htmlComment(code, opaque);
  if (html !== undefined) {
    return refuse(at(code, html, "HTML-like comments (<!-- and -->) are not allowed in a script"));
  }
  const insertions: Insertion[] = [];
  const walked = walk(program, code, insertions);
  if (!walked.ok) return walked;
  return { ok: true, value: { source: apply(code, insertions), steps: insertions.length } };
}

interface Insertion {
  at: number;
  text: string;
  // Closing texts go before opening ones at the same place, the innermost first.
  close: boolean;
  depth: number;
}

type Walked = Result<true, ScriptProblem>;

const LOOPS: ReadonlySet<string> = new Set([
  "ForStatement",
  "ForInStatement",
  "ForOfStatement",
  "WhileStatement",
  "DoWhileStatement",
]);
const FUNCTIONS: ReadonlySet<string> = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
]);

// Iterative, so that the walk's own depth is not the engine's stack.
function walk(program: Node, code: string, insertions: Insertion[]): Walked {
  const stack: [Node, number][] = [[program, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > MAX_NESTING) {
      return refuse(
        at(code, node.start, `The script is nested more than ${MAX_NESTING} levels deep`),
      );
    }
    const problem = refused(node);
    if (problem !== undefined) return refuse(at(code, node.start, problem));
    const n = node as unknown as Record<string, unknown>;
    if (LOOPS.has(node.type)) stepAt(n.body as Node, depth, insertions);
    else if (FUNCTIONS.has(node.type)) {
      const body = n.body as Node;
      if (body.type === "BlockStatement") stepAt(body, depth, insertions);
      else {
        insertions.push({ at: body.start, text: `(${CALL.slice(0, -1)}, `, close: false, depth });
        insertions.push({ at: body.end, text: ")", close: true, depth });
      }
    } else if (node.type === "CatchClause") stepAt(n.body as Node, depth, insertions);
    else if (node.type === "TryStatement" && n.finalizer) {
      stepAt(n.finalizer as Node, depth, insertions);
    }
    for (const key in n) {
      if (key === "loc" || key === "type" || key === "start" || key === "end") continue;
      const child = n[key];
      if (Array.isArray(child)) {
        for (let i = child.length - 1; i >= 0; i--) {
          if (isNode(child[i])) stack.push([child[i], depth + 1]);
        }
      } else if (isNode(child)) stack.push([child, depth + 1]);
    }
  }
  return { ok: true, value: true };
}

// A step at the head of a block, or a block around a statement that is not one.
function stepAt(body: Node, depth: number, insertions: Insertion[]): void {
  if (body.type === "BlockStatement") {
    insertions.push({ at: body.start + 1, text: CALL, close: false, depth });
  } else {
    insertions.push({ at: body.start, text: `{${CALL}`, close: false, depth });
    insertions.push({ at: body.end, text: "}", close: true, depth });
  }
}

function refused(node: Node): string | undefined {
  const n = node as unknown as Record<string, unknown>;
  switch (node.type) {
    case "ImportExpression":
    case "ImportDeclaration":
      return "A script cannot import modules: use call, search and describe";
    case "ExportNamedDeclaration":
    case "ExportDefaultDeclaration":
    case "ExportAllDeclaration":
      return "A script cannot export: return its value instead";
    case "MetaProperty":
      return (n.meta as { name?: string })?.name === "import"
        ? "A script cannot use import.meta"
        : undefined;
    case "Identifier":
      return typeof n.name === "string" && n.name.startsWith(RESERVED)
        ? `Names that start with "${RESERVED}" are reserved: rename ${n.name}`
        : undefined;
    case "Literal":
      return n.bigint !== undefined
        ? "BigInt is not available in a script: use numbers (or strings for large values)"
        : undefined;
    default:
      return undefined;
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null &&
    typeof (value as { type?: unknown }).type === "string" &&
    typeof (value as { start?: unknown }).start === "number";
}

function apply(code: string, insertions: Insertion[]): string {
  insertions.sort((a, b) =>
    a.at - b.at ||
    (a.close === b.close ? (a.close ? b.depth - a.depth : a.depth - b.depth) : a.close ? -1 : 1)
  );
  let out = "";
  let from = 0;
  for (const insertion of insertions) {
    out += code.slice(from, insertion.at) + insertion.text;
    from = insertion.at;
  }
  return out + code.slice(from);
}

// The first `<!--`, or `-->` at the start of a line, outside strings, templates, regular
// expressions and comments: a Deno context compiles a script, where these are comments, and an
// isolate a module, where they are code; neither may read the script otherwise than the parser.
function htmlComment(code: string, opaque: [number, number][]): number | undefined {
  opaque.sort((a, b) => a[0] - b[0]);
  // The ranges do not overlap: the last one starting at or before i is the only candidate.
  const inside = (i: number) => {
    let low = 0;
    let high = opaque.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (opaque[mid]![0] <= i) low = mid + 1;
      else high = mid - 1;
    }
    return high >= 0 && i < opaque[high]![1];
  };
  for (let i = code.indexOf("<!--"); i !== -1; i = code.indexOf("<!--", i + 1)) {
    if (!inside(i)) return i;
  }
  for (let i = code.indexOf("-->"); i !== -1; i = code.indexOf("-->", i + 1)) {
    if (inside(i)) continue;
    let j = i - 1;
    while (
      j >= 0 && code[j] !== "\n" && code[j] !== "\r" && code[j] !== "\u2028" &&
      code[j] !== "\u2029" &&
      (/\s/.test(code[j]!) || inside(j))
    ) j--;
    if (
      j < 0 || code[j] === "\n" || code[j] === "\r" || code[j] === "\u2028" || code[j] === "\u2029"
    ) {
      return i;
    }
  }
  return undefined;
}

function syntaxProblem(error: unknown): ScriptProblem {
  if (error instanceof SyntaxError) {
    const loc = (error as SyntaxError & { loc?: { line: number; column: number } }).loc;
    const message = error.message.replace(/\s*\(\d+:\d+\)$/, "");
    if (loc !== undefined) {
      return {
        code: "syntax_error",
        message: `Syntax error at line ${loc.line}, column ${loc.column + 1}: ${message}`,
        line: loc.line,
        column: loc.column + 1,
      };
    }
    return { code: "syntax_error", message: `Syntax error: ${message}` };
  }
  // The parser's own stack: a script nested deeper than it can follow.
  return { code: "not_allowed", message: "The script is nested too deeply to read" };
}

function at(code: string, offset: number, message: string): ScriptProblem {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (
      c === 0x0a || c === 0x2028 || c === 0x2029 || (c === 0x0d && code.charCodeAt(i + 1) !== 0x0a)
    ) {
      line++;
      start = i + 1;
    }
  }
  const column = offset - start + 1;
  return {
    code: "not_allowed",
    message: `${message} (line ${line}, column ${column})`,
    line,
    column,
  };
}

function refuse(problem: ScriptProblem): Result<never, ScriptProblem> {
  return { ok: false, error: problem };
}
