/**
 * What the config's declaration (`model.ts`, `servers.ts`) gives besides the parser: the JSON
 * Schema editors read through `"$schema"` (`docs/unfold.schema.json`, zod's `toJSONSchema` with
 * each key's words as its description) and the rows of the docs' key table of the `unfold` block
 * (`docs/gateway.md`). `scripts/build_config_schema.ts` writes them;
 * `test/gateway/config/schema_test.ts` checks that the committed ones are these.
 *
 * @module
 */

import * as z from "zod/mini";
import { DOCUMENTED_AS, WORDS } from "./_declare.ts";
import { CONFIG, UNFOLD } from "./model.ts";

/** A JSON Schema (draft-07). */
export type JsonSchema = { [keyword: string]: unknown };

/** The command that writes the schema and the table again. */
export const REBUILD = "deno run --allow-read --allow-write=docs scripts/build_config_schema.ts";

// Editors show descriptions as plain text: no code marks, links as their text.
function plain(text: string): string {
  return text.replaceAll("`", "").replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
}

const PARAMS: z.core.ToJSONSchemaParams = {
  target: "draft-07",
  // What a file may say: the values as written, before `${VAR}` and the defaults.
  io: "input",
  // The parts that parse with a function are replaced by what they stand for, below.
  unrepresentable: "any",
  override({ zodSchema, jsonSchema }) {
    const standsFor = DOCUMENTED_AS.get(zodSchema);
    if (standsFor !== undefined) {
      const { $schema: _, ...schema } = z.toJSONSchema(standsFor, PARAMS) as JsonSchema;
      Object.assign(jsonSchema, schema);
    }
    const words = WORDS.get(zodSchema);
    if (words !== undefined) {
      const { values, fallback } = words;
      const said = fallback === undefined ? values : `${values}. Default: ${fallback}`;
      const rest = { ...jsonSchema };
      for (const name of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[name];
      Object.assign(jsonSchema, { description: plain(said), ...rest });
    }
  },
};

/**
 * The JSON Schema (draft-07) of a gateway config, for editors.
 *
 * @returns The schema.
 *
 * @example Usage
 * ```ts
 * import { configSchema } from "./schema.ts";
 * import { equal } from "node:assert/strict";
 *
 * const schema = configSchema() as { properties: { unfold: { additionalProperties: boolean } } };
 * equal(schema.properties.unfold.additionalProperties, false);
 * ```
 */
export function configSchema(): JsonSchema {
  const { $schema, ...schema } = z.toJSONSchema(CONFIG, PARAMS) as JsonSchema;
  return { $schema, title: "unfold gateway config", ...schema };
}

/**
 * The docs' table of the `unfold` block: one row per key, `[key, values, default]`.
 *
 * @returns The rows, in the declaration's order.
 *
 * @example Usage
 * ```ts
 * import { unfoldKeyRows } from "./schema.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(unfoldKeyRows()[0], ["`availableContextTokens`", "whole number, 1 to 10,000,000", "100,000 (`DEFAULT_CONFIG`)"]);
 * ```
 */
export function unfoldKeyRows(): string[][] {
  return Object.entries(UNFOLD.shape).map(([name, schema]) => {
    const { values, fallback } = WORDS.get(schema)!;
    return [`\`${name}\``, values, fallback ?? "none"];
  });
}
