/**
 * The shapes unfold reads from MCP servers: a tool as `tools/list` returns it, tagged with the
 * server it came from, and optional information about each server.
 *
 * @module
 */

/**
 * An MCP `tools/list` entry plus the server it came from. Its id is `${server}/${name}`.
 *
 * @example Usage
 * ```ts
 * import type { McpTool } from "./tool.ts";
 *
 * const echo: McpTool = {
 *   server: "everything",
 *   name: "echo",
 *   description: "Echoes back the input string",
 *   inputSchema: { type: "object", properties: { message: { type: "string" } } },
 * };
 * ```
 */
export interface McpTool {
  /** The server's name, as the host knows it; never contains `/`. */
  server: string;
  /** The tool's name on its server. */
  name: string;
  /** What the tool does, as its server describes it: untrusted third-party text. */
  description: string;
  /** The tool's JSON Schema input, an object schema (`"type": "object"`). */
  inputSchema: Record<string, unknown>;
  /** A display name some servers provide. */
  title?: string;
  /** The JSON Schema of the tool's structured output, when the server declares one. */
  outputSchema?: Record<string, unknown>;
  /** MCP tool annotations (read-only hint, destructive hint, ...). */
  annotations?: Record<string, unknown>;
  /** MCP metadata, passed through untouched. */
  _meta?: Record<string, unknown>;
}

/**
 * Optional information about a server of a catalogue: shown in the `names` and `inventory`
 * disclosure levels and used by the ranker. Untrusted third-party text, like descriptions.
 */
export interface ServerInfo {
  /** The server's name, as used in the tools' `server` field. */
  server: string;
  /** A display name. */
  title?: string;
  /** What the server is for. */
  description?: string;
}

/**
 * The id of a tool: its server and name joined by `/`.
 *
 * @param tool The tool, or anything with a `server` and a `name`.
 * @returns The id, `server/name`.
 *
 * @example Usage
 * ```ts
 * import { toolId } from "./tool.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(toolId({ server: "github", name: "create_issue" }), "github/create_issue");
 * ```
 */
export function toolId(tool: { readonly server: string; readonly name: string }): string {
  return `${tool.server}/${tool.name}`;
}
