/**
 * Reading a request body: JSON, then its zod schema; every failure is a problem response that says
 * where (a JSON pointer) and why.
 *
 * @module
 */

import type { z } from "zod";
import { problem, type ProblemCode, type ProblemDetail } from "./problems.ts";

/** A parsed value, or the problem response to send instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/**
 * Reads a request's body as JSON and validates it. Problems under `catalog` or `servers` are
 * `invalid_catalog`, under `budget` or `options` `invalid_config`, others `invalid_request`; the
 * most basic decides the status.
 *
 * @param request The request.
 * @param schema The body's schema.
 * @returns The parsed body, or a problem response.
 *
 * @example Usage
 * ```ts
 * import { parseBody } from "./body.ts";
 * import { z } from "zod";
 * import { equal } from "node:assert/strict";
 *
 * const schema = z.strictObject({ catalog: z.array(z.string()) });
 * const bad = await parseBody(new Request("http://x/", { method: "POST", body: '{"catalog":[1]}' }), schema);
 * equal(bad.ok ? 0 : bad.response.status, 422);
 * ```
 */
export async function parseBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<Parsed<z.output<S>>> {
  const text = await request.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const detail = text.trim() === ""
      ? "The body is empty: send a JSON object"
      : `The body is not valid JSON: ${(e as Error).message}`;
    return { ok: false, response: problem("invalid_json", detail) };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const errors: Array<ProblemDetail & { code: ProblemCode }> = result.error.issues.map((issue) => {
    const [head] = issue.path;
    const code: ProblemCode = head === "catalog" || head === "servers"
      ? "invalid_catalog"
      : head === "budget" || head === "options"
      ? "invalid_config"
      : "invalid_request";
    const keys = issue.code === "unrecognized_keys"
      ? ` ${issue.keys.map((k) => `"${k}"`).join(", ")}`
      : "";
    return { code, pointer: pointerOf(issue.path), message: `${issue.message}${keys}` };
  });
  // The most basic problem decides the status: a malformed request before a bad catalogue.
  const code = (["invalid_request", "invalid_catalog", "invalid_config"] as const)
    .find((candidate) => errors.some((e) => e.code === candidate))!;
  const first = errors.find((e) => e.code === code)!;
  const entry = first.pointer.match(/^\/(catalog|servers)\/(\d+)/);
  const named = entry ? describeEntry(json, entry[1]!, Number(entry[2])) : "";
  return {
    ok: false,
    response: problem(
      code,
      `${first.pointer || "(body)"}${named}: ${first.message}${
        errors.length > 1 ? ` (and ${errors.length - 1} more)` : ""
      }`,
      errors.map(({ pointer, message }) => ({ pointer, message })),
    ),
  };
}

function describeEntry(json: unknown, list: string, index: number): string {
  const entry = (json as Record<string, unknown[]>)?.[list]?.[index] as
    | Record<string, unknown>
    | undefined;
  if (list === "catalog" && typeof entry?.server === "string" && typeof entry?.name === "string") {
    return ` (${JSON.stringify(`${entry.server}/${entry.name}`)})`;
  }
  return "";
}

function pointerOf(path: readonly PropertyKey[]): string {
  return path.map((p) => `/${String(p).replaceAll("~", "~0").replaceAll("/", "~1")}`).join("");
}
