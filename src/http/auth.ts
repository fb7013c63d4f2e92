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

/** Who a request is: its tenant, and the one scope its token is limited to (none: everything). */
export interface Caller {
  /** The tenant namespace (`""` when auth is off). */
  tenant: string;
  /** The scope its token opens alone (a gateway profile's name); absent for a token that opens all. */
  scope?: string;
}

/** Decides who a request is, and what its token opens. */
export interface ScopedAuthenticator {
  /**
   * The caller of a request.
   *
   * @param authorization The `Authorization` header, if any.
   * @returns The caller, or `null` when the token is missing or wrong.
   */
  caller(authorization: string | undefined): Promise<Caller | null>;
}

/**
 * Makes an authenticator for tokens that open everything and tokens that open one scope each.
 * With no token at all, every request is the tenant `""` with no scope (auth off); with any, a
 * request needs one of them.
 *
 * @param tokens The accepted bearer tokens that open everything.
 * @param scoped The tokens of each scope, by scope.
 * @param hash Hashes text (SHA-256 hex).
 * @returns The authenticator.
 *
 * @example Usage
 * ```ts
 * import { scopedAuthenticator } from "./auth.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * const auth = scopedAuthenticator(["all"], new Map([["work", ["w"]]]), sha256Hex);
 * equal((await auth.caller("Bearer w"))?.scope, "work");
 * equal((await auth.caller("Bearer all"))?.scope, undefined);
 * equal(await auth.caller("Bearer nope"), null);
 * ```
 */
export function scopedAuthenticator(
  tokens: readonly string[],
  scoped: ReadonlyMap<string, readonly string[]>,
  hash: Hasher,
): ScopedAuthenticator {
  const entries = [
    ...tokens.map((token) => ({ token, scope: undefined as string | undefined })),
    ...[...scoped].flatMap(([scope, list]) => list.map((token) => ({ token, scope }))),
  ];
  if (entries.length === 0) return { caller: () => Promise.resolve({ tenant: "" }) };
  const digests = Promise.all(
    entries.map(async ({ token, scope }) => ({ digest: await hash(`token:${token}`), scope })),
  );
  return {
    async caller(authorization) {
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
      if (match === null) return null;
      const presented = await hash(`token:${match[1]}`);
      let found: { scope: string | undefined } | undefined;
      // Every configured token is compared in full: timing says nothing about which matched.
      for (const entry of await digests) {
        if (constantTimeEqual(presented, entry.digest) && found === undefined) found = entry;
      }
      if (found === undefined) return null;
      const tenant = (await hash(`tenant:${presented}`)).slice(0, 32);
      return found.scope === undefined ? { tenant } : { tenant, scope: found.scope };
    },
  };
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
  const scoped = scopedAuthenticator(tokens, new Map(), hash);
  return { tenant: async (authorization) => (await scoped.caller(authorization))?.tenant ?? null };
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
