/**
 * The guard in front of `/mcp`: the `Origin` check against DNS rebinding (and, for a server bound
 * to loopback, the `Host` check), then bearer-token auth, whose tenant namespaces the sessions.
 * The host's token stops here: upstreams only ever get the headers of the config.
 *
 * @module
 */

import type { Hasher } from "../canonical_json.ts";
import { sha256Hex } from "../canonical_json.ts";
import { bearerAuthenticator } from "../http/auth.ts";
import { originAllowed, samePageOrigin } from "../http/origin.ts";
import { problem } from "../http/problems.ts";

/** Options of {@linkcode guardMcp}. */
export interface GuardOptions {
  /** Accepted bearer tokens (`UNFOLD_API_TOKEN`); none leaves `/mcp` open. */
  tokens: readonly string[];
  /**
   * Origins allowed besides loopback ones (`http://localhost:*`, `127.0.0.1`, `[::1]`), such as
   * `https://app.example.com`, or `*` (`UNFOLD_ALLOWED_ORIGINS`, as for the HTTP API).
   * @default {[]}
   */
  allowedOrigins?: readonly string[];
  /**
   * Whether the `Host` header must name a loopback host: for a server bound to 127.0.0.1, where a
   * rebinding page's requests carry the attacker's host name.
   * @default {false}
   */
  loopbackOnly?: boolean;
  /**
   * Hashes tokens.
   * @default {sha256Hex}
   */
  hash?: Hasher;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Wraps a `/mcp` handler with the origin, host and token checks. Refusals are
 * `application/problem+json`: 403 `origin_not_allowed`, 401 `unauthorized`.
 *
 * @param handler Serves an accepted request for its tenant.
 * @param options Tokens, allowed origins, loopback binding.
 * @returns The guarded handler.
 *
 * @example Usage
 * ```ts
 * import { guardMcp } from "./guard.ts";
 * import { equal } from "node:assert/strict";
 *
 * const guarded = guardMcp((_request, tenant) => Promise.resolve(new Response(tenant)), { tokens: ["s3cret"] });
 * const evil = new Request("http://127.0.0.1/mcp", { method: "POST", headers: { origin: "http://evil.example.com" } });
 * equal((await guarded(evil)).status, 403);
 * equal((await guarded(new Request("http://127.0.0.1/mcp", { method: "POST" }))).status, 401);
 * const ok = new Request("http://127.0.0.1/mcp", { method: "POST", headers: { authorization: "Bearer s3cret" } });
 * equal((await guarded(ok)).status, 200);
 * ```
 */
export function guardMcp(
  handler: (request: Request, tenant: string) => Promise<Response>,
  options: GuardOptions,
): (request: Request) => Promise<Response> {
  const auth = bearerAuthenticator(options.tokens, options.hash ?? sha256Hex);
  const allowed = options.allowedOrigins ?? [];
  return async (request) => {
    const origin = request.headers.get("origin");
    if (
      origin !== null && !originAllowed(origin, allowed) && !isLoopbackOrigin(origin) &&
      !samePageOrigin(origin, request.url)
    ) {
      return problem(
        "origin_not_allowed",
        `The origin ${
          JSON.stringify(origin.slice(0, 200))
        } may not use this MCP server: list it in UNFOLD_ALLOWED_ORIGINS`,
      );
    }
    if (options.loopbackOnly === true && !isLoopbackHost(request.headers.get("host"))) {
      return problem(
        "origin_not_allowed",
        "This MCP server only answers requests to a loopback host",
      );
    }
    const tenant = await auth.tenant(request.headers.get("authorization") ?? undefined);
    if (tenant === null) {
      return problem("unauthorized", "Send Authorization: Bearer <token>", undefined, {
        "www-authenticate": 'Bearer realm="unfold"',
      });
    }
    return await handler(request, tenant);
  };
}

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.has(url.hostname);
  } catch {
    return false;
  }
}

function isLoopbackHost(host: string | null): boolean {
  if (host === null) return true; // HTTP/1.0 or a client that sends none: no rebinding vector
  try {
    return LOOPBACK.has(new URL(`http://${host}`).hostname);
  } catch {
    return false;
  }
}
