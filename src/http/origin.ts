/**
 * Which browser origins may call the API: a request that carries an `Origin` header is refused
 * unless the origin is allowed (`UNFOLD_ALLOWED_ORIGINS`), so neither a cross-site page nor a
 * DNS-rebound one can reach the sessions; allowed origins get CORS headers and preflights.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import { problem } from "./problems.ts";
import { SETTING_VARIABLES } from "./settings.ts";

/**
 * Whether a request's `Origin` may call the API. No `Origin` (a server, a script, an SDK) always
 * may; `*` in the list allows every origin.
 *
 * @param origin The `Origin` header, if any.
 * @param allowed The allowed origins (`https://app.example.com`), or `["*"]`.
 * @returns Whether the request may go on.
 *
 * @example Usage
 * ```ts
 * import { originAllowed } from "./origin.ts";
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
 * Middleware that refuses a request from an origin not allowed (403 `origin_not_allowed`) and
 * answers allowed origins with CORS headers, preflights included (before authentication: a
 * preflight carries no token).
 *
 * @param allowed The allowed origins, or `["*"]`.
 * @returns The middleware.
 *
 * @example Usage
 * ```ts
 * import { originGuard } from "./origin.ts";
 * import { Hono } from "hono";
 * import { equal } from "node:assert/strict";
 *
 * const app = new Hono().use(originGuard(["https://app.example"])).get("/", (c) => c.text("ok"));
 * equal((await app.request("/", { headers: { origin: "https://evil.example" } })).status, 403);
 * const allowed = await app.request("/", { headers: { origin: "https://app.example" } });
 * equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
 * ```
 */
export function originGuard(allowed: readonly string[]): MiddlewareHandler {
  const withCors = cors({
    origin: (origin) => origin,
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: ["authorization", "content-type"],
    maxAge: 600,
  });
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined) return await next();
    if (!originAllowed(origin, allowed)) {
      return problem(
        "origin_not_allowed",
        `The origin ${
          JSON.stringify(origin.slice(0, 200))
        } may not call this API: list it in ${SETTING_VARIABLES.allowedOrigins}`,
        undefined,
        { vary: "Origin" },
      );
    }
    return await withCors(c, next);
  };
}
