/**
 * The `tools/list` entries of one server as {@linkcode McpTool}s: what the catalogue can hold is
 * kept, names that break MCP's tool-name rules are kept and reported, and what the catalogue cannot
 * hold is left out and reported. Nothing disappears silently.
 *
 * @module
 */

import { isRecord } from "../_record.ts";
import type { McpTool } from "../tool.ts";

/**
 * A problem with one tool of a server's listing. Tools whose name breaks MCP's tool-name rules
 * (1 to 128 characters of `A-Z a-z 0-9 _ - .`) are kept (`dropped: false`); tools a catalogue
 * cannot hold (no name, a control character in the name, a repeated name, no object input schema)
 * are left out (`dropped: true`).
 */
export interface ToolIssue {
  /** The server's name. */
  server: string;
  /** The tool's name as the server sent it (`""` when it sent none). */
  name: string;
  /** What is wrong, in words. */
  problem: string;
  /** Whether the tool was left out of the listing. */
  dropped: boolean;
}

// MCP's tool-name rule (SEP-986), as the SDK's own validator states it.
const TOOL_NAME = /^[A-Za-z0-9._-]{1,128}$/;
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;

/**
 * Turns the raw `tools/list` entries of one server into {@linkcode McpTool}s, in the server's
 * order, reporting every {@linkcode ToolIssue}.
 *
 * @param server The server's name.
 * @param entries The entries of every page, in order.
 * @param report Receives each issue.
 * @returns The tools a catalogue can hold.
 *
 * @example Usage
 * ```ts
 * import { type ToolIssue, toMcpTools } from "./tool_list.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const issues: ToolIssue[] = [];
 * const tools = toMcpTools("demo", [
 *   { name: "echo", description: "Echoes", inputSchema: { type: "object" } },
 *   { name: "say hello", inputSchema: { type: "object" } },
 *   { name: "broken" },
 * ], (issue) => issues.push(issue));
 * deepEqual(tools.map((tool) => tool.name), ["echo", "say hello"]);
 * equal(tools[1]?.description, "");
 * deepEqual(issues.map(({ name, dropped }) => [name, dropped]), [["say hello", false], ["broken", true]]);
 * ```
 */
export function toMcpTools(
  server: string,
  entries: readonly unknown[],
  report: (issue: ToolIssue) => void,
): McpTool[] {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const raw = isRecord(entry) ? entry : {};
    const name = typeof raw.name === "string" ? raw.name : "";
    const drop = (problem: string) => report({ server, name, problem, dropped: true });
    if (!isRecord(entry)) {
      drop("is not an object");
      continue;
    }
    if (name === "") {
      drop("has no name");
      continue;
    }
    if (UNPRINTABLE.test(name)) {
      drop("has a control character in its name");
      continue;
    }
    if (seen.has(name)) {
      drop("repeats a name already listed by this server");
      continue;
    }
    const schema = raw.inputSchema;
    if (!isRecord(schema) || schema.type !== "object") {
      drop('has no object input schema ("type": "object")');
      continue;
    }
    seen.add(name);
    if (!TOOL_NAME.test(name)) {
      report({
        server,
        name,
        problem: "breaks MCP's tool-name rules (1 to 128 characters of A-Z a-z 0-9 _ - .)",
        dropped: false,
      });
    }
    const tool: McpTool = {
      server,
      name,
      description: typeof raw.description === "string" ? raw.description : "",
      inputSchema: schema,
    };
    if (typeof raw.title === "string") tool.title = raw.title;
    if (isRecord(raw.outputSchema)) tool.outputSchema = raw.outputSchema;
    if (isRecord(raw.annotations)) tool.annotations = raw.annotations;
    if (isRecord(raw._meta)) tool._meta = raw._meta;
    tools.push(tool);
  }
  return tools;
}
