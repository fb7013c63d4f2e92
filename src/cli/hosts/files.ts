/**
 * MCP hosts' own config files read as unfold's `{mcpServers, unfold}` config, before the config
 * parser sees them: JSON with other top-level keys (Claude Desktop, Claude Code, Cursor,
 * Windsurf, Gemini CLI), VS Code's JSONC `servers`, and Codex's TOML `[mcp_servers.NAME]`. Each
 * host's own way of writing an entry (`serverUrl`, `httpUrl`, `bearer_token_env_var`,
 * `${env:VAR}`, ...) becomes unfold's; what unfold does not use is named, never guessed at.
 * `unfold gateway --config` and `unfold setup` both read host files through here (a plain JSON
 * file through `host_entries.ts` alone, which this module builds on).
 *
 * @module
 */

import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { type HostConfig, hostConfigOf, hostFormat } from "./entries.ts";
import type { Result } from "../../result.ts";

export { type HostConfig, type HostFormat, hostFormat } from "./entries.ts";

/**
 * Reads a host's config file as unfold's config.
 *
 * @param text The file's text.
 * @param path The file's path (its format is told by its name).
 * @returns The config and what was left out, or why the file cannot be used, in one line.
 *
 * @example A Claude Desktop file with its own settings beside its servers
 * ```ts
 * import { readHostFile } from "./files.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const read = readHostFile(
 *   '{"globalShortcut": "", "mcpServers": {"fs": {"command": "npx", "timeout": 5}}}',
 *   "claude_desktop_config.json",
 * );
 * deepEqual(read, {
 *   ok: true,
 *   value: {
 *     config: { mcpServers: { fs: { command: "npx" } } },
 *     ignored: ['the top-level key "globalShortcut"', 'the field "mcpServers/fs/timeout"'],
 *     refused: [],
 *     serversKey: "mcpServers",
 *   },
 * });
 * ```
 */
export function readHostFile(
  text: string,
  path: string,
): Result<HostConfig, string> {
  const parsed = parseHostText(text, path);
  if (!parsed.ok) return parsed;
  return hostConfigOf(parsed.value, text);
}

/**
 * Parses a host file's text in its format, keeping nothing but the data.
 *
 * @param text The text.
 * @param path The file's path (its format is told by its name).
 * @returns The data (`undefined` for JSON that does not parse: the caller passes the text on),
 *   or the TOML error in one line.
 */
export function parseHostText(
  text: string,
  path: string,
): Result<unknown, string> {
  if (hostFormat(path) === "toml") {
    try {
      return { ok: true, value: parseToml(text) };
    } catch (e) {
      return { ok: false, error: `not TOML (${(e as Error).message.split("\n")[0]})` };
    }
  }
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  return { ok: true, value: errors.length > 0 ? undefined : value };
}

/**
 * TOML for a value (one importer of the TOML library: this module).
 *
 * @param value A table.
 * @returns Its TOML text.
 */
export function tomlText(value: Record<string, unknown>): string {
  return stringifyToml(value);
}
