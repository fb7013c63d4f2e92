/**
 * A host's JSON (or JSONC) file as `unfold setup` reads and edits it: the servers under a path of
 * keys (`["mcpServers"]`, Claude Code's `["projects", DIR, "mcpServers"]`), each with its data and
 * its text as written, and edits that change those servers and nothing else (comments, order,
 * indentation and every other byte kept). Names from the file are data: an object's keys are own
 * properties (`__proto__` and `constructor` included), and a key written twice on the way to the
 * servers is refused, since hosts read one and editors show the other.
 *
 * @module
 */

import {
  applyEdits,
  type FormattingOptions,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from "jsonc-parser";
import { lineEnding } from "./text_bytes.ts";
import { defineOwn } from "./data.ts";
import type { Outcome } from "../../utils/file_transaction.ts";

/** Where a host keeps its servers in a file: the keys from the top down to the servers' object. */
export type Pointer = readonly string[];

/** One server as the file holds it. */
export interface ServerEntry {
  /** Its data. */
  value: unknown;
  /** Its text as written (JSON: the value's text; TOML: its tables' lines). */
  raw: string;
}

/** The servers a file holds under a pointer, in the file's order. */
export type Servers = Map<string, ServerEntry>;

// A result: the value, or why not in one line (declared with the file transactions).
export type { Outcome };

/**
 * The JSON text's data, with every object's keys as own properties.
 *
 * @param text The text (comments and trailing commas allowed).
 * @returns The data, or where it does not parse.
 *
 * @example Usage
 * ```ts
 * import { jsonData } from "./json_doc.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const read = jsonData('{"mcpServers": {"__proto__": {"command": "x"}}} // mine');
 * deepEqual(read.ok && Object.keys((read.value as { mcpServers: object }).mcpServers), ["__proto__"]);
 * ```
 */
export function jsonData(text: string): Outcome<unknown> {
  const tree = parse(text);
  return tree.ok
    ? { ok: true, value: tree.value === undefined ? undefined : data(tree.value) }
    : tree;
}

/**
 * The servers under a pointer of a JSON text.
 *
 * @param text The text.
 * @param pointer The keys down to the servers' object.
 * @returns The servers (`undefined` when the pointer leads nowhere yet), or why the file cannot be
 *   read safely: not JSON, not an object on the way, a key written twice.
 */
export function jsonServers(text: string, pointer: Pointer): Outcome<Servers | undefined> {
  const tree = parse(text);
  if (!tree.ok) return tree;
  let node = tree.value;
  if (node === undefined) return { ok: true, value: undefined };
  const path: string[] = [];
  for (const key of pointer) {
    if (node.type !== "object") return notObject(path);
    const twice = repeated(node);
    if (twice !== undefined) return twiceError(path, twice);
    const found: Node | undefined = property(node, key);
    if (found === undefined) return { ok: true, value: undefined };
    path.push(key);
    node = found;
  }
  if (node.type !== "object") return notObject(path);
  const twice = repeated(node);
  if (twice !== undefined) return twiceError(path, twice);
  const servers: Servers = new Map();
  for (const prop of node.children ?? []) {
    const [key, value] = prop.children ?? [];
    if (key === undefined || value === undefined) continue;
    servers.set(String(key.value), {
      value: data(value),
      raw: text.slice(value.offset, value.offset + value.length),
    });
  }
  return { ok: true, value: servers };
}

/** Changes to the servers under a pointer. */
export interface ServerChanges {
  /** The names to take out. */
  remove: readonly string[];
  /** The entries to put in (last), with their text as written when it is known. */
  add: readonly { name: string; value: unknown; raw?: string }[];
  /** Take the servers' object out when it is left empty. */
  dropIfEmpty?: boolean;
}

/**
 * A JSON text with its servers under a pointer changed and nothing else.
 *
 * @param text The text (`""` for no file: an object is made).
 * @param pointer The keys down to the servers' object.
 * @param changes What to take out and put in.
 * @returns The new text.
 */
export function editJson(text: string, pointer: Pointer, changes: ServerChanges): string {
  const options: FormattingOptions = { ...indentation(text), eol: lineEnding(text) };
  let out = text.trim() === "" ? "{}" : text;
  const apply = (path: readonly string[], value: unknown) => {
    out = applyEdits(out, modify(out, [...path], value, { formattingOptions: options }));
  };
  for (const name of changes.remove) apply([...pointer, name], undefined);
  for (const { name, value, raw } of changes.add) {
    if (raw === undefined || !sameText(raw, value)) {
      apply([...pointer, name], value);
      continue;
    }
    // The entry's own text (its comments and layout) where the formatter would write its own.
    const token = `unfold-raw-${crypto.randomUUID()}`;
    apply([...pointer, name], token);
    out = out.replace(JSON.stringify(token), () => raw);
  }
  if (changes.dropIfEmpty) {
    const left = jsonServers(out, pointer);
    if (left.ok && left.value !== undefined && left.value.size === 0) apply(pointer, undefined);
  }
  if (text.trim() === "" && !out.endsWith("\n")) out += options.eol;
  return out;
}

/**
 * Sets (or, with `undefined`, removes) one value at a path of a JSON text, all else kept.
 *
 * @param text The text.
 * @param path The keys.
 * @param value The value.
 * @returns The new text.
 */
export function setJson(text: string, path: readonly string[], value: unknown): string {
  const options: FormattingOptions = { ...indentation(text), eol: lineEnding(text) };
  const base = text.trim() === "" ? "{}\n" : text;
  return applyEdits(base, modify(base, [...path], value, { formattingOptions: options }));
}

// The text parsed to its tree (undefined for an empty text), or where it breaks.
function parse(text: string): Outcome<Node | undefined> {
  if (text.trim() === "") return { ok: true, value: undefined };
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const before = text.slice(0, first.offset).split("\n");
    const where = `line ${before.length}, column ${before[before.length - 1]!.length + 1}`;
    return { ok: false, error: `not JSON (${printParseErrorCode(first.error)} at ${where})` };
  }
  return { ok: true, value: tree };
}

function property(node: Node, key: string): Node | undefined {
  let found: Node | undefined;
  for (const prop of node.children ?? []) {
    if (prop.children?.[0]?.value === key) found = prop.children[1];
  }
  return found;
}

function repeated(node: Node): string | undefined {
  const seen = new Set<string>();
  for (const prop of node.children ?? []) {
    const key = String(prop.children?.[0]?.value);
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return undefined;
}

function where(path: readonly string[]): string {
  return path.length === 0
    ? "at the top level"
    : `in ${path.map((k) => JSON.stringify(k)).join(" → ")}`;
}

function twiceError(path: readonly string[], key: string): Outcome<never> {
  return {
    ok: false,
    error: `has the key ${JSON.stringify(key)} twice ${where(path)}: hosts read one of them, ` +
      "editors may show the other; keep one and run setup again",
  };
}

function notObject(path: readonly string[]): Outcome<never> {
  return {
    ok: false,
    error: path.length === 0
      ? "is not a JSON object: fix it or give another file with --file"
      : `has ${path.map((k) => JSON.stringify(k)).join(" → ")} that is not an object: fix it or ` +
        "give another file with --file",
  };
}

// A node's data, every key an own property (`__proto__` too).
function data(node: Node): unknown {
  if (node.type === "object") {
    const out: Record<string, unknown> = {};
    for (const prop of node.children ?? []) {
      const [key, value] = prop.children ?? [];
      if (key !== undefined && value !== undefined) defineOwn(out, String(key.value), data(value));
    }
    return out;
  }
  if (node.type === "array") return (node.children ?? []).map(data);
  return node.value;
}

// Whether a text, parsed, is that value (so putting the text back puts back the value).
function sameText(raw: string, value: unknown): boolean {
  const read = jsonData(raw);
  return read.ok && JSON.stringify(read.value) === JSON.stringify(value);
}

// The file's own indentation: tabs, or the first indented line's count of spaces.
function indentation(text: string): { insertSpaces: boolean; tabSize: number } {
  const first = /\n([ \t]+)\S/.exec(text);
  if (first === null) return { insertSpaces: true, tabSize: 2 };
  if (first[1]!.startsWith("\t")) return { insertSpaces: false, tabSize: 1 };
  return { insertSpaces: true, tabSize: Math.min(first[1]!.length, 8) };
}
