/**
 * A schema's annotations, the `title` and `description` keywords of each of its subschemas, told
 * apart from the values the arguments must match (`const`, `enum`, `default`, `examples`) and from
 * property names: a walk that knows which positions hold schemas, as `check.ts` does.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";

// Keywords whose value is one schema (`items` may also be a list of them, in draft 4 to 2019-09).
const ONE = new Set([
  "additionalItems",
  "unevaluatedItems",
  "contains",
  "additionalProperties",
  "unevaluatedProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "items",
]);
// Keywords whose value is a list of schemas.
const LIST = new Set(["prefixItems", "allOf", "anyOf", "oneOf", "items"]);
// Keywords whose value maps names to schemas (`dependencies`: those of its values that are not
// lists of names).
const MAP = new Set([
  "$defs",
  "definitions",
  "properties",
  "patternProperties",
  "dependentSchemas",
  "dependencies",
]);
// The annotations rewritten.
const TEXT = new Set(["title", "description"]);

/**
 * A copy of a schema whose `title` and `description` keywords (string values, in the schema and
 * every subschema) went through `rewrite`; everything else, values the arguments must match and
 * property names included, is left as it is (shared, not copied).
 *
 * @param schema A JSON Schema (the catalogue has bounded its nesting).
 * @param rewrite What to make of an annotation's text.
 * @returns The copy.
 *
 * @example Usage
 * ```ts
 * import { mapAnnotations } from "./annotations.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const schema = {
 *   description: "Pick one",
 *   properties: { description: { const: { description: "kept" }, description: "A field" } },
 * };
 * deepEqual(mapAnnotations(schema, (text) => text.toUpperCase()), {
 *   description: "PICK ONE",
 *   properties: { description: { const: { description: "kept" }, description: "A FIELD" } },
 * });
 * ```
 */
export function mapAnnotations(schema: unknown, rewrite: (text: string) => string): unknown {
  if (!isRecord(schema)) return schema;
  const sub = (value: unknown) => mapAnnotations(value, rewrite);
  // Entries, not assignment: a key "__proto__" stays a key.
  return Object.fromEntries(
    Object.entries(schema).map(([keyword, value]) => {
      if (TEXT.has(keyword) && typeof value === "string") return [keyword, rewrite(value)];
      if (LIST.has(keyword) && Array.isArray(value)) return [keyword, value.map(sub)];
      if (ONE.has(keyword)) return [keyword, sub(value)];
      if (MAP.has(keyword) && isRecord(value)) {
        return [keyword, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sub(v)]))];
      }
      return [keyword, value];
    }),
  );
}
