/**
 * The request checks of the SDK-free stdio server (`stdio_server.ts`), answering as the MCP SDK
 * v2.4 server does: its params checks with zod's issue format (code, path, message), and the
 * 2026-07-28 per-request `_meta` envelope. Nested client capabilities are checked to be objects,
 * not member by member (the gateway reads none of them).
 *
 * @module
 */

import { isObject } from "./_jsonrpc.ts";

/** The modern protocol revision served. */
export const MODERN_REVISION = "2026-07-28";
/** The 2025-era versions `initialize` accepts, newest first (the SDK's list). */
export const LEGACY_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];
/** The envelope keys of a 2026-07-28 request's `_meta`. */
export const ENVELOPE = {
  version: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  capabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
} as const;
/** Where a 2026-07-28 result names its server. */
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** One problem, as zod reports it. */
export type Issue =
  | { expected: string; code: "invalid_type"; path: string[]; message: string }
  | { code: "invalid_value"; values: string[]; path: string[]; message: string };

/**
 * The issues of a request's params for a method this server serves (none: well formed).
 *
 * @param method The method.
 * @param params The request's params (envelope keys lifted out).
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
export function paramIssues(method: string, params: unknown): Issue[] {
  const issues: Issue[] = [];
  const at = ["params"];
  const needsParams = method === "tools/call" || method === "initialize" ||
    method === "logging/setLevel";
  if (params === undefined) {
    if (needsParams) issues.push(wrongType("object", params, at));
    return issues;
  }
  const p = params as Record<string, unknown>;
  const field = (key: string, expected: string, ok: (v: unknown) => boolean, optional = false) => {
    if ((optional && p[key] === undefined) || ok(p[key])) return;
    issues.push(wrongType(expected, p[key], [...at, key]));
  };
  switch (method) {
    case "tools/list":
      field("cursor", "string", isString, true);
      break;
    case "tools/call":
      field("name", "string", isString);
      field("arguments", "record", isObject, true);
      break;
    case "logging/setLevel":
      if (!LEVELS.includes(p.level as string)) issues.push(oneOf(LEVELS, [...at, "level"]));
      break;
    case "initialize": {
      field("protocolVersion", "string", isString);
      field("capabilities", "object", isObject);
      const info = p.clientInfo;
      if (!isObject(info)) issues.push(wrongType("object", info, [...at, "clientInfo"]));
      else {
        for (const key of ["name", "version"]) {
          if (!isString(info[key])) {
            issues.push(wrongType("string", info[key], [...at, "clientInfo", key]));
          }
        }
      }
    }
  }
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
  const version = envelope[ENVELOPE.version];
  if (!isString(version)) issues.push(wrongType("string", version, [ENVELOPE.version]));
  const info = envelope[ENVELOPE.clientInfo];
  if (info !== undefined) {
    if (!isObject(info)) issues.push(wrongType("object", info, [ENVELOPE.clientInfo]));
    else {
      for (const key of ["name", "version"]) {
        if (!isString(info[key])) {
          issues.push(wrongType("string", info[key], [ENVELOPE.clientInfo, key]));
        }
      }
    }
  }
  const capabilities = envelope[ENVELOPE.capabilities];
  if (!isObject(capabilities)) {
    issues.push(wrongType("object", capabilities, [ENVELOPE.capabilities]));
  }
  const level = envelope[ENVELOPE.logLevel];
  if (level !== undefined && !LEVELS.includes(level as string)) {
    issues.push(oneOf(LEVELS, [ENVELOPE.logLevel]));
  }
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

function wrongType(expected: string, value: unknown, path: string[]): Issue {
  return {
    expected,
    code: "invalid_type",
    path,
    message: `Invalid input: expected ${expected}, received ${typeName(value)}`,
  };
}

function oneOf(values: string[], path: string[]): Issue {
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

function isString(value: unknown): value is string {
  return typeof value === "string";
}
