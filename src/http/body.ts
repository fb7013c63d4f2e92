/**
 * Reading a request body: bytes within the limit, JSON, then its schema; every failure is a
 * problem response that says where (a JSON pointer) and why.
 *
 * @module
 */

import type * as z from "zod/mini";
import { closestKey } from "../utils/edit_distance.ts";
import { problem, type ProblemCode, type ProblemDetail } from "./problems.ts";
import { SETTING_VARIABLES } from "./settings.ts";

/** A parsed value, or the problem response to send instead. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; response: Response };

/** Options of {@linkcode parseBody}. */
export interface ParseBodyOptions {
  /** The largest body accepted, in bytes (`UNFOLD_MAX_BODY_BYTES`). */
  maxBytes: number;
}

// At most this many located problems are listed; the detail counts the rest.
const MAX_LISTED = 20;

/**
 * Reads a request's body (at most `maxBytes`) as JSON and validates it against its schema. The
 * body must be declared `application/json` (or `application/*+json`; any charset parameter):
 * otherwise `unsupported_media_type`.
 *
 * The code names the part of the body at fault: a problem inside `catalog` or `servers` is
 * `invalid_catalog` (422), inside `budget` or `options` `invalid_config` (422), anywhere else
 * `invalid_request` (400). A missing field is the fault of the object that lacks it (a body
 * without `catalog` or `arguments` is `invalid_request`; an entry without `name` is
 * `invalid_catalog`); an unknown key is reported once, at its own pointer, with the closest known
 * key. When several parts are at fault the most basic decides the status: request, catalogue,
 * configuration. A body that cannot be read is `unreadable_body`, one over the limit
 * `payload_too_large`, one that is not JSON (or whose bytes are not UTF-8) `invalid_json`.
 *
 * @param request The request.
 * @param schema The body's schema.
 * @param options The size limit.
 * @returns The parsed body, or a problem response.
 *
 * @example Usage
 * ```ts
 * import { parseBody } from "./body.ts";
 * import * as z from "zod/mini";
 * import { equal, match } from "node:assert/strict";
 *
 * const schema = z.strictObject({ budget: z.optional(z.number()) });
 * const headers = { "content-type": "application/json" };
 * const request = new Request("http://x/", { method: "POST", headers, body: '{"bugdet":1}' });
 * const bad = await parseBody(request, schema, { maxBytes: 1000 });
 * const problem = bad.ok ? undefined : await bad.response.json();
 * equal(problem?.status, 400);
 * match(problem?.detail, /^\/bugdet: unknown field; did you mean "budget"\?/);
 * ```
 */
export async function parseBody<S extends z.ZodMiniType>(
  request: Request,
  schema: S,
  options: ParseBodyOptions,
): Promise<Parsed<z.output<S>>> {
  const read = await readBody(request, options.maxBytes);
  if (!read.ok) return read;
  return parseText(read.value, schema);
}

/**
 * Parses a body's text as JSON and validates it, as {@linkcode parseBody} does once it has read
 * the text.
 *
 * @param text The body's text.
 * @param schema The body's schema.
 * @returns The parsed body, or a problem response.
 *
 * @example Usage
 * ```ts
 * import { parseText } from "./body.ts";
 * import * as z from "zod/mini";
 * import { equal } from "node:assert/strict";
 *
 * const parsed = parseText('{"budget":1}', z.strictObject({ budget: z.number() }));
 * equal(parsed.ok && parsed.value.budget, 1);
 * ```
 */
export function parseText<S extends z.ZodMiniType>(
  text: string,
  schema: S,
): Parsed<z.output<S>> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    const detail = text.trim() === ""
      ? "The body is empty: send a JSON object"
      : `The body is not valid JSON: ${(e as Error).message}`;
    return { ok: false, response: problem("invalid_json", detail) };
  }
  const result = schema.safeParse(json, { error: messageOf });
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, response: problemOf(json, schema, result.error.issues) };
}

// application/json or application/*+json, with any parameters (charset). A browser cannot send
// either cross-site without a CORS preflight, which only allowed origins pass.
function isJson(type: string | null): boolean {
  const media = (type ?? "").split(";")[0]!.trim().toLowerCase();
  return media === "application/json" ||
    (media.startsWith("application/") && media.endsWith("+json") && !media.includes(" "));
}

type Located = ProblemDetail & { code: ProblemCode };

function problemOf(json: unknown, schema: z.ZodMiniType, issues: readonly z.core.$ZodIssue[]) {
  const errors: Located[] = [];
  let total = 0;
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      total += issue.keys.length;
      const known = knownKeys(schema, issue.path);
      for (const key of issue.keys.slice(0, Math.max(0, MAX_LISTED - errors.length))) {
        const near = closestKey(key, known);
        errors.push({
          code: codeOf(issue.path),
          pointer: pointerOf([...issue.path, key]),
          message: near === undefined
            ? `unknown field; the fields here are ${known.map((k) => `"${k}"`).join(", ")}`
            : `unknown field; did you mean "${near}"?`,
        });
      }
      continue;
    }
    total++;
    if (errors.length >= MAX_LISTED) continue;
    const missing = isMissing(json, issue.path);
    errors.push({
      code: codeOf(missing ? issue.path.slice(0, -1) : issue.path),
      pointer: pointerOf(issue.path),
      message: missing ? "is required" : issue.message,
    });
  }
  // The most basic problem decides the status: a malformed request before a bad catalogue.
  const code = (["invalid_request", "invalid_catalog", "invalid_config"] as const)
    .find((candidate) => errors.some((e) => e.code === candidate))!;
  const first = errors.find((e) => e.code === code)!;
  const entry = first.pointer.match(/^\/(catalog|servers)\/(\d+)/);
  const named = entry ? describeEntry(json, entry[1]!, Number(entry[2])) : "";
  return problem(
    code,
    `${first.pointer || "(body)"}${named}: ${first.message}${
      total > 1 ? ` (and ${total - 1} more)` : ""
    }`,
    errors.map(({ pointer, message }) => ({ pointer, message })),
  );
}

// The code of the part of the body that holds the problem.
function codeOf(owner: readonly PropertyKey[]): ProblemCode {
  const [head] = owner;
  return head === "catalog" || head === "servers"
    ? "invalid_catalog"
    : head === "budget" || head === "options"
    ? "invalid_config"
    : "invalid_request";
}

// The message of an issue, in the rule style of the catalogue's errors ("must be a string").
function messageOf(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case "invalid_type":
      return `must be ${EXPECTED[issue.expected] ?? issue.expected}, got ${kindOf(issue.input)}`;
    case "too_big":
      return `must be ${issue.inclusive === false ? "less than" : "at most"} ${issue.maximum}${
        UNITS[issue.origin] ?? ""
      }`;
    case "too_small":
      return `must be ${issue.inclusive === false ? "greater than" : "at least"} ${issue.minimum}${
        UNITS[issue.origin] ?? ""
      }`;
    case "invalid_format":
      return issue.pattern === undefined
        ? `must be a valid ${issue.format}`
        : `must match ${issue.pattern}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "unrecognized_keys":
      return "unknown field";
    default:
      return "is invalid";
  }
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  object: "an object",
  record: "an object",
  array: "an array",
};
const UNITS: Record<string, string> = { string: " characters", array: " items" };

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  return EXPECTED[typeof value] ?? typeof value;
}

// Whether the value at a path is absent from its parent object (a missing field).
function isMissing(json: unknown, path: readonly PropertyKey[]): boolean {
  if (path.length === 0) return false;
  let parent: unknown = json;
  for (const key of path.slice(0, -1)) {
    if (typeof parent !== "object" || parent === null) return false;
    parent = (parent as Record<PropertyKey, unknown>)[key];
  }
  return typeof parent === "object" && parent !== null && !Array.isArray(parent) &&
    !Object.hasOwn(parent, path.at(-1)!);
}

// The keys an object schema at a path knows (zod's documented `_zod.def` internals).
function knownKeys(schema: z.ZodMiniType, path: readonly PropertyKey[]): string[] {
  type Def = { type: string; shape?: Record<string, Node>; element?: Node; innerType?: Node };
  type Node = { _zod: { def: Def } };
  const unwrap = (node: Node | undefined) => {
    while (node?._zod.def.innerType !== undefined) node = node._zod.def.innerType;
    return node;
  };
  let node = unwrap(schema as unknown as Node);
  for (const key of path) {
    const def = node?._zod.def;
    node = unwrap(
      def?.type === "object"
        ? def.shape?.[String(key)]
        : def?.type === "array"
        ? def.element
        : undefined,
    );
  }
  return Object.keys(node?._zod.def.shape ?? {});
}

/**
 * Reads a request's body as text: it must be declared `application/json` (or
 * `application/*+json`; any charset parameter), otherwise `unsupported_media_type`; it is read
 * chunk by chunk, so that a body without a length stops at the limit, and a transport failure (a
 * malformed chunked encoding, an aborted upload) is the caller's 400 `unreadable_body`. Bytes that
 * are not UTF-8 are refused (`invalid_json`), never replaced.
 *
 * @param request The request.
 * @param maxBytes The largest body accepted, in bytes.
 * @returns The text, or a problem response.
 *
 * @example Usage
 * ```ts
 * import { readBody } from "./body.ts";
 * import { equal } from "node:assert/strict";
 *
 * const headers = { "content-type": "application/json" };
 * const read = await readBody(new Request("http://x/", { method: "POST", headers, body: "{}" }), 10);
 * equal(read.ok && read.value, "{}");
 * ```
 */
export async function readBody(request: Request, maxBytes: number): Promise<Parsed<string>> {
  const type = request.headers.get("content-type");
  if (!isJson(type)) {
    return {
      ok: false,
      response: problem(
        "unsupported_media_type",
        `Send the body as JSON with Content-Type: application/json (got ${
          type === null ? "none" : JSON.stringify(type.slice(0, 100))
        })`,
        undefined,
        { "accept-post": "application/json" },
      ),
    };
  }
  const tooLarge = (): Parsed<string> => ({
    ok: false,
    response: problem(
      "payload_too_large",
      `The body exceeds ${maxBytes} bytes: send less, or raise ${SETTING_VARIABLES.maxBodyBytes}`,
    ),
  });
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > maxBytes) return tooLarge();
  if (request.body === null) return { ok: true, value: "" };
  const reader = request.body.getReader();
  // Fatal: JSON text is UTF-8 (RFC 8259), and a lenient decoder would turn bytes that are not into
  // U+FFFD, so that a tool id or an argument reaches unfold changed.
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let text = "";
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => {});
        return tooLarge();
      }
      const decoded = decode(decoder, value);
      if (decoded === undefined) {
        reader.cancel().catch(() => {});
        return notUtf8();
      }
      text += decoded;
    }
  } catch {
    return {
      ok: false,
      response: problem(
        "unreadable_body",
        "The body could not be read: a malformed transfer encoding or an interrupted upload",
      ),
    };
  }
  const rest = decode(decoder);
  return rest === undefined ? notUtf8() : { ok: true, value: text + rest };
}

// A chunk of the body as text (the end of it without a chunk), or `undefined` when its bytes are
// not UTF-8.
function decode(decoder: TextDecoder, chunk?: Uint8Array): string | undefined {
  try {
    return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
  } catch {
    return undefined;
  }
}

function notUtf8(): Parsed<never> {
  return {
    ok: false,
    response: problem(
      "invalid_json",
      "The body is not valid JSON: its bytes are not UTF-8; send JSON encoded as UTF-8",
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
