/**
 * The keys of a profile (`unfold.profiles.NAME`), declared with zod as the rest of the config
 * (`model.ts`), and the tool ids both a profile and the `unfold` block's `pinned` name: a server
 * of the config's before the first `/`, and no two listed under one name.
 *
 * @module
 */

import * as z from "zod/mini";
import { CODE_MODES } from "../../code_mode/limits.ts";
import { checkConfig, type ProgressiveConfig } from "../../config.ts";
import { judged, key, once, problem, rule, shape, text } from "./_declare.ts";
import { closest, globMatch } from "./_name_match.ts";
import { reading } from "./_reading.ts";

/** What a server name the config lacks is told (with the closest it has, by default). */
export const notIn = (server: string, servers: readonly string[], suggest = true): string =>
  `names the server ${JSON.stringify(server)}, which is not in mcpServers${
    suggest ? closest(server, servers) : ""
  }`;

/** The server part of a tool id `server/tool`: what is before the first slash. */
export const serverOf = (id: string): string => id.slice(0, id.indexOf("/"));
/** Whether a text is a tool id `server/tool`: both parts non-empty. */
export const isToolId = (id: string): boolean =>
  id.indexOf("/") >= 1 && id.indexOf("/") < id.length - 1;

/**
 * Pinned ids that are listed under distinct names: a pinned tool is listed as server__tool, and
 * two ids that make the same name would be two tools of one name, only one of them reachable.
 */
export const distinctNames: z.core.$ZodCheck<string[]> = z.superRefine((ids: string[], ctx) => {
  const seen = new Map<string, string>();
  ids.forEach((id, i) => {
    const name = `${serverOf(id)}__${id.slice(id.indexOf("/") + 1)}`;
    const other = seen.get(name) ?? id;
    const both = `${JSON.stringify(id)} and ${JSON.stringify(other)}`;
    if (other !== id) {
      const why = `${both} would both be listed as ${JSON.stringify(name)}: pin only one of them`;
      problem(ctx, ids, why, `${i}`);
    }
    seen.set(name, other);
  });
});

// A profile's list of names: non-empty strings, each checked, kept once each.
function names(
  check: (item: string) => string | undefined,
  ...whole: z.core.$ZodCheck<string[]>[]
) {
  const item = "must be a non-empty string";
  const each = z.string({ error: item }).check(
    z.minLength(1, { error: item, abort: true }),
    rule(check),
  );
  const list = z.array(each, { error: "must be an array of non-empty strings" });
  return z.exactOptional(once(list.check(...whole)));
}

// A tool pattern of a profile: `server/glob`, `!` excluding (tools), no `*` (pinned).
const toolPattern = (pinned: boolean) => (item: string): string | undefined => {
  const pattern = !pinned && item.startsWith("!") ? item.slice(1) : item;
  if (!isToolId(pattern)) return 'must be "server/tool" (tools: "*" globs, "!" excludes)';
  if (pinned && pattern.includes("*")) return "must be a tool id, not a pattern";
  const { servers } = reading();
  const server = serverOf(pattern);
  return servers.some((s) => globMatch(server, s)) ? undefined : notIn(server, servers);
};

// A profile's bearer token: `${VAR}` expanded, never empty or with white space (a header could
// not carry it).
const TOKEN = text({ nonEmpty: false }).check(
  z.refine(judged((token: string) => /^\S+$/.test(token)), {
    error: "must be a non-empty token without spaces",
  }),
).register(z.globalRegistry, { pattern: "^\\S+$" });
const TOKENS_PROBLEM = "must be an array of strings (${VAR} reads the environment)";
const POSITIVE = "must be a positive integer";

/** What `maxResultTokens` takes, as the docs say it (the `unfold` block's and a profile's). */
export const RESULT_TOKENS_WORDS =
  "`0` (no ceiling), or a whole number 100 to 10,000,000: the most tokens one answer carries";
/** What an absent `maxResultTokens` stands for. */
export const RESULT_TOKENS_FALLBACK =
  "10 % of `availableContextTokens`, at least 1,000, at most 25,000";
/** What `maxResultBytes` takes, as the docs say it. */
export const RESULT_BYTES_WORDS =
  "`0` (no ceiling), or whole bytes up to 1 GiB: images, audio and blobs in one answer";
/** What an absent `maxResultBytes` stands for. */
export const RESULT_BYTES_FALLBACK = "1,048,576 (1 MiB)";

// A result ceiling of a profile, judged by the injector's own rules (as the block's is).
function ceiling(name: "maxResultTokens" | "maxResultBytes") {
  const said = (value: unknown) => {
    const checked = checkConfig({ [name]: value } as Partial<ProgressiveConfig>);
    return checked.ok ? undefined : checked.error.message;
  };
  return z.exactOptional(z.int({ error: (issue) => said(issue.input) }).check(rule(said)));
}

/** The keys of a profile (`unfold.profiles.NAME`). */
export const PROFILE = shape({
  servers: key(
    names((server) =>
      reading().servers.includes(server) ? undefined : notIn(server, reading().servers)
    ),
    "the servers it uses",
    "all of them",
  ),
  tools: key(
    names(toolPattern(false)),
    "patterns `server/tool`: `*` within a part, `!` excludes",
    "every tool of its servers",
  ),
  pinned: key(
    names(toolPattern(true), distinctNames),
    "its own pinned tools",
    "the config's pinned tools that are in the profile",
  ),
  availableContextTokens: key(
    z.exactOptional(z.int({ error: POSITIVE }).check(z.gte(1, { error: POSITIVE }))),
    "its own context size, in tokens",
    "the config's",
  ),
  learn: key(
    z.exactOptional(z.boolean({ error: "must be true or false" })),
    "its own `learn`",
    "the config's",
  ),
  codeMode: key(
    z.exactOptional(z.enum(CODE_MODES, {
      error: `must be one of ${CODE_MODES.map((m) => JSON.stringify(m)).join(", ")}`,
    })),
    "its own `codeMode`",
    "the config's",
  ),
  maxResultTokens: key(ceiling("maxResultTokens"), "its own `maxResultTokens`", "the config's"),
  maxResultBytes: key(ceiling("maxResultBytes"), "its own `maxResultBytes`", "the config's"),
  tokens: key(
    z.exactOptional(once(z.array(TOKEN, { error: TOKENS_PROBLEM }))),
    "bearer tokens of its own clients (`${VAR}` expanded)",
    "none",
  ),
}, "a profile takes");
