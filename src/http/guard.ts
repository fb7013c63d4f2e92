/**
 * The one guard in front of every HTTP face (`/v1` of the API, `/mcp` and the page's reads of the
 * gateway, on Deno and on Workers), with one policy:
 *
 * 1. A request with an `Origin` passes only if `UNFOLD_ALLOWED_ORIGINS` lists that origin (or
 *    `*`), or if it is the server's own page (the same origin, over HTTPS or on a loopback host).
 *    Other loopback origins are not implied: a page on `localhost:3000` is another program, and a
 *    server that runs tools should not obey it unless the operator lists it.
 * 2. A server bound to a loopback address answers only requests naming a loopback `Host`, as a
 *    DNS-rebound page's requests name the attacker's host (and a same-origin GET sends no `Origin`).
 * 3. With tokens configured, a valid `Authorization: Bearer` is required; its hash is the tenant.
 *
 * Refusals are `application/problem+json`: 403 `origin_not_allowed`, 401 `unauthorized`.
 *
 * @module
 */

import type { Hasher } from "../canonical_json.ts";
import { sha256Hex } from "../canonical_json.ts";
import { type Caller, scopedAuthenticator } from "./auth.ts";
import { problem } from "./problems.ts";
import { SETTING_VARIABLES } from "./settings.ts";

/** The realm of the bearer challenge every face sends with a 401. */
export const BEARER_CHALLENGE = 'Bearer realm="unfold"';

/** Who may call a face. */
export interface GuardPolicy {
  /** Accepted bearer tokens (`UNFOLD_API_TOKEN`); none (and no scoped one) leaves the face open. */
  tokens: readonly string[];
  /**
   * Tokens that open one scope only, by scope (a gateway profile's `tokens`): {@linkcode
   * RequestGuard.admit} refuses them; {@linkcode RequestGuard.caller} says their scope.
   * @default {none}
   */
  scopes?: ReadonlyMap<string, readonly string[]>;
  /**
   * Browser origins allowed besides the server's own page, or `*` (`UNFOLD_ALLOWED_ORIGINS`).
   * @default {[]}
   */
  allowedOrigins?: readonly string[];
  /**
   * Whether the `Host` header must name a loopback host: for a server bound to one
   * ({@linkcode isLoopbackName} of the address it listens on).
   * @default {false}
   */
  loopbackOnly?: boolean;
  /**
   * Hashes tokens.
   * @default {sha256Hex}
   */
  hash?: Hasher;
}

/** A request let in (its tenant: `""` when auth is off) or the response that refuses it. */
export type Admission = { ok: true; value: string } | { ok: false; error: Response };

/** The checks of one {@linkcode GuardPolicy}. */
export interface RequestGuard {
  /**
   * The origin and host checks alone (a CORS preflight carries no token).
   *
   * @param request The request.
   * @returns The refusal, or `undefined` when the request may go on.
   */
  refuse(request: Request): Response | undefined;
  /**
   * Every check: origin, host, then token; a token limited to a scope is refused.
   *
   * @param request The request.
   * @returns The tenant, or the refusal.
   */
  admit(request: Request): Promise<Admission>;
  /**
   * Every check, as {@linkcode RequestGuard.admit}, but a scoped token passes with its scope.
   *
   * @param request The request.
   * @returns The caller, or the refusal.
   */
  caller(request: Request): Promise<{ ok: true; value: Caller } | { ok: false; error: Response }>;
}

/**
 * The refusal of a request without a valid token: one body for every route, so it says nothing
 * of what the route would have been.
 *
 * @returns The 401 problem with its bearer challenge.
 *
 * @example Usage
 * ```ts
 * import { unauthorized } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(unauthorized().status, 401);
 * ```
 */
export function unauthorized(): Response {
  return problem("unauthorized", "Send Authorization: Bearer <token>", undefined, {
    "www-authenticate": BEARER_CHALLENGE,
  });
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Whether a host name (or a listening address) is loopback.
 *
 * @param name A host name such as `127.0.0.1`, `localhost`, `::1` or `[::1]`.
 * @returns Whether it is loopback.
 *
 * @example Usage
 * ```ts
 * import { isLoopbackName } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isLoopbackName("127.0.0.1"), true);
 * equal(isLoopbackName("0.0.0.0"), false);
 * ```
 */
export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.has(name);
}

/**
 * Makes the guard of a policy.
 *
 * @param policy Tokens, allowed origins, loopback binding.
 * @returns The guard.
 *
 * @example Usage
 * ```ts
 * import { requestGuard } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * const guard = requestGuard({ tokens: ["s3cret"], loopbackOnly: true });
 * const at = (headers: Record<string, string>) => new Request("http://127.0.0.1/v1/inject", { headers });
 * equal(guard.refuse(at({ origin: "http://localhost:3000" }))?.status, 403);
 * equal(guard.refuse(at({ origin: "http://127.0.0.1" })), undefined); // its own page
 * equal((await guard.admit(at({}))).ok, false);
 * equal((await guard.admit(at({ authorization: "Bearer s3cret" }))).ok, true);
 * ```
 */
export function requestGuard(policy: GuardPolicy): RequestGuard {
  const auth = scopedAuthenticator(
    policy.tokens,
    policy.scopes ?? new Map(),
    policy.hash ?? sha256Hex,
  );
  const allowed = policy.allowedOrigins ?? [];
  const refuse = (request: Request): Response | undefined => {
    const origin = request.headers.get("origin");
    if (
      origin !== null && !originAllowed(origin, allowed) && !samePageOrigin(origin, request.url)
    ) {
      return problem(
        "origin_not_allowed",
        `The origin ${
          JSON.stringify(origin.slice(0, 200))
        } may not call this API: list it in ${SETTING_VARIABLES.allowedOrigins}`,
        undefined,
        { vary: "Origin" },
      );
    }
    if (policy.loopbackOnly === true && !isLoopbackHost(request.headers.get("host"))) {
      return problem(
        "origin_not_allowed",
        "This server answers only requests to a loopback host",
      );
    }
    return undefined;
  };
  const caller = async (request: Request) => {
    const refused = refuse(request);
    if (refused !== undefined) return { ok: false as const, error: refused };
    const found = await auth.caller(request.headers.get("authorization") ?? undefined);
    return found === null
      ? { ok: false as const, error: unauthorized() }
      : { ok: true as const, value: found };
  };
  return {
    refuse,
    caller,
    async admit(request) {
      const admitted = await caller(request);
      if (!admitted.ok) return admitted;
      return admitted.value.scope === undefined
        ? { ok: true, value: admitted.value.tenant }
        : { ok: false, error: unauthorized() };
    },
  };
}

/**
 * Whether a request's `Origin` is listed. No `Origin` (a server, a script, an SDK) always is;
 * `*` in the list allows every origin.
 *
 * @param origin The `Origin` header, if any.
 * @param allowed The allowed origins (`https://app.example.com`), or `["*"]`.
 * @returns Whether the request may go on.
 *
 * @example Usage
 * ```ts
 * import { originAllowed } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(originAllowed(undefined, []), true);
 * equal(originAllowed("https://evil.example", []), false);
 * equal(originAllowed("https://app.example", ["https://app.example"]), true);
 * ```
 */
export function originAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  return origin === undefined || allowed.includes("*") || allowed.includes(origin);
}

/**
 * Whether a browser request comes from a page this server itself served (the status page): its
 * `Origin` is the request's own origin, over HTTPS or on a loopback host. Plain HTTP on another
 * host is left out, as there a DNS-rebinding page's origin would equal the request's too.
 *
 * @param origin The `Origin` header.
 * @param url The request's URL (its host from the `Host` header).
 * @returns Whether it is the server's own page.
 *
 * @example Usage
 * ```ts
 * import { samePageOrigin } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(samePageOrigin("http://127.0.0.1:8787", "http://127.0.0.1:8787/v1/inject"), true);
 * equal(samePageOrigin("http://evil.example:8787", "http://evil.example:8787/v1/inject"), false);
 * equal(samePageOrigin("https://unfold.example.com", "https://unfold.example.com/v1/inject"), true);
 * ```
 */
export function samePageOrigin(origin: string, url: string): boolean {
  let own: URL;
  try {
    own = new URL(url);
  } catch {
    return false;
  }
  if (origin !== own.origin) return false;
  return own.protocol === "https:" || LOOPBACK_NAMES.has(own.hostname);
}

function isLoopbackHost(host: string | null): boolean {
  if (host === null) return true; // HTTP/1.0 or a client that sends none: no rebinding vector
  try {
    return LOOPBACK_NAMES.has(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
