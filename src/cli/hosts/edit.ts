/**
 * A host file's servers read and changed in its own format, everything else in it left as it was:
 * JSON and JSONC edited in place under a path of keys (comments, order and the file's other keys
 * kept), Codex's TOML by its `[mcp_servers.NAME]` tables alone, checked by parsing both texts.
 *
 * @module
 */

import { hostFormat } from "./entries.ts";
import {
  editJson,
  jsonServers,
  type Outcome,
  type Pointer,
  type ServerChanges,
  type Servers,
} from "./json_doc.ts";
import { editToml, tomlServers } from "./toml_doc.ts";

export type { Outcome, Pointer, ServerChanges, ServerEntry, Servers } from "./json_doc.ts";

/**
 * The servers of one place of a host file.
 *
 * @param text The file's text (`""` for no file).
 * @param file The file's path (its format is told by its name).
 * @param pointer The keys down to the servers.
 * @returns The servers (`undefined` when there is no such place yet), or why the file cannot be
 *   read safely, in one line.
 *
 * @example Usage
 * ```ts
 * import { placeServers } from "./edit.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const read = placeServers('{"projects": {"/a": {"mcpServers": {"fs": {"command": "npx"}}}}}', ".claude.json", ["projects", "/a", "mcpServers"]);
 * deepEqual(read.ok && [...read.value!.keys()], ["fs"]);
 * ```
 */
export function placeServers(
  text: string,
  file: string,
  pointer: Pointer,
): Outcome<Servers | undefined> {
  if (hostFormat(file) === "toml") {
    if (pointer.length !== 1) return { ok: false, error: "has no such place" };
    return tomlServers(text, pointer[0]!);
  }
  return jsonServers(text, pointer);
}

/**
 * A host file with one place's servers changed, nothing else.
 *
 * @param text The file's text (`""` for no file).
 * @param file The file's path.
 * @param pointer The keys down to the servers.
 * @param changes What to take out and put in.
 * @returns The new text, or why it cannot be changed safely, in one line.
 *
 * @example Usage
 * ```ts
 * import { editPlace } from "./edit.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const text = '{\n  // mine\n  "theme": "dark",\n  "mcpServers": {"fs": {"command": "npx"}}\n}\n';
 * deepEqual(editPlace(text, "mcp.json", ["mcpServers"], { remove: ["fs"], add: [{ name: "unfold", value: { command: "unfold" } }] }), {
 *   ok: true,
 *   value: '{\n  // mine\n  "theme": "dark",\n  "mcpServers": {\n    "unfold": {\n      "command": "unfold"\n    }\n  }\n}\n',
 * });
 * ```
 */
export function editPlace(
  text: string,
  file: string,
  pointer: Pointer,
  changes: ServerChanges,
): Outcome<string> {
  const before = placeServers(text, file, pointer);
  if (!before.ok) return before;
  if (hostFormat(file) === "toml") return editToml(text, pointer[0]!, changes);
  const out = editJson(text, pointer, changes);
  // Checked as read back: the servers are exactly what was asked for.
  const after = jsonServers(out, pointer);
  const expected = new Map(before.value ?? []);
  for (const name of changes.remove) expected.delete(name);
  for (const { name } of changes.add) expected.set(name, { value: undefined, raw: "" });
  const gone = changes.dropIfEmpty && expected.size === 0;
  if (
    !after.ok || (gone ? after.value !== undefined : after.value === undefined) ||
    [...(after.value?.keys() ?? [])].sort().join("\n") !== [...expected.keys()].sort().join("\n")
  ) {
    return { ok: false, error: "cannot be edited safely: move its servers by hand" };
  }
  return { ok: true, value: out };
}
