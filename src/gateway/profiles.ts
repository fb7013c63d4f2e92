/**
 * Per-client profiles: `"unfold": {"profiles": {"NAME": {...}}}`, each a narrower view of the
 * whole config (some servers, some tools, its own pinned tools and context size). A client of a
 * profile sees, searches, describes and executes only the profile's tools: the others are not in
 * its catalogue at all, so nothing it is told can name them.
 *
 * Tool patterns are `server/tool` where `*` matches any run of characters within that part (never
 * across the `/`); a pattern starting with `!` excludes. Includes apply first (none means every
 * tool of the profile's servers), then excludes.
 *
 * @module
 */

import { editDistance } from "../_edit_distance.ts";
import { isRecord } from "../_record.ts";
import { SESSION_NAME } from "../session/store.ts";
import type { McpTool } from "../tool.ts";

/** One profile, as parsed. */
export interface Profile {
  /** Its name: what `--profile` and `/mcp/NAME` use. */
  name: string;
  /** The servers it may use; absent: every server. */
  servers?: string[];
  /** Tool patterns (`server/glob`, `!server/glob`); absent: every tool of its servers. */
  tools?: string[];
  /** Its own pinned tools; absent: the config's pinned tools that are in the profile. */
  pinned?: string[];
  /** Its own context size, in tokens. */
  availableContextTokens?: number;
  /** Its own bearer tokens over HTTP: each opens this profile only (`/mcp/NAME`, its `/status`). */
  tokens?: string[];
}

const PROFILE_FIELDS = new Set(["servers", "tools", "pinned", "availableContextTokens", "tokens"]);

/** A profile's problem: the place (relative to the profile) and what is wrong. */
export interface ProfileProblem {
  /** The path inside `/unfold/profiles/NAME`. */
  path: string[];
  /** What is wrong. */
  problem: string;
}

/**
 * Checks one profile entry against the configured servers.
 *
 * @param name The profile's name.
 * @param raw Its entry.
 * @param servers The names of the configured servers.
 * @param expand Replaces `${VAR}` in a token (the config's own expansion), given the token and its
 * path in the profile; it throws the config's error for a variable that is not set.
 * @returns The profile, or the first problem.
 *
 * @example Usage
 * ```ts
 * import { parseProfile } from "./profiles.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const ok = parseProfile("work", { servers: ["github"] }, ["github", "memory"]);
 * equal(ok.ok && ok.value.servers?.[0], "github");
 * const bad = parseProfile("work", { servers: ["githb"] }, ["github", "memory"]);
 * match(bad.ok ? "" : bad.error.problem, /did you mean "github"/);
 * ```
 */
export function parseProfile(
  name: string,
  raw: unknown,
  servers: readonly string[],
  expand: (text: string, path: string[]) => string = (text) => text,
): { ok: true; value: Profile } | { ok: false; error: ProfileProblem } {
  const fail = (path: string[], problem: string) => ({
    ok: false as const,
    error: { path, problem },
  });
  if (!SESSION_NAME.test(name)) {
    return fail([], `a profile name is 1 to 128 of A-Z a-z 0-9 . _ : - (it becomes /mcp/NAME)`);
  }
  if (!isRecord(raw)) return fail([], "must be an object");
  for (const key of Object.keys(raw)) {
    if (!PROFILE_FIELDS.has(key)) {
      return fail([key], `unknown field: a profile takes ${[...PROFILE_FIELDS].join(", ")}`);
    }
  }
  const profile: Profile = { name };
  const known = (server: string) => servers.includes(server);
  const unknownServer = (server: string) =>
    `names the server ${JSON.stringify(server)}, which is not in mcpServers${
      closest(server, servers)
    }`;
  for (const field of ["servers", "tools", "pinned"] as const) {
    const list = raw[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.some((item) => typeof item !== "string" || item === "")) {
      return fail([field], "must be an array of non-empty strings");
    }
    for (const [i, item] of (list as string[]).entries()) {
      if (field === "servers" && !known(item)) return fail([field, String(i)], unknownServer(item));
      if (field === "servers") continue;
      const pattern = field === "tools" && item.startsWith("!") ? item.slice(1) : item;
      const slash = pattern.indexOf("/");
      if (slash < 1 || slash === pattern.length - 1) {
        return fail([field, String(i)], 'must be "server/tool" (tools: "*" globs, "!" excludes)');
      }
      const server = pattern.slice(0, slash);
      if (field === "pinned" && pattern.includes("*")) {
        return fail([field, String(i)], "must be a tool id, not a pattern");
      }
      if (!servers.some((s) => globMatch(server, s))) {
        return fail([field, String(i)], unknownServer(server));
      }
    }
    profile[field] = [...new Set(list as string[])];
  }
  if (raw.availableContextTokens !== undefined) {
    const tokens = raw.availableContextTokens;
    if (!(typeof tokens === "number" && Number.isSafeInteger(tokens) && tokens > 0)) {
      return fail(["availableContextTokens"], "must be a positive integer");
    }
    profile.availableContextTokens = tokens;
  }
  if (raw.tokens !== undefined) {
    const list = raw.tokens;
    if (!Array.isArray(list) || list.some((item) => typeof item !== "string")) {
      return fail(["tokens"], "must be an array of strings (${VAR} reads the environment)");
    }
    const tokens = (list as string[]).map((token, i) => expand(token, ["tokens", String(i)]));
    const bad = tokens.findIndex((token) => !/^\S+$/.test(token));
    if (bad >= 0) return fail(["tokens", String(bad)], "must be a non-empty token without spaces");
    profile.tokens = [...new Set(tokens)];
  }
  return { ok: true, value: profile };
}

/**
 * Whether a tool is in a profile: its server allowed, some include pattern matching it (or
 * none given), and no exclude pattern matching it.
 *
 * @param profile The profile.
 * @param tool The tool's server and name.
 * @returns Whether the profile has it.
 *
 * @example Usage
 * ```ts
 * import { inProfile } from "./profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * const profile = { name: "p", tools: ["github/*_issue", "!github/delete_*"] };
 * equal(inProfile(profile, { server: "github", name: "create_issue" }), true);
 * equal(inProfile(profile, { server: "github", name: "delete_issue" }), false);
 * equal(inProfile(profile, { server: "memory", name: "read_graph" }), false);
 * ```
 */
export function inProfile(profile: Profile, tool: Pick<McpTool, "server" | "name">): boolean {
  if (profile.servers !== undefined && !profile.servers.includes(tool.server)) return false;
  const patterns = profile.tools ?? [];
  const includes = patterns.filter((p) => !p.startsWith("!"));
  const excludes = patterns.filter((p) => p.startsWith("!")).map((p) => p.slice(1));
  if (includes.length > 0 && !includes.some((p) => idMatch(p, tool))) return false;
  return !excludes.some((p) => idMatch(p, tool));
}

/**
 * Whether a profile may show a server at all (its state, its refused tools): a server none of
 * whose tools could be in the profile stays unnamed.
 *
 * @param profile The profile.
 * @param server The server's name.
 * @returns Whether the profile can see it.
 *
 * @example Usage
 * ```ts
 * import { profileSeesServer } from "./profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(profileSeesServer({ name: "p", tools: ["github/*"] }, "memory"), false);
 * equal(profileSeesServer({ name: "p", tools: ["github/*"] }, "github"), true);
 * ```
 */
export function profileSeesServer(profile: Profile, server: string): boolean {
  if (profile.servers !== undefined && !profile.servers.includes(server)) return false;
  const includes = (profile.tools ?? []).filter((p) => !p.startsWith("!"));
  return includes.length === 0 ||
    includes.some((p) => globMatch(p.slice(0, p.indexOf("/")), server));
}

function idMatch(pattern: string, tool: Pick<McpTool, "server" | "name">): boolean {
  const slash = pattern.indexOf("/");
  return globMatch(pattern.slice(0, slash), String(tool.server)) &&
    globMatch(pattern.slice(slash + 1), String(tool.name));
}

/**
 * Matches text against a pattern where `*` is any run of characters; linear in practice and at
 * worst the product of both lengths (no regular expression, so no backtracking blow-up on the
 * names an upstream chooses).
 *
 * @param pattern The pattern.
 * @param text The text.
 * @returns Whether the whole text matches.
 *
 * @example Usage
 * ```ts
 * import { globMatch } from "./profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(globMatch("get_*", "get_issue"), true);
 * equal(globMatch("*_issue", "get_pull"), false);
 * ```
 */
export function globMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && pattern[p] !== "*" && pattern[p] === text[t]) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === "*") {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === "*") p++;
  return p === pattern.length;
}

/**
 * The closest of some names to one, as a suggestion (empty when none is close).
 *
 * @param name The name given.
 * @param names The names that exist.
 * @returns `; did you mean "x"?`, or `""`.
 *
 * @example Usage
 * ```ts
 * import { closest } from "./profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(closest("wrok", ["work", "home"]), '; did you mean "work"?');
 * equal(closest("zzzzzz", ["work"]), "");
 * ```
 */
export function closest(name: string, names: readonly string[]): string {
  let best: string | undefined;
  let distance = Infinity;
  for (const candidate of names) {
    const d = editDistance(name, candidate);
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best !== undefined && distance <= Math.max(2, Math.floor(name.length / 3))
    ? `; did you mean ${JSON.stringify(best)}?`
    : "";
}

/**
 * The `unfold` block as a profile narrows it: its own context size and pinned tools.
 *
 * @param options The whole config's block.
 * @param profile The profile.
 * @returns The block for the profile's gateway.
 *
 * @example Usage
 * ```ts
 * import { narrowOptions } from "./profiles.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(narrowOptions({ pinned: ["a/b"] }, { name: "p", availableContextTokens: 8000 }), { pinned: ["a/b"], availableContextTokens: 8000 });
 * ```
 */
export function narrowOptions<
  T extends { pinned: string[]; availableContextTokens?: number },
>(options: T, profile: Profile): T {
  return {
    ...options,
    pinned: profile.pinned ?? options.pinned,
    ...(profile.availableContextTokens === undefined
      ? {}
      : { availableContextTokens: profile.availableContextTokens }),
  };
}

/**
 * The profile's tool patterns without `*` that name no tool a ready server lists: likely typos,
 * said once with the closest id (tools are only known once listed, so this is no config error).
 *
 * @param profile The profile.
 * @param tools Every listed tool.
 * @param ready The servers that have listed their tools.
 * @returns One line per such pattern.
 *
 * @example Usage
 * ```ts
 * import { unmatchedPatterns } from "./profiles.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const tools = [{ server: "gh", name: "create_issue", description: "", inputSchema: {} }];
 * deepEqual(unmatchedPatterns({ name: "p", tools: ["gh/create_isue"] }, tools, ["gh"]), [
 *   'profile "p": "gh/create_isue" matches no tool of gh; did you mean "gh/create_issue"?',
 * ]);
 * ```
 */
export function unmatchedPatterns(
  profile: Profile,
  tools: readonly McpTool[],
  ready: readonly string[],
): string[] {
  const lines: string[] = [];
  for (const pattern of [...(profile.tools ?? []), ...(profile.pinned ?? [])]) {
    const id = pattern.startsWith("!") ? pattern.slice(1) : pattern;
    const slash = id.indexOf("/");
    const server = id.slice(0, slash);
    if (id.includes("*") || !ready.includes(server)) continue;
    const ids = tools.filter((tool) => tool.server === server).map((tool) =>
      `${server}/${tool.name}`
    );
    if (ids.includes(id)) continue;
    lines.push(
      `profile ${JSON.stringify(profile.name)}: ${JSON.stringify(id)} matches no tool of ${server}${
        closest(id, ids)
      }`,
    );
  }
  return lines;
}
