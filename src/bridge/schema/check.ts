/**
 * Compiling a tool's input schema once: every keyword the validator reads must hold a value of the
 * right shape, every `pattern` must run on the linear-time engine and every `$ref` must resolve
 * inside the schema. A schema that fails is the catalogue's fault (`invalid_catalog`), found when
 * the catalogue is built rather than blamed on the model at every execute. Linear in the schema.
 *
 * @module
 */

import { dereference, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import { isRecord } from "../../_record.ts";
import { tooDeep } from "../../json_depth.ts";
import { MAX_JSON_DEPTH } from "../../limits.ts";
import { compilePattern } from "./pattern.ts";

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

const DRAFTS: Record<string, SchemaDraft> = {
  "draft-04": "4",
  "draft-06": "7",
  "draft-07": "7",
  "2019-09": "2019-09",
  "2020-12": "2020-12",
};
const TYPES = new Set(["array", "boolean", "integer", "null", "number", "object", "string"]);
const ONE = ["additionalItems", "unevaluatedItems", "contains", "additionalProperties"]
  .concat(["unevaluatedProperties", "propertyNames", "not", "if", "then", "else"]);
const MANY = ["prefixItems", "allOf", "anyOf", "oneOf"];
const MAP = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas"];
const COUNTS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties"]
  .concat(["maxProperties", "minContains", "maxContains"]);
const STRINGS = ["$id", "id", "$anchor", "$schema", "format"];

/**
 * Checks and compiles an input schema.
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
  const error = walk(schema, refs);
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
    if (target === undefined || lookup[target] === undefined) {
      const rule = `${JSON.stringify(node.$ref)} does not resolve to a subschema of this schema`;
      return { ok: false, error: fail("$ref", `${pointer}/$ref`, rule) };
    }
  }
  return { ok: true, value: { schema, draft, lookup } };
}

// Checks every subschema's keywords, without recursion; collects the subschemas that hold $ref.
function walk(
  root: Schema,
  refs: Array<{ node: Schema; pointer: string }>,
): SchemaError | undefined {
  const stack: Array<{ node: unknown; pointer: string }> = [{ node: root, pointer: "" }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop()!;
    if (typeof node === "boolean") continue;
    if (!isRecord(node)) return fail("(schema)", pointer, "must be an object or a boolean");
    const at = (keyword: string) => `${pointer}/${escape(keyword)}`;
    const push = (value: unknown, path: string) => stack.push({ node: value, pointer: path });
    const type = node.type;
    if (type !== undefined && !isTypes(type)) {
      return fail(
        "type",
        at("type"),
        `must be one of ${[...TYPES].map((t) => `"${t}"`).join(", ")} or a list of them`,
      );
    }
    for (const keyword of ONE) {
      if (node[keyword] !== undefined) push(node[keyword], at(keyword));
    }
    if (node.items !== undefined) {
      if (Array.isArray(node.items)) node.items.forEach((s, i) => push(s, `${at("items")}/${i}`));
      else push(node.items, at("items"));
    }
    for (const keyword of MANY) {
      const list = node[keyword];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.length === 0) {
        return fail(keyword, at(keyword), "must be a non-empty array of schemas");
      }
      list.forEach((s, i) => push(s, `${at(keyword)}/${i}`));
    }
    for (const keyword of MAP) {
      const map = node[keyword];
      if (map === undefined) continue;
      if (!isRecord(map)) return fail(keyword, at(keyword), "must be an object of schemas");
      for (const [key, value] of Object.entries(map)) {
        if (keyword === "patternProperties") {
          const compiled = compilePattern(key);
          if (!compiled.ok) return fail(keyword, `${at(keyword)}/${escape(key)}`, compiled.why);
        }
        push(value, `${at(keyword)}/${escape(key)}`);
      }
    }
    if (node.dependencies !== undefined) {
      const map = node.dependencies;
      if (!isRecord(map)) return fail("dependencies", at("dependencies"), "must be an object");
      for (const [key, value] of Object.entries(map)) {
        const path = `${at("dependencies")}/${escape(key)}`;
        if (!isStrings(value)) push(value, path);
      }
    }
    const broken = keywordShapes(node, at);
    if (broken !== undefined) return broken;
    if (node.$ref !== undefined) refs.push({ node: node as Schema, pointer });
  }
  return undefined;
}

// The keywords whose values are not subschemas.
function keywordShapes(
  node: Record<string, unknown>,
  at: (keyword: string) => string,
): SchemaError | undefined {
  for (const keyword of COUNTS) {
    const value = node[keyword];
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) >= 0)) {
      return fail(keyword, at(keyword), "must be a non-negative integer");
    }
  }
  for (const keyword of ["minimum", "maximum"]) {
    if (node[keyword] !== undefined && !Number.isFinite(node[keyword])) {
      return fail(keyword, at(keyword), "must be a number");
    }
  }
  for (const keyword of ["exclusiveMinimum", "exclusiveMaximum"]) {
    const value = node[keyword];
    if (value !== undefined && !Number.isFinite(value) && typeof value !== "boolean") {
      return fail(keyword, at(keyword), "must be a number (or a boolean in draft 4)");
    }
  }
  if (node.multipleOf !== undefined && !((node.multipleOf as number) > 0)) {
    return fail("multipleOf", at("multipleOf"), "must be a number greater than 0");
  }
  for (const keyword of STRINGS) {
    if (node[keyword] !== undefined && typeof node[keyword] !== "string") {
      return fail(keyword, at(keyword), "must be a string");
    }
  }
  if (node.$ref !== undefined && typeof node.$ref !== "string") {
    return fail("$ref", at("$ref"), "must be a string");
  }
  if (node.$recursiveRef !== undefined && node.$recursiveRef !== "#") {
    return fail("$recursiveRef", at("$recursiveRef"), 'is supported only as "#"');
  }
  if (node.$dynamicRef !== undefined) {
    return fail(
      "$dynamicRef",
      at("$dynamicRef"),
      "is not supported: arguments could not be checked",
    );
  }
  if (node.pattern !== undefined) {
    if (typeof node.pattern !== "string") return fail("pattern", at("pattern"), "must be a string");
    const compiled = compilePattern(node.pattern);
    if (!compiled.ok) return fail("pattern", at("pattern"), compiled.why);
  }
  if (node.enum !== undefined && !Array.isArray(node.enum)) {
    return fail("enum", at("enum"), "must be an array");
  }
  if (node.uniqueItems !== undefined && typeof node.uniqueItems !== "boolean") {
    return fail("uniqueItems", at("uniqueItems"), "must be a boolean");
  }
  if (node.required !== undefined && !isStrings(node.required)) {
    return fail("required", at("required"), "must be an array of strings");
  }
  if (node.dependentRequired !== undefined) {
    const map = node.dependentRequired;
    if (!isRecord(map) || !Object.values(map).every(isStrings)) {
      return fail(
        "dependentRequired",
        at("dependentRequired"),
        "must map names to arrays of strings",
      );
    }
  }
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
