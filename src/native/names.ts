/**
 * The names the Claude and OpenAI APIs call catalogue tools by: both take only
 * `^[a-zA-Z0-9_-]{1,64}$`, while an MCP id (`server/tool`) may hold any character. A tool is named
 * `server__tool` when that is already valid, unique and short enough; otherwise its cleaned,
 * shortened id plus a hash of the exact id. The table built for a catalogue maps both ways.
 *
 * @module
 */

import type { McpCatalog } from "../catalog.ts";
import { toolId } from "../tool.ts";

/** What both APIs accept as a tool (and namespace) name. */
export const NATIVE_NAME: RegExp = /^[a-zA-Z0-9_-]{1,64}$/;

const MAX_CHARS = 64;
const HASH_CHARS = 8;

/** The names of one catalogue's tools and servers in the native APIs, both ways. */
export interface NativeNames {
  /**
   * The API name of a tool.
   *
   * @param id The tool id, `server/tool`.
   * @returns Its name, or `undefined` for an id outside the catalogue.
   */
  nameOf(id: string): string | undefined;
  /**
   * The tool an API name stands for.
   *
   * @param name A name from {@linkcode NativeNames.nameOf}.
   * @returns The tool id, or `undefined` for a name this catalogue never gave.
   */
  idOf(name: string): string | undefined;
  /**
   * The OpenAI namespace name of a server.
   *
   * @param server A server of the catalogue.
   * @returns Its namespace name, or `undefined` for a server outside the catalogue.
   */
  namespaceOf(server: string): string | undefined;
}

const TABLES = new WeakMap<McpCatalog, NativeNames>();

/**
 * The name table of a catalogue (built once per catalogue object, in time linear in its size).
 *
 * @param catalog The catalogue.
 * @returns Its names.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { nativeNames } from "./names.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const schema = { type: "object" };
 * const names = nativeNames(new McpCatalog([
 *   { server: "github", name: "create_issue", description: "", inputSchema: schema },
 *   { server: "my.files", name: "read file", description: "", inputSchema: schema },
 * ]));
 * equal(names.nameOf("github/create_issue"), "github__create_issue");
 * match(names.nameOf("my.files/read file")!, /^my_files__read_file_[0-9a-f]{8}$/);
 * equal(names.idOf(names.nameOf("my.files/read file")!), "my.files/read file");
 * ```
 */
export function nativeNames(catalog: McpCatalog): NativeNames {
  let table = TABLES.get(catalog);
  if (table !== undefined) return table;
  const ids = catalog.tools.map(toolId);
  const tools = assign(ids, (id) => {
    const slash = id.indexOf("/");
    return `${id.slice(0, slash)}__${id.slice(slash + 1)}`;
  });
  const servers = assign([...new Set(catalog.tools.map((t) => t.server))], (server) => server);
  const byName = new Map([...tools].map(([id, name]) => [name, id]));
  table = {
    nameOf: (id) => tools.get(id),
    idOf: (name) => byName.get(name),
    namespaceOf: (server) => servers.get(server),
  };
  TABLES.set(catalog, table);
  return table;
}

// Keys (in a fixed order) → unique valid names. Readable names that are valid as they are and that
// no other key would also claim go first; every other key gets its cleaned text, cut to fit, plus
// a hash of the key, and a counter in the rare case that is taken too.
function assign(keys: readonly string[], readable: (key: string) => string): Map<string, string> {
  const claims = new Map<string, number>();
  for (const key of keys) {
    const name = readable(key);
    claims.set(name, (claims.get(name) ?? 0) + 1);
  }
  const names = new Map<string, string>();
  const used = new Set<string>();
  const rest: string[] = [];
  for (const key of keys) {
    const name = readable(key);
    if (NATIVE_NAME.test(name) && claims.get(name) === 1) {
      names.set(key, name);
      used.add(name);
    } else rest.push(key);
  }
  const next = new Map<string, number>();
  for (const key of rest) {
    const clean = readable(key).replace(/[^a-zA-Z0-9_-]/g, "_")
      .slice(0, MAX_CHARS - HASH_CHARS - 1);
    const base = `${clean}_${fnv1a(key)}`;
    let name = base;
    // Counters start where the last key of the same base stopped, so the work stays linear.
    for (let n = next.get(base) ?? 2; used.has(name); n++) {
      name = `${base.slice(0, MAX_CHARS - String(n).length - 1)}_${n}`;
      next.set(base, n + 1);
    }
    names.set(key, name);
    used.add(name);
  }
  return names;
}

// FNV-1a over UTF-16 code units: 8 hex digits that tell apart ids whose cleaned text is the same.
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(HASH_CHARS, "0");
}
