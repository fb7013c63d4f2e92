/**
 * Codex's TOML file as `unfold setup` reads and edits it: each server is its `[mcp_servers.NAME]`
 * table and the tables under it (`[mcp_servers.NAME.env]`), with the comment lines just above;
 * an edit takes out or appends whole tables and nothing else, and is checked by parsing both
 * texts: every other key must come back the same. A layout that cannot be edited so (servers as
 * dotted keys or inline tables) is refused in one line.
 *
 * @module
 */

import { parse as parseToml, stringify as stringifyToml } from "smol-toml";
import { plainData, sameData } from "./data.ts";
import type { Outcome, ServerChanges, Servers } from "./json_doc.ts";
import { lineEnding } from "./text_bytes.ts";
import { isRecord } from "../../utils/record.ts";
import type { Result } from "../../result.ts";

// One table of the text (or the lines before the first): its header's keys, and its lines.
interface Block {
  path: string[] | undefined;
  lines: string[];
}

/**
 * The servers of a TOML text, under a top-level key.
 *
 * @param text The text.
 * @param key The key (`mcp_servers`).
 * @returns The servers (`undefined` when there are none), or why they cannot be edited safely.
 *
 * @example Usage
 * ```ts
 * import { tomlServers } from "./toml_doc.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const read = tomlServers('model = "o3"\n\n# mine\n[mcp_servers.fs]\ncommand = "npx"\n', "mcp_servers");
 * deepEqual(read.ok && [...read.value!.entries()], [
 *   ["fs", { value: { command: "npx" }, raw: '# mine\n[mcp_servers.fs]\ncommand = "npx"\n' }],
 * ]);
 * ```
 */
export function tomlServers(text: string, key: string): Outcome<Servers | undefined> {
  const parsed = parse(text);
  if (!parsed.ok) return parsed;
  const table = (parsed.value as Record<string, unknown>)[key];
  if (table === undefined) return { ok: true, value: undefined };
  if (!isRecord(table)) return unsafe(key);
  const blocks = splitBlocks(text);
  const names = Object.keys(table);
  const servers: Servers = new Map();
  for (const name of names) {
    const own = blocks.filter((b) => b.path?.[0] === key && b.path[1] === name);
    if (own.length === 0) return unsafe(key);
    servers.set(name, { value: plainData(table[name]), raw: own.map(blockText).join("") });
  }
  // A `[mcp_servers]` table with keys of its own, or tables of servers the data does not have.
  const stray = blocks.some((b) =>
    b.path?.[0] === key &&
    (b.path.length === 1
      ? b.lines.some((line) => isContent(line) && headerPath(line.trimEnd()) === undefined)
      : !names.includes(b.path[1]!))
  );
  return stray ? unsafe(key) : { ok: true, value: servers };
}

/**
 * A TOML text with servers under a top-level key taken out and added, nothing else changed.
 *
 * @param text The text.
 * @param key The key (`mcp_servers`).
 * @param changes What to take out and put in.
 * @returns The new text, or why it cannot be edited safely.
 */
export function editToml(text: string, key: string, changes: ServerChanges): Outcome<string> {
  const before = tomlServers(text, key);
  if (!before.ok) return before;
  const parsed = parse(text);
  if (!parsed.ok) return parsed;
  const eol = lineEnding(text);
  const gone = new Set(changes.remove);
  const kept = splitBlocks(text).filter((b) =>
    !(b.path?.[0] === key && b.path.length > 1 && gone.has(b.path[1]!))
  );
  let out = kept.map(blockText).join("");
  for (const { name, value, raw } of changes.add) {
    const written = raw !== undefined && rawIs(raw, key, name, value)
      ? raw
      : stringifyToml({ [key]: { [name]: value } }).replace(/\r?\n/g, eol);
    const body = written.replace(/^(\r?\n)+/, "");
    if (out !== "" && !out.endsWith(eol)) out += eol;
    const gap = out.trim() === "" || out.endsWith(`${eol}${eol}`) ? "" : eol;
    out += `${gap}${body}${body.endsWith("\n") ? "" : eol}`;
  }
  // Checked: the data is what was asked for, and every other key is as it was.
  const expected = plainData(parsed.value) as Record<string, unknown>;
  const servers = { ...(plainData(expected[key] ?? {}) as Record<string, unknown>) };
  for (const name of gone) delete servers[name];
  for (const { name, value } of changes.add) {
    Object.defineProperty(servers, name, {
      value: plainData(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  delete expected[key];
  if (Object.keys(servers).length > 0) expected[key] = servers;
  const after = parse(out);
  if (!after.ok || !sameData(plainData(after.value), expected)) return unsafe(key);
  return { ok: true, value: out };
}

function parse(text: string): Outcome<unknown> {
  try {
    return { ok: true, value: parseToml(text) };
  } catch (e) {
    return { ok: false, error: `is not TOML (${(e as Error).message.split("\n")[0]})` };
  }
}

function unsafe(key: string): Result<never, string> {
  return {
    ok: false,
    error:
      `cannot be edited safely: write its ${key} as [${key}.NAME] tables, or move them by hand`,
  };
}

// Whether a table's text holds exactly that server (so it can be put back as it was written).
function rawIs(raw: string, key: string, name: string, value: unknown): boolean {
  const read = parse(raw);
  if (!read.ok) return false;
  const data = plainData(read.value) as Record<string, Record<string, unknown>>;
  return Object.keys(data).length === 1 && Object.keys(data[key] ?? {}).length === 1 &&
    sameData(data[key]?.[name], plainData(value));
}

function isContent(line: string): boolean {
  return !/^\s*(#.*)?\r?\n?$/.test(line);
}

function blockText(block: Block): string {
  return block.lines.join("");
}

// The text's tables, each with the comment lines just above its header (they describe it).
// Lines keep their line breaks, so the blocks joined are the text.
function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [{ path: undefined, lines: [] }];
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    const path = headerPath(line.replace(/\r?\n$/, ""));
    if (path === undefined) {
      blocks[blocks.length - 1]!.lines.push(line);
      continue;
    }
    const previous = blocks[blocks.length - 1]!;
    let start = previous.lines.length;
    while (start > 0 && /^\s*#/.test(previous.lines[start - 1]!)) start--;
    blocks.push({ path, lines: [...previous.lines.splice(start), line] });
  }
  return blocks;
}

/**
 * The keys of a TOML table header (`[a."b c".d]` or `[[a.b]]`), or `undefined` for another line.
 *
 * @param line One line.
 * @returns The keys.
 */
export function headerPath(line: string): string[] | undefined {
  const open = /^\s*\[\[?/.exec(line);
  if (open === null) return undefined;
  const keys: string[] = [];
  let i = open[0].length;
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    const rest = line.slice(i);
    const bare = /^[A-Za-z0-9_-]+/.exec(rest);
    const basic = /^"((?:[^"\\]|\\.)*)"/.exec(rest);
    const literal = /^'([^']*)'/.exec(rest);
    if (bare !== null) {
      keys.push(bare[0]);
      i += bare[0].length;
    } else if (basic !== null) {
      try {
        keys.push(JSON.parse(`"${basic[1]}"`));
      } catch {
        return undefined;
      }
      i += basic[0].length;
    } else if (literal !== null) {
      keys.push(literal[1]!);
      i += literal[0].length;
    } else return undefined;
    while (line[i] === " " || line[i] === "\t") i++;
    if (line[i] === ".") {
      i++;
      continue;
    }
    return /^\]\]?\s*(#.*)?\r?$/.test(line.slice(i)) ? keys : undefined;
  }
}
