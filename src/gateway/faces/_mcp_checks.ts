/**
 * The request checks of the SDK-free stdio server (`stdio_server.ts`), answering as the MCP SDK
 * v2.4 server does: its params checks with zod's issue format (code, path, message), and the
 * 2026-07-28 per-request `_meta` envelope. The checks follow the SDK's zod schemas member by
 * member, without loading zod (the differential test `test/gateway/faces/stdio_server_test.ts` holds them
 * to the SDK's answers).
 *
 * @module
 */

import { isRecord } from "../../utils/record.ts";

/** The modern protocol revision served. */
export const MODERN_REVISION = "2026-07-28";
/** The envelope keys of a 2026-07-28 request's `_meta`. */
export const ENVELOPE = {
  version: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  capabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
} as const;

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** One problem, as zod reports it. */
export type Issue =
  | { expected: string; code: "invalid_type"; path: Path; message: string }
  | { code: "invalid_value"; values: string[]; path: Path; message: string };

type Path = (string | number)[];
// A check of one value, in the shape of the SDK's zod schema: it adds the value's issues.
type Check = (value: unknown, path: Path, issues: Issue[]) => void;

const typed = (expected: string, ok: (value: unknown) => boolean): Check => (value, path, out) => {
  if (!ok(value)) out.push(wrongType(expected, value, path));
};
const string = typed("string", (value) => typeof value === "string");
const boolean = typed("boolean", (value) => typeof value === "boolean");
const number = typed("number", (value) => typeof value === "number" && Number.isFinite(value));
// A JSON object (zod's `record`): any member is JSON once parsed.
const record = typed("record", isRecord);
const optional = (check: Check): Check => (value, path, out) => {
  if (value !== undefined) check(value, path, out);
};
const object = (shape: Record<string, Check>): Check => (value, path, out) => {
  if (!isRecord(value)) return void out.push(wrongType("object", value, path));
  for (const key in shape) shape[key]!(value[key], [...path, key], out);
};
const recordOf = (check: Check): Check => (value, path, out) => {
  if (!isRecord(value)) return void out.push(wrongType("record", value, path));
  for (const key in value) check(value[key], [...path, key], out);
};
const arrayOf = (check: Check): Check => (value, path, out) => {
  if (!Array.isArray(value)) return void out.push(wrongType("array", value, path));
  value.forEach((item, index) => check(item, [...path, index], out));
};
const enumOf = (values: string[]): Check => (value, path, out) => {
  if (!values.includes(value as string)) out.push(oneOf(values, path));
};
// zod's intersection: the issues of both sides.
const both = (...checks: Check[]): Check => (value, path, out) => {
  for (const check of checks) check(value, path, out);
};

const implementation = object({
  name: string,
  title: optional(string),
  icons: optional(arrayOf(object({
    src: string,
    mimeType: optional(string),
    sizes: optional(arrayOf(string)),
    theme: optional(enumOf(["light", "dark"])),
  }))),
  version: string,
  websiteUrl: optional(string),
  description: optional(string),
});
const capabilityShape = {
  experimental: optional(recordOf(record)),
  sampling: optional(object({ context: optional(record), tools: optional(record) })),
  elicitation: optional(both(
    object({
      form: optional(both(object({ applyDefaults: optional(boolean) }), record)),
      url: optional(record),
    }),
    optional(record),
  )),
  roots: optional(object({ listChanged: optional(boolean) })),
};
const capabilities2025 = object({
  ...capabilityShape,
  tasks: optional(object({
    list: optional(record),
    cancel: optional(record),
    requests: optional(object({
      sampling: optional(object({ createMessage: optional(record) })),
      elicitation: optional(object({ create: optional(record) })),
    })),
  })),
  extensions: optional(recordOf(record)),
});
const capabilities2026 = object({ ...capabilityShape, extensions: optional(recordOf(record)) });

// The params each served method takes, as the SDK's request schemas of each era say.
const PARAMS: Record<string, Check> = {
  "initialize": object({
    protocolVersion: string,
    capabilities: capabilities2025,
    clientInfo: implementation,
  }),
  "logging/setLevel": object({ level: enumOf(LEVELS) }),
  "tools/list": optional(object({ cursor: optional(string) })),
  "tools/call": object({
    task: optional(object({ ttl: optional(number) })),
    name: string,
    arguments: optional(record),
  }),
};
const MODERN_PARAMS: Record<string, Check> = {
  "tools/call": optional(object({ name: string, arguments: optional(record) })),
};
const ENVELOPE_SCHEMA = object({
  [ENVELOPE.version]: string,
  [ENVELOPE.clientInfo]: optional(implementation),
  [ENVELOPE.capabilities]: capabilities2026,
  [ENVELOPE.logLevel]: optional(enumOf(LEVELS)),
});

/**
 * The issues of a request's params for a method this server serves (none: well formed).
 *
 * @param method The method.
 * @param params The request's params (envelope keys lifted out).
 * @param modern Whether the request is served in the 2026-07-28 era.
 * @returns The issues, in zod's order.
 *
 * @example Usage
 * ```ts
 * import { paramIssues } from "./_mcp_checks.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(paramIssues("tools/call", { name: "x" }).length, 0);
 * equal(paramIssues("tools/call", undefined)[0]?.message, "Invalid input: expected object, received undefined");
 * ```
 */
export function paramIssues(method: string, params: unknown, modern = false): Issue[] {
  const issues: Issue[] = [];
  const check = (modern ? MODERN_PARAMS[method] : undefined) ?? PARAMS[method];
  check?.(params, ["params"], issues);
  return issues;
}

/**
 * Issues of a 2026-07-28 envelope: `missing` for an absent required key, then each member's.
 *
 * @param meta The request's `_meta`.
 * @returns `{ key, problem }` per issue; none when valid.
 *
 * @example Usage
 * ```ts
 * import { envelopeIssues } from "./_mcp_checks.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(envelopeIssues({ "io.modelcontextprotocol/protocolVersion": "2026-07-28" })[0]?.problem, "missing");
 * ```
 */
export function envelopeIssues(meta: Record<string, unknown>): { key: string; problem: string }[] {
  const issues: { key: string; problem: string }[] = [];
  for (const key of [ENVELOPE.version, ENVELOPE.capabilities]) {
    if (!(key in meta)) issues.push({ key, problem: "missing" });
  }
  for (const issue of envelopeSchemaIssues(meta)) {
    const key = issue.path.join(".");
    if (issue.path.length === 1 && issues.some((i) => i.key === key)) continue;
    issues.push({ key, problem: issue.message });
  }
  return issues;
}

/**
 * The issues of an envelope as the SDK's envelope schema reports them (the pinned 2026-07-28
 * server's own check).
 *
 * @param envelope The envelope keys of a request's `_meta`.
 * @returns The issues, in the schema's order.
 *
 * @example Usage
 * ```ts
 * import { envelopeSchemaIssues } from "./_mcp_checks.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(envelopeSchemaIssues({}).length, 2);
 * ```
 */
export function envelopeSchemaIssues(envelope: Record<string, unknown>): Issue[] {
  const issues: Issue[] = [];
  ENVELOPE_SCHEMA(envelope, [], issues);
  return issues;
}

/**
 * Issues as the SDK words them in an error message (zod's pretty-printed list).
 *
 * @param issues The issues.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { formatIssues } from "./_mcp_checks.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(formatIssues([]), "[]");
 * ```
 */
export function formatIssues(issues: Issue[]): string {
  return JSON.stringify(issues, null, 2);
}

function wrongType(expected: string, value: unknown, path: Path): Issue {
  return {
    expected,
    code: "invalid_type",
    path,
    message: `Invalid input: expected ${expected}, received ${typeName(value)}`,
  };
}

function oneOf(values: string[], path: Path): Issue {
  return {
    code: "invalid_value",
    values,
    path,
    message: `Invalid option: expected one of ${values.map((v) => JSON.stringify(v)).join("|")}`,
  };
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isNaN(value)) return "NaN";
  return typeof value;
}
