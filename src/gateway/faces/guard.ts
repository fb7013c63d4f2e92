/**
 * The guard in front of `/mcp`: the `Origin` check against DNS rebinding (and, for a server bound
 * to loopback, the `Host` check), then bearer-token auth, whose tenant namespaces the sessions.
 * The host's token stops here: upstreams only ever get the headers of the config.
 *
 * @module
 */

import { type GuardPolicy, requestGuard } from "../../http/guard.ts";

/** Options of {@linkcode guardMcp}: the policy every HTTP face shares (`src/http/guard.ts`). */
export type GuardOptions = GuardPolicy;

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
  const guard = requestGuard(options);
  return async (request) => {
    const admitted = await guard.admit(request);
    return admitted.ok ? await handler(request, admitted.value) : admitted.error;
  };
}
