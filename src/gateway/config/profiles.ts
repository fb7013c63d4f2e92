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

import type { McpTool } from "../../tool.ts";
import { closest, globMatch } from "./_name_match.ts";
import { PROFILE_OVERRIDES } from "./model.ts";
import type { Profile } from "./types.ts";

// A profile's keys are declared with the rest of the config; these are read here from before.
export type { Profile } from "./types.ts";
export { closest, globMatch } from "./_name_match.ts";

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
 * The `unfold` block as a profile narrows it: each key a profile has too (its own context size
 * and pinned tools) in place of the block's.
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
  const narrowed: Record<string, unknown> = { ...options };
  for (const key of PROFILE_OVERRIDES) {
    if (profile[key] !== undefined) narrowed[key] = profile[key];
  }
  return narrowed as T;
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
