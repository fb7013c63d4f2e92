/**
 * Bearer-token authentication for the HTTP API: constant-time token comparison, and the tenant
 * namespace (a hash of the token) that keeps one caller's sessions away from another's.
 *
 * @module
 */

import type { Hasher } from "../canonical_json.ts";

/** Decides who a request is. */
export interface Authenticator {
  /**
   * The tenant of a request.
   *
   * @param authorization The `Authorization` header, if any.
   * @returns The tenant namespace (`""` when auth is off), or `null` when the token is missing or wrong.
   */
  tenant(authorization: string | undefined): Promise<string | null>;
}

/**
 * Makes an authenticator for a list of accepted tokens; with none, every request is the tenant `""`.
 *
 * @param tokens The accepted bearer tokens.
 * @param hash Hashes text (SHA-256 hex).
 * @returns The authenticator.
 *
 * @example Usage
 * ```ts
 * import { bearerAuthenticator } from "./auth.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal, notEqual } from "node:assert/strict";
 *
 * const auth = bearerAuthenticator(["s3cret", "other"], sha256Hex);
 * equal(await auth.tenant("Bearer nope"), null);
 * equal(await auth.tenant(undefined), null);
 * notEqual(await auth.tenant("Bearer s3cret"), await auth.tenant("Bearer other"));
 * ```
 */
export function bearerAuthenticator(tokens: readonly string[], hash: Hasher): Authenticator {
  if (tokens.length === 0) return { tenant: () => Promise.resolve("") };
  const digests = Promise.all(tokens.map(async (t) => await hash(`token:${t}`)));
  return {
    async tenant(authorization) {
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
      if (match === null) return null;
      const presented = await hash(`token:${match[1]}`);
      let found = false;
      // Every configured token is compared in full: timing says nothing about which matched.
      for (const digest of await digests) found = constantTimeEqual(presented, digest) || found;
      return found ? (await hash(`tenant:${presented}`)).slice(0, 32) : null;
    },
  };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
