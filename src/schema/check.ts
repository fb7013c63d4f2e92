/**
 * Compiling a tool's input schema once: every keyword the validator reads must hold a value of the
 * right shape, every `pattern` must be valid ECMAScript and every `$ref` must resolve inside the
 * schema. A schema that fails is the catalogue's fault (`invalid_catalog`), found when the
 * catalogue is built rather than blamed on the model at every execute. A valid pattern that the
 * linear-time engine cannot run is not a fault: it is left to the server and listed as unchecked.
 * Linear in the schema; compiles no pattern (an execute compiles those its arguments reach, under
 * its own budget: see `_validate.ts`).
 *
 * @module
 */

import type { Schema, SchemaDraft } from "@cfworker/json-schema";
import { dereference, resolveReference } from "./_dereference.ts";
import { isRecord } from "../utils/record.ts";
import { compareStrings } from "../utils/compare.ts";
import { tooDeep } from "../utils/json_depth.ts";
import { MAX_JSON_DEPTH } from "../limits.ts";
import { inspectPattern } from "./pattern.ts";

/** A schema ready for the validator: a private copy, its draft and its `$ref` lookup. */
export interface CompiledSchema {
  /** The copy the validator reads (the caller's object is never changed). */
  schema: Schema;
  /** The draft, from `$schema` (2020-12 when absent). */
  draft: SchemaDraft;
  /** Every subschema by absolute URI. */
  lookup: Record<string, Schema | boolean>;
}

/** Where a schema breaks a rule: the keyword, its JSON pointer in the schema, and the rule. */
export interface SchemaError {
  /** The keyword, e.g. `type`, `$ref`, `pattern`. */
  keyword: string;
  /** JSON pointer to the keyword's value in the schema, e.g. `/properties/q/type`. */
  pointer: string;
  /** The rule, in words. */
  rule: string;
}

/** A keyword unfold leaves to the tool's server: where it is, its pattern, and why. */
export interface UncheckedKeyword {
  /** `pattern` or `patternProperties`. */
  keyword: "pattern" | "patternProperties";
  /** JSON pointer to the pattern in the schema: `/properties/q/pattern`, `/patternProperties/^x`. */
  pointer: string;
  /** The pattern. */
  source: string;
  /** Why unfold cannot check it, in words. */
  reason: string;
}

const DRAFTS: Record<string, SchemaDraft> = {
  "draft-04": "4",
  "draft-06": "7",
  "draft-07": "7",
  "2019-09": "2019-09",
  "2020-12": "2020-12",
};
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const TYPE_LIST = [...TYPES].map((t) => `"${t}"`).join(", ");

/**
 * Checks an input schema when a catalogue is built, cheaply (one walk, no copy): every keyword's
 * shape, every pattern, and every `$ref` that can be resolved without URIs (fragments, when the
 * schema declares no nested `$id`). {@linkcode compileSchema} does the rest on first use.
 *
 * @param inputSchema The tool's input schema.
 * @returns The first rule it breaks, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { checkSchema } from "./check.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(checkSchema({ type: "object", properties: { q: { $ref: "#/$defs/q" } }, $defs: { q: {} } }), undefined);
 * equal(checkSchema({ type: "object", properties: { q: { $ref: "#/$defs/missing" } } })?.keyword, "$ref");
 * ```
 */
export function checkSchema(inputSchema: Record<string, unknown>): SchemaError | undefined {
  const result = inspectSchema(inputSchema);
  return result.ok ? undefined : result.error;
}

/**
 * Checks an input schema as {@linkcode checkSchema} does, and lists the keywords unfold leaves to
 * the server: patterns the linear-time engine cannot run (each pattern is inspected, not compiled).
 *
 * @param inputSchema The tool's input schema.
 * @param measured Whether the caller has already found it acyclic and within `MAX_JSON_DEPTH`
 * (the catalogue measures every field of a tool), so that it is not measured twice.
 * @returns The unchecked keywords in pointer order, or the first rule the schema breaks.
 *
 * @example Usage
 * ```ts
 * import { inspectSchema } from "./check.ts";
 * import { equal } from "node:assert/strict";
 *
 * const result = inspectSchema({ type: "object", properties: { q: { pattern: "^(?!x)" } } });
 * equal(result.ok && result.unchecked[0]?.pointer, "/properties/q/pattern");
 * ```
 */
export function inspectSchema(
  inputSchema: Record<string, unknown>,
  measured = false,
): { ok: true; unchecked: UncheckedKeyword[] } | { ok: false; error: SchemaError } {
  const deep = measured ? undefined : tooDeep(inputSchema, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    const rule = `nests deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)`;
    return { ok: false, error: fail("(depth)", deep, rule) };
  }
  const refs: Array<{ node: Schema; pointer: string }> = [];
  const found: Found = { ids: 0, anchors: new Set<string>(), unchecked: [] };
  const error = walk(inputSchema as Schema, refs, found);
  if (error !== undefined) return { ok: false, error };
  // In pointer order, whatever order the walk met them in.
  const unchecked = found.unchecked.sort((a, b) => compareStrings(a.pointer, b.pointer));
  if (found.ids > 0) return { ok: true, unchecked }; // URI resolution: left to compileSchema
  for (const { node, pointer } of refs) {
    const ref = node.$ref as string;
    if (!resolves(inputSchema, ref, found.anchors)) {
      const rule = `${JSON.stringify(ref)} does not resolve to a subschema of this schema`;
      return { ok: false, error: fail("$ref", `${pointer}/$ref`, rule) };
    }
  }
  return { ok: true, unchecked };
}

// What a walk collects: $ids, anchors, and the patterns left to the server.
interface Found {
  ids: number;
  anchors: Set<string>;
  unchecked: UncheckedKeyword[];
}

// A pattern's verdict: an error, or undefined (checkable, or left to the server and listed).
function admit(
  source: string,
  keyword: UncheckedKeyword["keyword"],
  pointer: () => string,
  found: Found,
): string | undefined {
  const verdict = inspectPattern(source);
  if (verdict.kind === "invalid") return verdict.why;
  if (verdict.kind === "unchecked") {
    found.unchecked.push({ keyword, pointer: pointer(), source, reason: verdict.why });
  }
  return undefined;
}

// Whether a $ref resolves in a schema without a nested $id: "#", a JSON pointer or an anchor.
function resolves(root: unknown, ref: string, anchors: Set<string>): boolean {
  if (!ref.startsWith("#")) return false;
  let fragment: string;
  try {
    fragment = decodeURIComponent(ref.slice(1));
  } catch {
    return false;
  }
  if (fragment === "") return true;
  if (!fragment.startsWith("/")) return anchors.has(fragment);
  let node: unknown = root;
  for (const part of fragment.slice(1).split("/")) {
    const key = part.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === "boolean" || isRecord(node);
}

/**
 * Checks and compiles an input schema: the checks of {@linkcode checkSchema}, then a private copy,
 * its `$ref` lookup, and the check that every `$ref` resolves in it.
 *
 * @param inputSchema The tool's input schema.
 * @returns The compiled schema, or the first rule it breaks.
 *
 * @example Usage
 * ```ts
 * import { compileSchema } from "./check.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * equal(compileSchema({ type: "object", properties: { q: { type: "string" } } }).ok, true);
 * const bad = compileSchema({ type: "object", properties: { q: { type: 42 } } });
 * deepEqual(bad.ok ? undefined : bad.error, {
 *   keyword: "type",
 *   pointer: "/properties/q/type",
 *   rule: 'must be one of "array", "boolean", "integer", "null", "number", "object", "string" or a list of them',
 * });
 * ```
 */
export function compileSchema(
  inputSchema: Record<string, unknown>,
): { ok: true; value: CompiledSchema } | { ok: false; error: SchemaError } {
  const deep = tooDeep(inputSchema, MAX_JSON_DEPTH);
  if (deep !== undefined) {
    const rule = `nests deeper than ${MAX_JSON_DEPTH} levels (MAX_JSON_DEPTH)`;
    return { ok: false, error: fail("(depth)", deep, rule) };
  }
  let schema: Schema;
  try {
    schema = structuredClone(inputSchema) as Schema;
  } catch (e) {
    return { ok: false, error: fail("(schema)", "", `is not JSON data (${(e as Error).message})`) };
  }
  const refs: Array<{ node: Schema; pointer: string }> = [];
  const found = { ids: 0, anchors: new Set<string>(), unchecked: [] };
  const error = walk(schema, refs, found);
  if (error !== undefined) return { ok: false, error };
  const declared = typeof schema.$schema === "string" ? schema.$schema : "";
  const draft = Object.entries(DRAFTS).find(([marker]) => declared.includes(marker))?.[1] ??
    "2020-12";
  let lookup: Record<string, Schema | boolean>;
  try {
    lookup = dereference(schema);
  } catch (e) {
    const why = (e as Error).message.split("\n", 1)[0];
    return { ok: false, error: fail("$id", "", `cannot be resolved: ${why}`) };
  }
  for (const { node, pointer } of refs) {
    const target = node.__absolute_ref__ ?? node.$ref;
    if (target === undefined || resolveReference(lookup, target) === undefined) {
      const rule = `${JSON.stringify(node.$ref)} does not resolve to a subschema of this schema`;
      return { ok: false, error: fail("$ref", `${pointer}/$ref`, rule) };
    }
  }
  return { ok: true, value: { schema, draft, lookup } };
}

// A subschema to visit: its parent and the (raw) path segments from the parent to it. Pointers
// are built only for an error, so the walk allocates little.
interface Item {
  node: unknown;
  parent: Item | undefined;
  path: readonly string[];
}

function pointerOf(item: Item | undefined, more: readonly string[] = []): string {
  const parts: string[] = [...more].reverse();
  for (let at = item; at !== undefined; at = at.parent) {
    for (let i = at.path.length - 1; i >= 0; i--) parts.push(at.path[i]!);
  }
  return parts.reverse().map((p) => `/${escape(p)}`).join("");
}

// Checks every subschema's keywords, one pass over each subschema's own keys and no recursion;
// collects the subschemas that hold $ref, and the $ids and anchors.
function walk(
  root: Schema,
  refs: Array<{ node: Schema; pointer: string }>,
  found: Found,
): SchemaError | undefined {
  const stack: Item[] = [{ node: root, parent: undefined, path: [] }];
  const visits: Array<{ item: Item; node: Schema }> = [];
  while (stack.length > 0) {
    const item = stack.pop()!;
    const node = item.node;
    if (typeof node === "boolean") continue;
    if (!isRecord(node)) return fail("(schema)", pointerOf(item), "must be an object or a boolean");
    const push = (value: unknown, ...path: string[]) => {
      stack.push({ node: value, parent: item, path });
    };
    const broken = (keyword: string, rule: string, ...more: string[]) =>
      fail(keyword, pointerOf(item, [keyword, ...more]), rule);
    for (const keyword of Object.keys(node)) {
      const value = node[keyword];
      if (value === undefined) continue;
      switch (keyword) {
        case "type":
          if (!isTypes(value)) {
            return broken(keyword, `must be one of ${TYPE_LIST} or a list of them`);
          }
          break;
        case "additionalItems":
        case "unevaluatedItems":
        case "contains":
        case "additionalProperties":
        case "unevaluatedProperties":
        case "propertyNames":
        case "not":
        case "if":
        case "then":
        case "else":
          push(value, keyword);
          break;
        case "items":
          if (Array.isArray(value)) value.forEach((s, i) => push(s, keyword, `${i}`));
          else push(value, keyword);
          break;
        case "prefixItems":
        case "allOf":
        case "anyOf":
        case "oneOf":
          if (!Array.isArray(value) || value.length === 0) {
            return broken(keyword, "must be a non-empty array of schemas");
          }
          value.forEach((s, i) => push(s, keyword, `${i}`));
          break;
        case "$defs":
        case "definitions":
        case "properties":
        case "patternProperties":
        case "dependentSchemas":
          if (!isRecord(value)) return broken(keyword, "must be an object of schemas");
          for (const key of Object.keys(value)) {
            if (keyword === "patternProperties") {
              const where = () => pointerOf(item, [keyword, key]);
              const why = admit(key, keyword, where, found);
              if (why !== undefined) return broken(keyword, why, key);
            }
            push(value[key], keyword, key);
          }
          break;
        case "dependencies":
          if (!isRecord(value)) return broken(keyword, "must be an object");
          for (const key of Object.keys(value)) {
            if (!isStrings(value[key])) push(value[key], keyword, key);
          }
          break;
        case "minLength":
        case "maxLength":
        case "minItems":
        case "maxItems":
        case "minProperties":
        case "maxProperties":
        case "minContains":
        case "maxContains":
          if (!Number.isSafeInteger(value) || (value as number) < 0) {
            return broken(keyword, "must be a non-negative integer");
          }
          break;
        case "minimum":
        case "maximum":
          if (!Number.isFinite(value)) return broken(keyword, "must be a number");
          break;
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          if (!Number.isFinite(value) && typeof value !== "boolean") {
            return broken(keyword, "must be a number (or a boolean in draft 4)");
          }
          break;
        case "multipleOf":
          if (!((value as number) > 0) || !Number.isFinite(value)) {
            return broken(keyword, "must be a number greater than 0");
          }
          break;
        case "$id":
        case "id":
          if (typeof value !== "string") return broken(keyword, "must be a string");
          if (value.startsWith("#")) found.anchors.add(value.slice(1)); // draft 7's plain names
          else found.ids++;
          break;
        case "$anchor":
          if (typeof value !== "string") return broken(keyword, "must be a string");
          found.anchors.add(value);
          break;
        case "$schema":
        case "format":
          if (typeof value !== "string") return broken(keyword, "must be a string");
          break;
        case "$ref":
          if (typeof value !== "string") return broken(keyword, "must be a string");
          visits.push({ item, node: node as Schema });
          break;
        case "$recursiveRef":
          if (value !== "#") return broken(keyword, 'is supported only as "#"');
          break;
        case "$dynamicRef":
          return broken(keyword, "is not supported: arguments could not be checked");
        case "pattern": {
          if (typeof value !== "string") return broken(keyword, "must be a string");
          const why = admit(value, keyword, () => pointerOf(item, [keyword]), found);
          if (why !== undefined) return broken(keyword, why);
          break;
        }
        case "enum":
          if (!Array.isArray(value)) return broken(keyword, "must be an array");
          break;
        case "uniqueItems":
          if (typeof value !== "boolean") return broken(keyword, "must be a boolean");
          break;
        case "required":
          if (!isStrings(value)) return broken(keyword, "must be an array of strings");
          break;
        case "dependentRequired":
          if (!isRecord(value) || !Object.values(value).every(isStrings)) {
            return broken(keyword, "must map names to arrays of strings");
          }
          break;
      }
    }
  }
  for (const { item, node } of visits) refs.push({ node, pointer: pointerOf(item) });
  return undefined;
}

function isTypes(type: unknown): boolean {
  if (typeof type === "string") return TYPES.has(type);
  return Array.isArray(type) && type.length > 0 &&
    type.every((t) => typeof t === "string" && TYPES.has(t)) && new Set(type).size === type.length;
}

function isStrings(value: unknown): boolean {
  return Array.isArray(value) && value.every((v) => typeof v === "string");
}

function escape(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function fail(keyword: string, pointer: string, rule: string): SchemaError {
  return { keyword, pointer, rule };
}
