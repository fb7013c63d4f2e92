/**
 * What the config's declaration (`config_model.ts`) gives besides the parser: the JSON Schema
 * editors read through `"$schema"` (`docs/unfold.schema.json`), the rows of the docs' key table
 * of the `unfold` block (`docs/gateway.md`) and the public types written out
 * (`config_types.ts`), all with the words of `config_docs.ts`. `scripts/build_config_schema.ts`
 * writes them; `test/gateway/config/schema_test.ts` checks that the committed ones are these.
 *
 * @module
 */

import type { JsonSchema, Shape } from "./_fields.ts";
import { shapeSchema } from "./_fields.ts";
import { CONFIG_WORDS, type KeyWords } from "./docs.ts";
import { CONFIG, PROFILE, UNFOLD } from "./model.ts";
import { HTTP, OAUTH_KEYS, SERVER, STDIO } from "./servers.ts";

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
 * import { configSchema } from "./schema.ts";
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
 * import { unfoldKeyRows } from "./schema.ts";
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

/** The command that writes the generated files again. */
export const REBUILD =
  "deno run --allow-read --allow-write=docs,src/gateway/config/types.ts scripts/build_config_schema.ts";

// The public types, in the order they are written: the shape each is read by, its words, and
// the key the reader adds (the entry's name in its object) with its words.
const INTERFACES = [
  {
    name: "GatewayOptions",
    doc:
      "The `unfold` block as parsed: `pinned` is always there (none: `[]`), the rest when given.",
    shape: UNFOLD as Shape,
    words: CONFIG_WORDS.unfold,
  },
  {
    name: "Profile",
    doc: "One profile (`unfold.profiles.NAME`), as parsed.",
    shape: PROFILE as Shape,
    words: CONFIG_WORDS.profile,
    nameKey: ["name", "Its name: what `--profile` and `/mcp/NAME` use."],
  },
  {
    name: "StdioUpstream",
    doc: "An upstream started as a child process, spoken to over stdio (`connectStdio`'s config).",
    shape: STDIO as Shape,
    words: CONFIG_WORDS.stdio,
    nameKey: ["server", "Its name in `mcpServers`: the first part of its tools' ids."],
  },
  {
    name: "HttpUpstream",
    doc:
      "An upstream reached over Streamable HTTP (`connectHttp`'s config, and its OAuth settings).",
    shape: HTTP as Shape,
    words: CONFIG_WORDS.http,
    nameKey: ["server", "Its name in `mcpServers`: the first part of its tools' ids."],
  },
] as const;

// The objects nested in a key that have a type of their own, by their schema.
const NAMED: readonly (readonly [string, string])[] = [
  [JSON.stringify(shapeSchema(PROFILE)), "Profile"],
  [JSON.stringify(shapeSchema(OAUTH_KEYS)), "OAuthSettings"],
];
const SIMPLE: Record<string, string> = {
  string: "string",
  number: "number",
  integer: "number",
  boolean: "boolean",
  null: "null",
};

// The TypeScript type of the values a schema admits, as far as the declaration uses schemas.
function tsType(schema: JsonSchema): string {
  const named = NAMED.find(([text]) => text === JSON.stringify(schema));
  if (named !== undefined) return named[1];
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).map(tsType).join(" | ");
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Object.keys(schema).length === 0) return "unknown";
  const types = [schema.type].flat();
  if (types.length === 1 && types[0] === "array") {
    const item = tsType((schema.items ?? {}) as JsonSchema);
    return item.includes(" ") ? `(${item})[]` : `${item}[]`;
  }
  if (types.length === 1 && types[0] === "object" && schema.properties === undefined) {
    return `Record<string, ${tsType((schema.additionalProperties ?? {}) as JsonSchema)}>`;
  }
  if (types.every((type) => typeof type === "string" && type in SIMPLE)) {
    return types.map((type) => SIMPLE[type as string]).join(" | ");
  }
  throw new TypeError(`No TypeScript type for the schema ${JSON.stringify(schema)}`);
}

// A JSDoc comment at two spaces' indent: one line when it fits in 100 columns.
function jsDoc(text: string): string[] {
  const safe = text.replaceAll("*/", "*\\/");
  if (safe.length <= 92) return [`  /** ${safe} */`];
  const lines = [""];
  for (const word of safe.split(" ")) {
    const last = lines.length - 1;
    if (lines[last] !== "" && lines[last]!.length + word.length > 94) lines.push(word);
    else lines[last] = lines[last] === "" ? word : `${lines[last]} ${word}`;
  }
  return ["  /**", ...lines.map((line) => `   * ${line}`), "   */"];
}

// A key's words as a sentence: code marks kept, a link to the docs' page as its address.
function sentence([values, fallback]: KeyWords): string {
  const text = `${values}${fallback === undefined ? "" : `. Default: ${fallback}`}.`
    .replace(/\[[^\]]+\]\(#([^)]+)\)/g, "`docs/gateway.md#$1`");
  return text[0]!.toUpperCase() + text.slice(1);
}

/**
 * The module of the config's public types, `src/gateway/config/types.ts`: one interface per
 * object of the declaration, one documented member per key it keeps (filled and required keys
 * always there). Written out so that the published types and docs need nothing but themselves.
 *
 * @returns The module's text, as `deno fmt` lays it out.
 *
 * @example Usage
 * ```ts
 * import { configTypes } from "./schema.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(configTypes().includes("  pinned: string[];\n"));
 * ```
 */
export function configTypes(): string {
  const out = [
    "/**",
    " * The public types of the gateway's configuration, generated from its declaration",
    " * (`config_model.ts`, `config_servers.ts`) and its words (`config_docs.ts`): do not edit.",
    " * Written out so that the published types and their docs stand on their own; `deno check`",
    " * fails where the declaration checks them against its own (`Same`) until this command",
    " * writes them again:",
    ` * \`${REBUILD}\``,
    " *",
    " * @module",
    " */",
    "",
    'import type { OAuthSettings } from "../../mcp/oauth/provider.ts";',
  ];
  for (const { name, doc, shape, words, ...rest } of INTERFACES) {
    out.push("", `/** ${doc} */`, `export interface ${name} {`);
    if ("nameKey" in rest) out.push(...jsDoc(rest.nameKey[1]), `  ${rest.nameKey[0]}: string;`);
    for (const [key, field] of Object.entries(shape)) {
      if (field.ignored) continue;
      const optional = field.required || field.fill !== undefined ? "" : "?";
      const wordsOf = (words as Record<string, KeyWords>)[key]!;
      out.push(...jsDoc(sentence(wordsOf)), `  ${key}${optional}: ${tsType(field.schema)};`);
    }
    out.push("}");
  }
  out.push(
    "",
    "/** One upstream server. */",
    "export type UpstreamConfig = StdioUpstream | HttpUpstream;",
  );
  return `${out.join("\n")}\n`;
}
