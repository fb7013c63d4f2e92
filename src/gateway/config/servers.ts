/**
 * The server entries of a gateway config, declared once with zod: the `mcpServers` entries MCP
 * hosts already write (stdio: `command`, `args`, `env`, `cwd`; Streamable HTTP: `url`, `headers`,
 * and unfold's `oauth` block), and `type` and `disabled` as other hosts write them. What an entry
 * parses to goes to `connectStdio`/`connectHttp` as it is (`StdioUpstream`, `HttpUpstream`).
 *
 * @module
 */

import * as z from "zod/mini";
import { closestKey } from "../../utils/edit_distance.ts";
import { isRecord } from "../../utils/record.ts";
import { awaitsVariable } from "./_reading.ts";
import {
  byName,
  carry,
  filled,
  judged,
  key,
  none,
  parsedBy,
  problem,
  shape,
  text,
} from "./_declare.ts";

/** What a server's name may be: it becomes the first part of its tools' ids. */
export const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

// Values of args, env and headers: any string, `${VAR}` expanded. Hosts write `null` for none.
const string = () => text({ nonEmpty: false });
const strings = () =>
  filled(z.nullable(byName(z.string(), string(), "must be an object of strings")), none<string>);
// A key other hosts write, checked for nothing and left out of the parsed entry.
const ignored = (values: string, fallback?: string) =>
  key(z.exactOptional(z.unknown()), values, fallback);
const optionalText = (values: string) => key(z.exactOptional(text()), values);

// A URL, or undefined (URL.parse is not in every runtime the Worker may meet).
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** A stdio server entry. */
export const STDIO = shape({
  command: key(text(), "the program of a stdio server"),
  args: key(
    filled(z.nullable(z.array(string(), { error: "must be an array of strings" })), () => []),
    "its arguments",
    "none",
  ),
  env: key(strings(), "environment variables for it, over a safe subset of the gateway's", "none"),
  cwd: key(z.exactOptional(text()), "its working directory", "the gateway's"),
  type: ignored("what other hosts write (`stdio`); ignored"),
  disabled: ignored("`true` leaves the server out", "`false`"),
}, () => "unknown field for a stdio server");

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
const SCOPE_PROBLEM = "must be a scope: a non-empty string without spaces";
const OAUTH_KEYS = {
  clientId: optionalText("a client ID registered with the authorization server beforehand"),
  clientSecret: optionalText("its secret, for a confidential client (needs `clientId`)"),
  scopes: key(
    z.exactOptional(z.array(
      z.string({ error: SCOPE_PROBLEM }).check(z.regex(SCOPE, { error: SCOPE_PROBLEM })),
      { error: "must be an array of scopes" },
    )),
    "scopes to ask for when the server names none",
  ),
  clientMetadataUrl: key(
    z.exactOptional(
      text().check(z.refine(
        judged((value: string) => {
          const url = urlOf(value);
          return url?.protocol === "https:" && url.pathname !== "/";
        }),
        { error: "must be an https: URL with a path (a metadata document)" },
      )),
    ),
    "an https: URL of this client's metadata document",
  ),
};
const OAUTH = shape(
  OAUTH_KEYS,
  "the oauth block takes",
  `must be an object with ${Object.keys(OAUTH_KEYS).join(", ")} (each optional)`,
).check(z.superRefine((oauth, ctx) => {
  if (oauth.clientSecret !== undefined && oauth.clientId === undefined && !awaitsVariable(oauth)) {
    const why = 'needs "clientId": a secret belongs to a pre-registered client';
    problem(ctx, oauth, why, "clientSecret");
  }
}));

/** A Streamable HTTP server entry. */
export const HTTP = shape({
  url: key(
    text().check(
      z.refine(judged((url: string) => urlOf(url) !== undefined), {
        error: (issue) => `${JSON.stringify(issue.input)} is not a URL`,
        abort: true,
      }),
      z.refine(judged((url: string) => ["http:", "https:"].includes(urlOf(url)!.protocol)), {
        error: "must be an http: or https: URL",
      }),
    ),
    "the MCP endpoint of a Streamable HTTP server (`http:` or `https:`)",
  ),
  headers: key(strings(), "headers sent with every request (its own credentials)", "none"),
  oauth: key(
    z.exactOptional(OAUTH),
    "how `unfold login` signs in: `clientId`, `clientSecret`, `scopes`, `clientMetadataUrl`",
  ),
  type: ignored("what other hosts write (`http`, `streamable-http`); ignored"),
  disabled: ignored("`true` leaves the server out", "`false`"),
}, () => "unknown field for a Streamable HTTP server");

/** An entry as parsed: without the keys other hosts write. */
export type Entry<T> = Omit<T, "type" | "disabled">;

// Every key an entry may have: a near miss of any is answered before the entry's kind is judged.
const ENTRY_KEYS = [...new Set([...Object.keys(STDIO.shape), ...Object.keys(HTTP.shape)])];

/**
 * A server entry of `mcpServers`: left out with `"disabled": true`, else stdio or Streamable
 * HTTP by which of `command` and `url` it has (a mistyped key is named with the key it meant
 * before the kind is judged).
 */
export const SERVER = parsedBy((raw: unknown, ctx) => {
  if (!isRecord(raw)) return problem(ctx, raw, "must be an object");
  if (raw.disabled === true) return undefined;
  for (const name of Object.keys(raw)) {
    const meant = ENTRY_KEYS.includes(name) ? undefined : closestKey(name, ENTRY_KEYS);
    if (meant !== undefined) {
      return problem(ctx, raw, `unknown field: did you mean ${JSON.stringify(meant)}?`, name);
    }
  }
  const stdio = Object.hasOwn(raw, "command");
  if (stdio === Object.hasOwn(raw, "url")) {
    const why = 'needs either "command" (a stdio server) or "url" (a Streamable HTTP server)';
    return problem(ctx, raw, why);
  }
  const read = stdio ? z.safeParse(STDIO, raw) : z.safeParse(HTTP, raw);
  if (!read.success) return carry(ctx, read.error.issues) as never;
  const { type: _type, disabled: _disabled, ...entry } = read.data;
  return entry as Entry<z.output<typeof STDIO>> | Entry<z.output<typeof HTTP>>;
}, z.union([STDIO, HTTP, z.looseObject({ disabled: z.literal(true) })]));
