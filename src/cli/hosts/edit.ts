/**
 * A host's config file rewritten so that its servers are one entry, unfold's, and nothing else in
 * it changes: JSON and JSONC are edited in place (comments, order and the file's other keys kept),
 * Codex's TOML by its `[mcp_servers.NAME]` tables alone, checked by parsing both texts.
 *
 * @module
 */

import { hostFormat, parseHostText, tomlText, withJsonKey } from "./files.ts";

/**
 * The host file with `serversKey` holding only `{name: entry}`.
 *
 * @param text The file's text (`""` when there is no file yet).
 * @param path The file's path (its format is told by its name).
 * @param serversKey The key the host reads its servers from.
 * @param name The entry's name.
 * @param entry The entry.
 * @returns The new text, or why the file cannot be rewritten safely, in one line.
 *
 * @example Usage
 * ```ts
 * import { withOnlyEntry } from "./edit.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const text = '{\n  // mine\n  "theme": "dark",\n  "mcpServers": {"fs": {"command": "npx"}}\n}\n';
 * deepEqual(withOnlyEntry(text, "mcp.json", "mcpServers", "unfold", { command: "unfold" }), {
 *   ok: true,
 *   value: '{\n  // mine\n  "theme": "dark",\n  "mcpServers": {\n    "unfold": {\n      "command": "unfold"\n    }\n  }\n}\n',
 * });
 * ```
 */
export function withOnlyEntry(
  text: string,
  path: string,
  serversKey: string,
  name: string,
  entry: Record<string, unknown>,
): { ok: true; value: string } | { ok: false; error: string } {
  const servers = { [name]: entry };
  if (hostFormat(path) === "toml") return tomlWithOnly(text, serversKey, servers);
  if (text.trim() === "") {
    return { ok: true, value: `${JSON.stringify({ [serversKey]: servers }, null, 2)}\n` };
  }
  const before = parseHostText(text, path);
  if (!before.ok || typeof before.value !== "object" || before.value === null) {
    return { ok: false, error: "is not a JSON object: fix it or give another file with --file" };
  }
  return { ok: true, value: withJsonKey(text, serversKey, servers) };
}

// A TOML table header: `[a.b]` or `[[a.b]]`, with what it names.
const HEADER = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/;

// Removes each `[mcp_servers...]` table (a comment block just before the next table stays with
// that table), appends the new one, and checks that nothing else changed.
function tomlWithOnly(
  text: string,
  key: string,
  servers: Record<string, Record<string, unknown>>,
): { ok: true; value: string } | { ok: false; error: string } {
  const before = parseHostText(text, "x.toml");
  if (!before.ok) return before;
  const lines = text.split("\n");
  const kept: string[] = [];
  let dropping = false;
  let held: string[] = [];
  for (const line of lines) {
    const header = HEADER.exec(line);
    if (header !== null) {
      const ours = header[1] === key || header[1]!.startsWith(`${key}.`);
      if (dropping && !ours) kept.push(...held);
      held = [];
      dropping = ours;
    }
    if (!dropping) kept.push(line);
    else if (header === null && /^\s*(#.*)?$/.test(line)) held.push(line);
    else held = [];
  }
  if (dropping) kept.push(...held);
  let body = kept.join("\n").replace(/\n*$/, "");
  body = `${body}${body === "" ? "" : "\n\n"}${tomlText({ [key]: servers })}\n`;
  const after = parseHostText(body, "x.toml");
  const rest = (value: unknown) => {
    const copy = { ...(value as Record<string, unknown>) };
    delete copy[key];
    return copy;
  };
  if (
    !after.ok || !same(rest(after.value), rest(before.value)) ||
    !same((after.value as Record<string, unknown>)[key], servers)
  ) {
    return {
      ok: false,
      error:
        `cannot be rewritten safely: write its ${key} as [${key}.NAME] tables, or move them by hand`,
    };
  }
  return { ok: true, value: body };
}

// The same data (TOML tables come back without Object's prototype, so compared as JSON; the key
// order is the text's, which the edit keeps).
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
