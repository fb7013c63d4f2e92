/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the same zod schemas that validate the
 * requests: never written by hand.
 *
 * @module
 */

import * as z from "zod/mini";
import { SESSION_NAME } from "../session/store.ts";
import { type ProblemCode, PROBLEMS } from "./problems.ts";
import type { HttpSchemas } from "./schemas.ts";

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

const BODY: ProblemCode[] = [
  "unsupported_media_type",
  "invalid_json",
  "invalid_request",
  "unreadable_body",
  "payload_too_large",
];
const CATALOG: ProblemCode[] = [...BODY, "invalid_catalog", "invalid_config"];
const AUTH: ProblemCode[] = ["origin_not_allowed", "unauthorized"];

/** Every operation the app serves. */
export const OPERATIONS: readonly Operation[] = [
  {
    method: "post",
    path: "/v1/inject",
    summary: "The bridge tool and the richest catalogue listing that fits the budget.",
    request: "InjectRequest",
    success: {
      status: 200,
      schema: "InjectResponse",
      description: "The injection (null for an empty catalogue).",
    },
    problems: [...AUTH, ...CATALOG],
    authenticated: true,
  },
  {
    method: "post",
    path: "/v1/route",
    summary: "Routes one call of the bridge tool: search, describe, execute, or a model error.",
    request: "RouteRequest",
    success: {
      status: 200,
      schema: "RouteResult",
      description: 'The action; model mistakes are action "error".',
    },
    problems: [...AUTH, ...CATALOG, "session_full"],
    authenticated: true,
  },
  {
    method: "post",
    path: "/v1/result",
    summary:
      "Maps an upstream MCP tool result to what the model gets, counting failures in the session.",
    request: "ResultRequest",
    success: {
      status: 200,
      schema: "ResultResponse",
      description: "The mapped result; a tool failure is isError with its text.",
    },
    problems: [...AUTH, ...BODY],
    authenticated: true,
  },
  {
    method: "get",
    path: "/v1/sessions/{session}",
    summary: "A session's generation, described tools and counters.",
    success: { status: 200, schema: "SessionInfo", description: "The session." },
    problems: [...AUTH, "invalid_request", "not_found"],
    authenticated: true,
  },
  {
    method: "delete",
    path: "/v1/sessions/{session}",
    summary: "Deletes a session (idempotent).",
    success: { status: 204, description: "Deleted, or there was none." },
    problems: [...AUTH, "invalid_request"],
    authenticated: true,
  },
  {
    method: "get",
    path: "/healthz",
    summary: "Liveness and version.",
    success: { status: 200, schema: "Health", description: "Alive." },
    problems: [],
    authenticated: false,
  },
  {
    method: "get",
    path: "/openapi.json",
    summary: "This document.",
    success: { status: 200, description: "The OpenAPI 3.1 document." },
    problems: [],
    authenticated: false,
  },
];

/**
 * Builds the OpenAPI 3.1 document.
 *
 * @param schemas The deployment's schemas.
 * @param version The API version.
 * @returns The document.
 *
 * @example Usage
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const doc = openApiDocument(httpSchemas(DEFAULT_SETTINGS), "1.0.0");
 * equal(doc.openapi, "3.1.0");
 * ```
 */
export function openApiDocument(
  schemas: HttpSchemas,
  version: string,
): { openapi: string } & Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (const io of ["output", "input"] as const) {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
    const generated = z.toJSONSchema(registry, {
      target: "draft-2020-12",
      io,
      uri: (id) => `#/components/schemas/${id}`,
      unrepresentable: "any",
    });
    // Request bodies use the input form (defaults optional); the rest the output form.
    for (const [id, schema] of Object.entries(generated.schemas)) {
      const { $schema: _, $id: __, ...rest } = schema as Record<string, unknown>;
      if (io === "output" || id.endsWith("Request") || id === "McpTool") components[id] = rest;
    }
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    const responses: Record<string, unknown> = {
      [op.success.status]: {
        description: op.success.description,
        ...(op.success.schema === undefined ? {} : {
          content: { "application/json": { schema: ref(op.success.schema) } },
        }),
      },
    };
    for (const code of [...op.problems, "internal_error" as const]) {
      const status = String(PROBLEMS[code].status);
      const existing = responses[status] as { description: string } | undefined;
      const line = `${code}: ${PROBLEMS[code].title}`;
      responses[status] = {
        description: existing ? `${existing.description}; ${line}` : line,
        content: { "application/problem+json": { schema: ref("Problem") } },
      };
    }
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      operationId: operationId(op),
      ...(op.path.includes("{session}")
        ? {
          parameters: [{
            name: "session",
            in: "path",
            required: true,
            schema: { type: "string", pattern: SESSION_NAME.source },
          }],
        }
        : {}),
      ...(op.request === undefined ? {} : {
        requestBody: {
          required: true,
          content: { "application/json": { schema: ref(op.request) } },
        },
      }),
      responses,
      ...(op.authenticated ? {} : { security: [] }),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "unfold",
      version,
      description: "Progressive MCP tool injection: one bridge tool (search, describe, execute), " +
        "the richest catalogue overview that fits a token budget, and per-session memory.",
    },
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
    },
    security: [{ bearer: [] }],
  };
}

function ref(id: string): { $ref: string } {
  return { $ref: `#/components/schemas/${id}` };
}

function operationId(op: Operation): string {
  const words = op.path.split(/[/{}._-]+/).filter((w) => w !== "" && w !== "v1");
  return op.method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}
