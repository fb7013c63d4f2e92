/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the same `zod/mini` schemas that
 * validate the requests and from the one list of problem codes: never written by hand.
 *
 * @module
 */

import * as z from "zod/mini";
import { SESSION_NAME } from "../session/store.ts";
import { BEARER_CHALLENGE } from "./guard.ts";
import { type ProblemCode, PROBLEMS } from "./problems.ts";
import { type HttpSchemas, REQUEST_PARTS } from "./schemas.ts";
import type { Operation } from "./shapes.ts";

// Every operation can answer these: another method on its path, a bug, and (on the gateway Worker,
// which forwards every operation to the API Worker) an API Worker it cannot reach.
const ALWAYS: ProblemCode[] = ["method_not_allowed", "internal_error", "api_unavailable"];

// The headers some problems carry.
const PROBLEM_HEADERS: Partial<Record<ProblemCode, Record<string, string>>> = {
  unauthorized: { "WWW-Authenticate": BEARER_CHALLENGE },
  method_not_allowed: { Allow: "The methods this path serves, e.g. `GET, DELETE`." },
  unsupported_media_type: { "Accept-Post": "`application/json`" },
  session_store_unavailable: { "Retry-After": "Seconds to wait before retrying (1)." },
};

/** The licence of unfold (SPDX; kept equal to `deno.json`'s by a test). */
export const LICENSE = "MIT";

/**
 * Builds the OpenAPI 3.1 document.
 *
 * @param schemas The deployment's schemas.
 * @param version The API version.
 * @param operations The routes the app serves (their declarations, `route.ts`).
 * @returns The document.
 *
 * @example Usage
 * ```ts
 * import { openApiDocument } from "./openapi.ts";
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * const doc = openApiDocument(httpSchemas(DEFAULT_SETTINGS), "1.0.0", []);
 * equal(doc.openapi, "3.1.0");
 * ```
 */
export function openApiDocument(
  schemas: HttpSchemas,
  version: string,
  operations: readonly Operation[],
): { openapi: string } & Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (const io of ["output", "input"] as const) {
    const registry = z.registry<{ id: string }>();
    for (const [id, schema] of Object.entries(schemas)) {
      if (!(REQUEST_PARTS as readonly string[]).includes(id)) registry.add(schema, { id });
    }
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
  // A catalogue by value or by reference, never both (the refinement JSON Schema cannot carry).
  for (const id of Object.keys(components).filter((id) => id.endsWith("Request"))) {
    const properties = (components[id] as { properties?: object }).properties ?? {};
    if (!Object.hasOwn(properties, "catalogRef")) continue;
    (components[id] as Record<string, unknown>).oneOf = [
      { required: ["catalog"] },
      { required: ["catalogRef"] },
    ];
  }
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const responses: Record<string, unknown> = {
      [op.success.status]: {
        description: op.success.description,
        ...(op.success.schema === undefined ? {} : {
          content: { "application/json": { schema: ref(op.success.schema) } },
        }),
      },
    };
    // One response per status: its codes (the schema narrows `code` to them) and their headers.
    const byStatus = new Map<number, ProblemCode[]>();
    for (const code of [...op.problems, ...ALWAYS]) {
      const { status } = PROBLEMS[code];
      byStatus.set(status, [...byStatus.get(status) ?? [], code]);
    }
    for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
      const headers = Object.assign({}, ...codes.map((code) => PROBLEM_HEADERS[code] ?? {}));
      responses[status] = {
        description: codes.map((code) => `${code}: ${PROBLEMS[code].title}`).join("; "),
        ...(Object.keys(headers).length === 0 ? {} : {
          headers: Object.fromEntries(
            Object.entries(headers).map(([name, description]) => [
              name,
              { description, schema: { type: "string" } },
            ]),
          ),
        }),
        content: {
          "application/problem+json": {
            schema: {
              allOf: [ref("Problem"), {
                type: "object",
                required: ["code"],
                properties: { code: { enum: codes } },
              }],
            },
          },
        },
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
          description:
            "JSON: `Content-Type: application/json` (or `application/*+json`), else 415.",
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
        "the richest catalogue overview that fits a token budget, and per-session memory.\n\n" +
        "Caller errors are `application/problem+json` with a stable `code`; the code names the " +
        "part of the body at fault (`catalog`/`servers`: invalid_catalog, `budget`/`options`: " +
        "invalid_config, anything else, a missing field of the body included: invalid_request). " +
        'Model mistakes are 200 with `action: "error"`. The bearer token is needed when the ' +
        "deployment sets UNFOLD_API_TOKEN; a request carrying an `Origin` is refused unless " +
        "UNFOLD_ALLOWED_ORIGINS lists it.",
      license: { name: LICENSE, identifier: LICENSE },
    },
    servers: [{ url: "/", description: "The deployment that serves this document" }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "One of the tokens in UNFOLD_API_TOKEN; each token is its own tenant.",
        },
      },
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
