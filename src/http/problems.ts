/**
 * Caller errors as RFC 9457 problem details (`application/problem+json`) with a stable `code`.
 *
 * @module
 */

/** The stable codes of caller errors, with their HTTP status and title. */
export const PROBLEMS = {
  invalid_json: { status: 400, title: "The body is not valid JSON" },
  invalid_request: { status: 400, title: "The request does not match its schema" },
  unreadable_body: { status: 400, title: "The body could not be read" },
  unauthorized: { status: 401, title: "A valid bearer token is required" },
  origin_not_allowed: { status: 403, title: "This browser origin may not call the API" },
  not_found: { status: 404, title: "Not found" },
  method_not_allowed: { status: 405, title: "Method not allowed" },
  catalog_unknown: { status: 409, title: "The catalogue catalogRef names is not held here" },
  payload_too_large: { status: 413, title: "The body is too large" },
  session_full: { status: 409, title: "The session cannot remember more" },
  unsupported_media_type: { status: 415, title: "The body must be sent as application/json" },
  invalid_catalog: { status: 422, title: "The catalogue is invalid" },
  invalid_config: { status: 422, title: "The budget or options are invalid" },
  unknown_tool: { status: 422, title: "The call names no tool of the catalogue" },
  invalid_arguments: { status: 422, title: "The arguments do not match the tool's input schema" },
  internal_error: { status: 500, title: "Internal error" },
  session_store_unavailable: { status: 503, title: "The session store is unavailable" },
  // Served by the gateway's `/mcp/NAME` alone, not by any operation of the API's OpenAPI document.
  profile_unavailable: {
    status: 503,
    title: "The profile is not served until its configuration is complete",
    gatewayOnly: true,
  },
  api_unavailable: { status: 503, title: "The gateway Worker cannot reach the API Worker" },
} as const;

/** A stable problem code. */
export type ProblemCode = keyof typeof PROBLEMS;

/** Every problem code, in the order of {@linkcode PROBLEMS}. */
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

/** One located problem: where (a JSON pointer into the request body) and what. */
export interface ProblemDetail {
  /** JSON pointer into the request body, e.g. `/catalog/3/inputSchema`. */
  pointer: string;
  /** What is wrong there. */
  message: string;
}

/** The problem document. */
export interface Problem {
  /** A URI naming the problem type: `urn:unfold:problem:<code>`. */
  type: string;
  /** A short summary of the problem type. */
  title: string;
  /** The HTTP status. */
  status: number;
  /** What went wrong in this request. */
  detail: string;
  /** The stable code. */
  code: ProblemCode;
  /** Located problems, when there are several or they have a place. */
  errors?: ProblemDetail[];
}

/**
 * Builds a problem response.
 *
 * @param code The stable code.
 * @param detail What went wrong in this request.
 * @param errors Located problems.
 * @param headers Extra headers (e.g. `WWW-Authenticate`, `Allow`).
 * @returns The response.
 *
 * @example Usage
 * ```ts
 * import { problem } from "./problems.ts";
 * import { equal } from "node:assert/strict";
 *
 * const response = problem("invalid_json", "Unexpected end of JSON input");
 * equal(response.status, 400);
 * equal(response.headers.get("content-type"), "application/problem+json");
 * equal((await response.json()).code, "invalid_json");
 * ```
 */
export function problem(
  code: ProblemCode,
  detail: string,
  errors?: ProblemDetail[],
  headers: Record<string, string> = {},
): Response {
  const { status, title } = PROBLEMS[code];
  const body: Problem = { type: `urn:unfold:problem:${code}`, title, status, detail, code };
  if (errors !== undefined && errors.length > 0) body.errors = errors;
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
  });
}
