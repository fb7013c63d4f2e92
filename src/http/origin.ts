/**
 * The guard of `guard.ts` as Hono middleware for `/v1`: refused origins and hosts stop here, and
 * allowed origins get CORS headers and preflights.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { RequestGuard } from "./guard.ts";
import type { AppEnv } from "./shapes.ts";

/**
 * Middleware that refuses what the guard refuses, answers allowed origins with CORS headers,
 * preflights included (before authentication: a preflight carries no token), then sets the
 * request's tenant or refuses it for its token.
 *
 * @param guard The guard of the face's policy.
 * @returns The two middlewares, in order: origin and host (with CORS), then token.
 *
 * @example Usage
 * ```ts
 * import { originGuard } from "./origin.ts";
 * import { requestGuard } from "./guard.ts";
 * import { Hono } from "hono";
 * import { equal } from "node:assert/strict";
 *
 * const guard = requestGuard({ tokens: [], allowedOrigins: ["https://app.example"] });
 * const app = new Hono().use(...originGuard(guard)).get("/", (c) => c.text("ok"));
 * equal((await app.request("/", { headers: { origin: "https://evil.example" } })).status, 403);
 * const allowed = await app.request("/", { headers: { origin: "https://app.example" } });
 * equal(allowed.headers.get("access-control-allow-origin"), "https://app.example");
 * ```
 */
export function originGuard(
  guard: RequestGuard,
): [MiddlewareHandler<AppEnv>, MiddlewareHandler<AppEnv>] {
  const withCors = cors({
    origin: (origin) => origin,
    allowMethods: ["GET", "POST", "DELETE"],
    allowHeaders: ["authorization", "content-type"],
    maxAge: 600,
  });
  return [
    async (c, next) => {
      const refused = guard.refuse(c.req.raw);
      if (refused !== undefined) return refused;
      return c.req.header("origin") === undefined ? await next() : await withCors(c, next);
    },
    async (c, next) => {
      const admitted = await guard.admit(c.req.raw);
      if (!admitted.ok) return admitted.error;
      c.set("tenant", admitted.value);
      await next();
    },
  ];
}
