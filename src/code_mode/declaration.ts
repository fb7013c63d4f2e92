/**
 * A tool's TypeScript declaration for code, from its JSON Schemas: what `describe` adds when code
 * mode is on, so a script's `call` is written against the tool's arguments and result. Bounded:
 * at most `MAX_DECLARATION_CHARS`, a few levels deep, `unknown` for what it does not show (a
 * cycle, a remote `$ref`, a keyword it does not model); the input schema above it stays exact.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";
import { escapeInvisible } from "../untrusted.ts";
import type { McpTool } from "../tool.ts";

/** The longest declaration, in characters. */
export const MAX_DECLARATION_CHARS = 1_500;
const MAX_DEPTH = 5;
const MAX_MEMBERS = 40;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The declaration line of a tool: `call("id", args: {...}): Promise<...>`.
 *
 * @param id The tool's id.
 * @param tool The tool.
 * @returns The line, e.g. `For code: await call("fs/read", args: { path: string }): Promise<string | unknown[]>`.
 *
 * @example Usage
 * ```ts
 * import { declaration } from "./declaration.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = { server: "fs", name: "read", description: "", inputSchema: { type: "object", properties: { path: { type: "string" }, n: { type: "integer" } }, required: ["path"] } };
 * equal(declaration("fs/read", tool), 'For code: await call("fs/read", args: { path: string; n?: number }): Promise<string | unknown[]>');
 * ```
 */
export function declaration(id: string, tool: McpTool): string {
  const budget = { left: MAX_DECLARATION_CHARS };
  const args = typeOf(tool.inputSchema, tool.inputSchema, 0, new Set(), budget);
  const output = (tool as { outputSchema?: unknown }).outputSchema;
  const result = isRecord(output)
    ? typeOf(output, output, 0, new Set(), budget)
    : "string | unknown[]";
  const line = `For code: await call(${JSON.stringify(id)}, args: ${args}): Promise<${result}>`;
  return escapeInvisible(
    line.length > MAX_DECLARATION_CHARS + 200 ? `${line.slice(0, MAX_DECLARATION_CHARS)}…` : line,
  );
}

function typeOf(
  schema: unknown,
  root: Record<string, unknown>,
  depth: number,
  seen: Set<unknown>,
  budget: { left: number },
): string {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (!isRecord(schema) || depth > MAX_DEPTH || budget.left <= 0 || seen.has(schema)) {
    return "unknown";
  }
  seen.add(schema);
  try {
    const out = plain(schema, root, depth, seen, budget);
    budget.left -= out.length;
    return schema.nullable === true && out !== "unknown" ? `${out} | null` : out;
  } finally {
    seen.delete(schema);
  }
}

function plain(
  schema: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
  seen: Set<unknown>,
  budget: { left: number },
): string {
  const next = (s: unknown) => typeOf(s, root, depth + 1, seen, budget);
  if (typeof schema.$ref === "string") return next(resolve(schema.$ref, root));
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = schema[key];
    if (Array.isArray(members) && members.length > 0) {
      return union(members.slice(0, MAX_MEMBERS).map(next));
    }
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schema.allOf.slice(0, MAX_MEMBERS).map(next).join(" & ");
  }
  if (Array.isArray(schema.enum)) {
    return schema.enum.length === 0
      ? "never"
      : union(schema.enum.slice(0, MAX_MEMBERS).map(literal));
  }
  if (schema.const !== undefined) return literal(schema.const);
  const type = schema.type;
  if (Array.isArray(type)) {
    return union(
      type.slice(0, 8).map((t) => plain({ ...schema, type: t }, root, depth, seen, budget)),
    );
  }
  switch (type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array":
      if (Array.isArray(schema.prefixItems)) {
        return `[${schema.prefixItems.slice(0, MAX_MEMBERS).map(next).join(", ")}]`;
      }
      return schema.items === undefined ? "unknown[]" : wrapArray(next(schema.items));
  }
  if (type === "object" || isRecord(schema.properties)) return object(schema, next);
  return "unknown";
}

function object(schema: Record<string, unknown>, next: (s: unknown) => string): string {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = Object.keys(properties);
  const members = names.slice(0, MAX_MEMBERS).map((name) =>
    `${IDENTIFIER.test(name) ? name : JSON.stringify(name)}${required.has(name) ? "" : "?"}: ${
      next(properties[name])
    }`
  );
  if (names.length > MAX_MEMBERS) members.push(`/* and ${names.length - MAX_MEMBERS} more */`);
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false && names.length === 0) {
    return `Record<string, ${extra === true ? "unknown" : next(extra)}>`;
  }
  if (members.length === 0) return extra === false ? "{}" : "Record<string, unknown>";
  return `{ ${members.join("; ")} }`;
}

function resolve(ref: string, root: Record<string, unknown>): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    } catch {
      return undefined;
    }
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "string") {
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 79)}…` : value);
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return "unknown";
}

function union(types: string[]): string {
  const unique = [...new Set(types)];
  return unique.includes("unknown") ? "unknown" : unique.join(" | ");
}

function wrapArray(type: string): string {
  return /^[A-Za-z_$][\w$<>, ]*$/.test(type) ? `${type}[]` : `Array<${type}>`;
}
