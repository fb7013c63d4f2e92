/**
 * The `oauth` block of a Streamable HTTP server entry, checked: `{"clientId"?, "clientSecret"?,
 * "scopes"?, "clientMetadataUrl"?}`. Pure, so the gateway's config parser (Deno and Workers) can
 * use it.
 *
 * @module
 */

import type { OAuthSettings } from "./provider.ts";

/** The fields of the `oauth` block, in the order the docs list them. */
export const OAUTH_FIELDS: readonly string[] = Object.freeze([
  "clientId",
  "clientSecret",
  "scopes",
  "clientMetadataUrl",
]);

/** What is wrong with an `oauth` block: where (a path below it) and what. */
export interface OAuthSettingsProblem {
  /** The path below the block, such as `["scopes", "0"]`; empty for the block itself. */
  path: string[];
  /** What is wrong, in a phrase that follows the path. */
  problem: string;
}

// A scope is a non-empty run of the characters RFC 6749 allows, without spaces.
const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * Checks an `oauth` block; strings pass through `expand` (the config's `${VAR}` substitution).
 *
 * @param raw The block as parsed from JSON.
 * @param expand Substitutes variables in a string found at a path.
 * @returns The settings, or the first problem.
 *
 * @example Usage
 * ```ts
 * import { parseOAuthSettings } from "./settings.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(parseOAuthSettings({ clientId: "abc", scopes: ["repo"] }, (s) => s), { ok: true, value: { clientId: "abc", scopes: ["repo"] } });
 * deepEqual(parseOAuthSettings({ clientSecret: "x" }, (s) => s), { ok: false, error: { path: ["clientSecret"], problem: 'needs "clientId": a secret belongs to a pre-registered client' } });
 * ```
 */
export function parseOAuthSettings(
  raw: unknown,
  expand: (text: string, path: string[]) => string,
): { ok: true; value: OAuthSettings } | { ok: false; error: OAuthSettingsProblem } {
  const fail = (path: string[], problem: string) => ({
    ok: false as const,
    error: { path, problem },
  });
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return fail([], `must be an object with ${OAUTH_FIELDS.join(", ")} (each optional)`);
  }
  const block = raw as Record<string, unknown>;
  const unknown = Object.keys(block).find((key) => !OAUTH_FIELDS.includes(key));
  if (unknown !== undefined) {
    return fail([unknown], `unknown field: the oauth block takes ${OAUTH_FIELDS.join(", ")}`);
  }
  const value: OAuthSettings = {};
  for (const key of ["clientId", "clientSecret", "clientMetadataUrl"] as const) {
    const text = block[key];
    if (text === undefined) continue;
    if (typeof text !== "string" || text === "") return fail([key], "must be a non-empty string");
    value[key] = expand(text, [key]);
  }
  if (value.clientSecret !== undefined && value.clientId === undefined) {
    return fail(["clientSecret"], 'needs "clientId": a secret belongs to a pre-registered client');
  }
  if (value.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(value.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (url?.protocol !== "https:" || url.pathname === "/") {
      return fail(["clientMetadataUrl"], "must be an https: URL with a path (a metadata document)");
    }
  }
  if (block.scopes !== undefined) {
    if (!Array.isArray(block.scopes)) return fail(["scopes"], "must be an array of scopes");
    const scopes: string[] = [];
    for (const [i, scope] of block.scopes.entries()) {
      if (typeof scope !== "string" || !SCOPE.test(scope)) {
        return fail(["scopes", String(i)], "must be a scope: a non-empty string without spaces");
      }
      scopes.push(scope);
    }
    value.scopes = scopes;
  }
  return { ok: true, value };
}
