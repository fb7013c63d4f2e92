/**
 * Each route of the HTTP API declared once: its method, path, request and success schemas, the
 * problems it can answer and its handler, in one {@linkcode route} declaration (as
 * `@hono/zod-openapi`'s `createRoute` has it, without the dependency). The app serves the
 * declarations and the OpenAPI document is generated from the same ones, so they cannot drift.
 *
 * @module
 */

import type { Context, Env, Hono } from "hono";
import type { ProblemCode } from "./problems.ts";
import type { Operation } from "./shapes.ts";

/** The path prefix behind the origin, host and token guard; the other routes are public. */
export const GUARDED_PREFIX = "/v1/";

/** An operation with the handler that serves it. */
export interface Route<E extends Env> extends Operation {
  /** Serves one request. */
  handler: (c: Context<E>) => Response | Promise<Response>;
}

/** What a declaration says: everything but what follows from its path. */
export type RouteDeclaration<E extends Env> = Omit<Route<E>, "authenticated">;

/** What reading a JSON body can answer. */
export const BODY_PROBLEMS: ProblemCode[] = [
  "unsupported_media_type",
  "invalid_json",
  "invalid_request",
  "unreadable_body",
  "payload_too_large",
];
/** What the guard answers, on every route under {@linkcode GUARDED_PREFIX}. */
export const GUARD_PROBLEMS: ProblemCode[] = ["origin_not_allowed", "unauthorized"];
/** What reading a catalogue request (by value or `catalogRef`, with budget and options) can answer. */
export const CATALOG_PROBLEMS: ProblemCode[] = [
  ...BODY_PROBLEMS,
  "catalog_unknown",
  "invalid_catalog",
  "invalid_config",
];

/**
 * Declares a route: the guard's problems are added to a guarded path's own.
 *
 * @param declaration Method, path, summary, request and success schemas, problems and handler.
 * @returns The route.
 *
 * @example Usage
 * ```ts
 * import { route } from "./route.ts";
 * import { equal } from "node:assert/strict";
 *
 * const health = route({
 *   method: "get",
 *   path: "/healthz",
 *   summary: "Liveness.",
 *   success: { status: 200, schema: "Health", description: "Alive." },
 *   problems: [],
 *   handler: (c) => c.json({ ok: true }),
 * });
 * equal(health.authenticated, false);
 * ```
 */
export function route<E extends Env>(declaration: RouteDeclaration<E>): Route<E> {
  const authenticated = declaration.path.startsWith(GUARDED_PREFIX);
  const { problems } = declaration;
  return {
    ...declaration,
    problems: authenticated ? [...GUARD_PROBLEMS, ...problems] : problems,
    authenticated,
  };
}

/**
 * Serves routes on an app: `{name}` in a path becomes Hono's `:name`.
 *
 * @param app The app.
 * @param routes The routes.
 *
 * @example Usage
 * ```ts
 * import { route, serveRoutes } from "./route.ts";
 * import { Hono } from "hono";
 * import { equal } from "node:assert/strict";
 *
 * const app = new Hono();
 * serveRoutes(app, [route({
 *   method: "get",
 *   path: "/v1/sessions/{session}",
 *   summary: "A session.",
 *   success: { status: 200, description: "It." },
 *   problems: [],
 *   handler: (c) => c.text(c.req.param("session") ?? ""),
 * })]);
 * equal(await (await app.request("/v1/sessions/s1")).text(), "s1");
 * ```
 */
export function serveRoutes<E extends Env>(app: Hono<E>, routes: readonly Route<E>[]): void {
  for (const r of routes) {
    app.on(r.method.toUpperCase(), r.path.replace(/\{(\w+)\}/g, ":$1"), r.handler);
  }
}

/**
 * The methods the routes serve on a path, for a 405's `Allow`.
 *
 * @param routes The operations.
 * @param path A request's path.
 * @returns The methods, upper case (none when no route has the path).
 *
 * @example Usage
 * ```ts
 * import { allowedMethods } from "./route.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const ops = [{ method: "get" as const, path: "/v1/sessions/{session}" }];
 * deepEqual(allowedMethods(ops, "/v1/sessions/a"), ["GET"]);
 * deepEqual(allowedMethods(ops, "/v1/sessions/a/b"), []);
 * ```
 */
export function allowedMethods(
  routes: readonly Pick<Operation, "method" | "path">[],
  path: string,
): string[] {
  return routes.filter((op) => matches(op.path, path)).map((op) => op.method.toUpperCase());
}

function matches(template: string, path: string): boolean {
  const pattern = template.replace(/\{[^}]+\}/g, "[^/]+").replaceAll(".", "\\.");
  return new RegExp(`^${pattern}$`).test(path);
}
