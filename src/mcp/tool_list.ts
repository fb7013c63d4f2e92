/**
 * The `tools/list` entries of one server as {@linkcode McpTool}s: what the catalogue can hold is
 * kept, names that break MCP's tool-name rules are kept and reported, and what the catalogue cannot
 * hold is left out and reported. Nothing disappears silently.
 *
 * @module
 */

import { isRecord } from "../utils/record.ts";
import type { McpTool } from "../tool.ts";
import { McpError } from "../tool_error.ts";

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

/**
 * The most pages one listing of a server's tools may take: a server whose cursors never end
 * fails its listing at this page instead of being listed for ever.
 */
export const MAX_LIST_PAGES = 1_000;
/** The most tools one listing may hold: the most a catalogue holds by default. */
export const MAX_LIST_TOOLS = 50_000;
/** The most characters of JSON (tools and cursors) one listing may hold: 64 MiB. */
export const MAX_LIST_CHARS = 64 * 1024 * 1024;

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

/**
 * Every entry of a server's `tools/list`, page after page, bounded: at most
 * {@linkcode MAX_LIST_PAGES} pages, {@linkcode MAX_LIST_TOOLS} tools and
 * {@linkcode MAX_LIST_CHARS} characters of JSON; a cursor that repeats, is not a string, or never
 * ends fails the listing with the reason.
 *
 * @param what What fails, for messages: `Cannot list the tools of "github"`.
 * @param page Fetches the page after a cursor (`undefined` for the first).
 * @returns The entries of every page, in order.
 * @throws {McpError} `list_tools` when a page has no list of tools or a bound is crossed; what
 * `page` throws.
 *
 * @example Usage
 * ```ts
 * import { listPages } from "./tool_list.ts";
 * import { equal } from "node:assert/strict";
 *
 * const entries = await listPages("Cannot list", (cursor) =>
 *   Promise.resolve(cursor === undefined ? { tools: [1], nextCursor: "2" } : { tools: [2] }));
 * equal(entries.length, 2);
 * ```
 */
export async function listPages(
  what: string,
  page: (cursor: string | undefined) => Promise<Record<string, unknown>>,
): Promise<unknown[]> {
  const entries: unknown[] = [];
  const cursors = new Set<string>();
  let chars = 0;
  let cursor: string | undefined;
  for (let pages = 1;; pages++) {
    const answer = await page(cursor);
    if (!Array.isArray(answer.tools)) {
      throw new McpError("list_tools", `${what}: the answer has no list of tools`);
    }
    entries.push(...answer.tools);
    if (entries.length > MAX_LIST_TOOLS) {
      throw new McpError(
        "list_tools",
        `${what}: the server lists more than ${MAX_LIST_TOOLS} tools (MAX_LIST_TOOLS)`,
      );
    }
    const next = answer.nextCursor;
    chars += JSON.stringify(answer.tools).length + (typeof next === "string" ? next.length : 0);
    if (chars > MAX_LIST_CHARS) {
      throw new McpError(
        "list_tools",
        `${what}: the listing is over ${MAX_LIST_CHARS} characters of JSON (MAX_LIST_CHARS)`,
      );
    }
    if (next === undefined || next === null) return entries;
    if (typeof next !== "string" || cursors.has(next)) {
      const shown = JSON.stringify(next) ?? String(next);
      throw new McpError(
        "list_tools",
        `${what}: the server sent a bad page cursor ${
          shown.length > 80 ? `${shown.slice(0, 80)}…` : shown
        } (repeated, or not a string)`,
      );
    }
    if (pages === MAX_LIST_PAGES) {
      throw new McpError(
        "list_tools",
        `${what}: the listing does not end: the server sent a new cursor on each of ` +
          `${MAX_LIST_PAGES} pages (MAX_LIST_PAGES)`,
      );
    }
    cursors.add(next);
    cursor = next;
  }
}
