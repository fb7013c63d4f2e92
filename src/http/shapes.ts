/**
 * The shapes the HTTP API's routes share (the Hono environment, an operation's declaration),
 * apart from the app and the OpenAPI document that both use them, so that neither imports the
 * other.
 *
 * @module
 */

import type { ProblemCode } from "./problems.ts";
import type { HttpSchemas } from "./schemas.ts";

/** The app's Hono environment: the tenant of the request, set by the auth middleware. */
export type AppEnv = { Variables: { tenant: string } };

/** One operation of the API. */
export interface Operation {
  /** The HTTP method. */
  method: "get" | "post" | "delete";
  /** The path, OpenAPI style (`/v1/sessions/{session}`). */
  path: string;
  /** What it does. */
  summary: string;
  /** The request body schema's name, if it takes one. */
  request?: keyof HttpSchemas;
  /** The success status and its body schema's name (none for 204). */
  success: { status: 200 | 204; schema?: keyof HttpSchemas; description: string };
  /** The caller errors it can answer. */
  problems: ProblemCode[];
  /** Whether it needs the bearer token when auth is on. */
  authenticated: boolean;
}
