/**
 * What the config's declaration (`config_model.ts`) gives besides the parser: the JSON Schema
 * editors read through `"$schema"` (`docs/unfold.schema.json`) and the rows of the docs' key
 * table of the `unfold` block (`docs/gateway.md`), both with the words of `config_docs.ts`.
 * `scripts/build_config_schema.ts` writes them; `test/gateway/config_schema_test.ts` checks that
 * the committed ones are these.
 *
 * @module
 */

import type { JsonSchema, Shape } from "./_config_fields.ts";
import { shapeSchema } from "./_config_fields.ts";
import { CONFIG_WORDS, type KeyWords } from "./config_docs.ts";
import { CONFIG, PROFILE, UNFOLD } from "./config_model.ts";
import { HTTP, OAUTH_KEYS, SERVER, STDIO } from "./config_servers.ts";

// Editors show descriptions as plain text: no code marks, links as their text.
function plain(text: string): string {
  return text.replaceAll("`", "").replace(/\[([^\]]+)\]\([^)]+\)/g, "$1");
}

// The schema of a shape, each key described, some keys' schemas given in full (nested shapes).
function described(
  shape: Shape,
  words: { readonly [key: string]: KeyWords },
  nested: Record<string, JsonSchema> = {},
): JsonSchema {
  const schema = shapeSchema(shape);
  schema.properties = Object.fromEntries(
    Object.keys(shape).map((key) => {
      const [values, fallback] = words[key]!;
      const description = plain(
        fallback === undefined ? values : `${values}. Default: ${fallback}`,
      );
      return [key, { description, ...(nested[key] ?? shape[key]!.schema) }];
    }),
  );
  return schema;
}

/**
 * The JSON Schema (draft-07) of a gateway config, for editors.
 *
 * @returns The schema.
 *
 * @example Usage
 * ```ts
 * import { configSchema } from "./config_schema.ts";
 * import { equal } from "node:assert/strict";
 *
 * const schema = configSchema() as { properties: { unfold: { additionalProperties: boolean } } };
 * equal(schema.properties.unfold.additionalProperties, false);
 * ```
 */
export function configSchema(): JsonSchema {
  const words = CONFIG_WORDS;
  const profile = described(PROFILE, words.profile);
  const unfold = described(UNFOLD, words.unfold, {
    profiles: { ...UNFOLD.profiles.schema, additionalProperties: profile },
  });
  const http = described(HTTP, words.http, { oauth: described(OAUTH_KEYS, words.oauth) });
  const [, , disabled] = SERVER.schema.anyOf as JsonSchema[];
  const server = { anyOf: [described(STDIO, words.stdio), http, disabled] };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "unfold gateway config",
    ...described(CONFIG, words.config, {
      mcpServers: { ...CONFIG.mcpServers.schema, additionalProperties: server },
      unfold,
    }),
  };
}

/**
 * The docs' table of the `unfold` block: one row per key, `[key, values, default]`.
 *
 * @returns The rows, in the model's order.
 *
 * @example Usage
 * ```ts
 * import { unfoldKeyRows } from "./config_schema.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(unfoldKeyRows()[0], ["`availableContextTokens`", "whole number, 1 to 10,000,000", "100,000 (`DEFAULT_CONFIG`)"]);
 * ```
 */
export function unfoldKeyRows(): string[][] {
  return Object.keys(UNFOLD).map((key) => {
    const [values, fallback] = CONFIG_WORDS.unfold[key as keyof typeof UNFOLD];
    return [`\`${key}\``, values, fallback ?? "none"];
  });
}
