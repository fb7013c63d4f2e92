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
    if (!originAllowed(origin, allowed) && !samePageOrigin(origin, c.req.url)) {
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

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

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
 * import { samePageOrigin } from "./origin.ts";
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
