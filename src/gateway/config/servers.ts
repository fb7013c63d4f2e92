/**
 * The server entries of a gateway config, declared once: the `mcpServers` entries MCP hosts
 * already write (stdio: `command`, `args`, `env`, `cwd`; Streamable HTTP: `url`, `headers`, and
 * unfold's `oauth` block), as fields (`_config_fields.ts`). The upstream types written out from
 * them (`config_types.ts`, checked here) go to `connectStdio`/`connectHttp` as they are.
 *
 * @module
 */

import { closestKey } from "../../utils/edit_distance.ts";
import { isRecord } from "../../utils/record.ts";
import type { OAuthSettings } from "../../mcp/oauth/provider.ts";
import {
  type Check,
  expand,
  fail,
  type Field,
  list,
  object,
  type Parsed,
  readShape,
  record,
  refine,
  type Same,
  shapeSchema,
  text,
} from "./_fields.ts";
import type { HttpUpstream, StdioUpstream, UpstreamConfig } from "./types.ts";

/** What a server's name may be: it becomes the first part of its tools' ids. */
export const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
// A key checked but not kept: hosts write `type` ("stdio", "http"…), and `disabled` skips an entry.
const ANY: Field<unknown> & { ignored: true } = { schema: {}, read: (raw) => raw, ignored: true };
const STRING: Field<string> = {
  schema: { type: "string" },
  read: (raw, at) => typeof raw === "string" ? expand(raw, at) : fail(at, "must be a string"),
};
// Hosts write `null` for no arguments or no variables: it reads as the key's absence.
function orNull<T>(field: Field<T>, fill: () => T): Field<T> & { fill: () => T } {
  return { ...field, fill, read: (raw, at) => raw === null ? fill() : field.read(raw, at) };
}
const STRINGS = orNull(record(STRING, "must be an object of strings"), () => ({}));

// A URL, or undefined (URL.parse is not in every runtime the Worker may meet).
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The keys of a stdio server entry. */
export const STDIO = {
  command: { ...text(), required: true },
  args: orNull(list(STRING, "must be an array of strings"), (): string[] => []),
  env: STRINGS,
  cwd: text(),
  type: ANY,
  disabled: ANY,
} as const satisfies Record<string, Field<unknown>>;

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** The keys of a Streamable HTTP server's `oauth` block (`unfold login`). */
export const OAUTH_KEYS = {
  clientId: text(),
  clientSecret: text(),
  scopes: list<string>({
    schema: { type: "string", pattern: SCOPE.source },
    read: (raw, at) =>
      typeof raw === "string" && SCOPE.test(raw)
        ? raw
        : fail(at, "must be a scope: a non-empty string without spaces"),
  }, "must be an array of scopes"),
  clientMetadataUrl: refine(text(), (value, at) => {
    const url = urlOf(value);
    if (url?.protocol !== "https:" || url.pathname === "/") {
      fail(at, "must be an https: URL with a path (a metadata document)");
    }
  }),
};
const OAUTH_OBJECT = object(
  OAUTH_KEYS,
  "the oauth block takes",
  `must be an object with ${Object.keys(OAUTH_KEYS).join(", ")} (each optional)`,
);
const OAUTH: Field<OAuthSettings> = refine(OAUTH_OBJECT, (value, at) => {
  if (value.clientSecret !== undefined && value.clientId === undefined) {
    fail(at, 'needs "clientId": a secret belongs to a pre-registered client', "clientSecret");
  }
});

/** The keys of a Streamable HTTP server entry. */
export const HTTP = {
  url: {
    ...refine(text(), (url, at) => {
      const parsed = urlOf(url);
      if (parsed === undefined) fail(at, `${JSON.stringify(url)} is not a URL`);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
        fail(at, "must be an http: or https: URL");
      }
    }),
    required: true,
  },
  headers: STRINGS,
  oauth: OAUTH,
  type: ANY,
  disabled: ANY,
} as const satisfies Record<string, Field<unknown>>;

// The public types are these, written out (`config_types.ts`) so that JSR and `deno doc` need
// no inference: this fails to compile until `scripts/build_config_schema.ts` writes them again.
type _WrittenOut = Check<[
  Same<StdioUpstream, { server: string } & Parsed<typeof STDIO>>,
  Same<HttpUpstream, { server: string } & Parsed<typeof HTTP>>,
]>;

/** A server entry of `mcpServers`: stdio or Streamable HTTP by its keys, or `"disabled": true`. */
export const SERVER: Field<UpstreamConfig | undefined> = {
  schema: {
    anyOf: [
      shapeSchema(STDIO),
      shapeSchema(HTTP),
      { type: "object", properties: { disabled: { const: true } }, required: ["disabled"] },
    ],
  },
  read(raw, at) {
    if (!isRecord(raw)) return fail(at, "must be an object");
    if (raw.disabled === true) return undefined;
    // A mistyped key ("comand") is named with the key it meant before anything else is judged.
    const keys = [...new Set([...Object.keys(STDIO), ...Object.keys(HTTP)])];
    for (const key of Object.keys(raw)) {
      const meant = keys.includes(key) ? undefined : closestKey(key, keys);
      if (meant !== undefined) {
        fail(at, `unknown field: did you mean ${JSON.stringify(meant)}?`, key);
      }
    }
    const stdio = Object.hasOwn(raw, "command");
    if (stdio === Object.hasOwn(raw, "url")) {
      fail(at, 'needs either "command" (a stdio server) or "url" (a Streamable HTTP server)');
    }
    const unknown = Object.keys(raw).find((key) => !Object.hasOwn(stdio ? STDIO : HTTP, key));
    if (unknown !== undefined) {
      fail(at, `unknown field for a ${stdio ? "stdio" : "Streamable HTTP"} server`, unknown);
    }
    const server = at.path[at.path.length - 1]!;
    return stdio
      ? { server, ...readShape(STDIO, raw, at) }
      : { server, ...readShape(HTTP, raw, at) };
  },
};
