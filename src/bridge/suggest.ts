/**
 * Suggestions for a tool name that is not an id of the catalogue ("closest ids"), from a bounded
 * candidate set: the model alone chooses the name, so the work must not grow with the catalogue
 * times the name. A length filter and a letter-count filter (both lower bounds of the edit
 * distance) pick at most {@linkcode MAX_SUGGESTION_COMPARISONS} candidates; only those are compared.
 *
 * @module
 */

import { compareStrings } from "../_compare.ts";
import { editDistance } from "../_edit_distance.ts";
import type { McpCatalog } from "../catalog.ts";
import { MAX_NAME_CHARS, MAX_SUGGESTION_COMPARISONS } from "../limits.ts";
import { toolId } from "../tool.ts";

/** The longest id a catalogue can hold: two names and the slash. */
export const MAX_ID_CHARS = 2 * MAX_NAME_CHARS + 1;

// Lower-cased names and ids of a catalogue, built once per catalogue on its first unknown name.
interface NameIndex {
  ids: string[];
  names: string[];
  servers: string[];
  byName: Map<string, string[]>;
}
const indexes = new WeakMap<McpCatalog, NameIndex>();

function indexOf(catalog: McpCatalog): NameIndex {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = { ids: [], names: [], servers: [], byName: new Map() };
    for (const tool of catalog.tools) {
      const id = toolId(tool);
      const name = tool.name.toLowerCase();
      index.ids.push(id);
      index.names.push(name);
      index.servers.push(tool.server.toLowerCase());
      const same = index.byName.get(name);
      if (same === undefined) index.byName.set(name, [id]);
      else same.push(id);
    }
    indexes.set(catalog, index);
  }
  return index;
}

/**
 * The ids whose tool name is the given name, ignoring case.
 *
 * @param catalog The catalogue.
 * @param name A bare tool name.
 * @returns The ids, sorted.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { sameNameIds } from "./suggest.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "", inputSchema: { type: "object" } },
 *   { server: "gitlab", name: "create_issue", description: "", inputSchema: { type: "object" } },
 * ]);
 * deepEqual(sameNameIds(catalog, "Create_Issue"), ["github/create_issue", "gitlab/create_issue"]);
 * ```
 */
export function sameNameIds(catalog: McpCatalog, name: string): string[] {
  if (name.length > MAX_NAME_CHARS) return [];
  return indexOf(catalog).byName.get(name.toLowerCase()) ?? [];
}

/**
 * The ids a mistyped name probably meant: those within a small edit distance of its tool name
 * (`max(2, length / 4)`), nearest first; a different server costs one more. At most
 * {@linkcode MAX_SUGGESTION_COMPARISONS} distances are computed, whatever the catalogue.
 *
 * @param catalog The catalogue.
 * @param name The name the model sent, `server/tool` or bare.
 * @param limit The most ids.
 * @returns The ids, nearest first (ties by id), and how many distances were computed.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { closestIds } from "./suggest.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "slack", name: "post_message", description: "", inputSchema: { type: "object" } },
 *   { server: "slack", name: "list_channels", description: "", inputSchema: { type: "object" } },
 * ]);
 * deepEqual(closestIds(catalog, "slack/post_mesage").ids, ["slack/post_message"]);
 * ```
 */
export function closestIds(
  catalog: McpCatalog,
  name: string,
  limit = 3,
): { ids: string[]; compared: number } {
  if (name.length > MAX_ID_CHARS) return { ids: [], compared: 0 };
  const wanted = name.toLowerCase();
  const slash = wanted.indexOf("/");
  const server = slash === -1 ? undefined : wanted.slice(0, slash);
  const bare = wanted.slice(slash + 1);
  if (bare.length > MAX_NAME_CHARS) return { ids: [], compared: 0 };
  const threshold = Math.max(2, Math.floor(bare.length / 4));
  const index = indexOf(catalog);
  const counts = letterCounts(bare);
  // Candidates by a lower bound of the edit distance: the length difference, then the letter-count
  // difference (each edit changes at most one count up and one down).
  const candidates: Array<{ at: number; bound: number }> = [];
  for (let at = 0; at < index.names.length; at++) {
    const candidate = index.names[at]!;
    if (Math.abs(candidate.length - bare.length) > threshold) continue;
    const bound = bagDistance(counts, bare.length, candidate);
    if (bound <= threshold) candidates.push({ at, bound });
  }
  candidates.sort((a, b) => a.bound - b.bound || a.at - b.at);
  const compared = Math.min(candidates.length, MAX_SUGGESTION_COMPARISONS);
  const near: Array<{ id: string; distance: number }> = [];
  for (let k = 0; k < compared; k++) {
    const { at } = candidates[k]!;
    const distance = editDistance(bare, index.names[at]!) +
      (server === undefined || server === index.servers[at] ? 0 : 1);
    if (distance <= threshold) near.push({ id: index.ids[at]!, distance });
  }
  near.sort((a, b) => a.distance - b.distance || compareStrings(a.id, b.id));
  return { ids: near.slice(0, limit).map((c) => c.id), compared };
}

// Code units by their low 7 bits: a coarse histogram, still a lower bound after folding.
function letterCounts(text: string): Int32Array {
  const counts = new Int32Array(128);
  for (let i = 0; i < text.length; i++) counts[text.charCodeAt(i) & 127]! += 1;
  return counts;
}

// max(letters only in a, letters only in b): at most the edit distance of a and b.
function bagDistance(counts: Int32Array, length: number, other: string): number {
  const diff = counts.slice();
  for (let i = 0; i < other.length; i++) diff[other.charCodeAt(i) & 127]! -= 1;
  let surplus = 0;
  for (let i = 0; i < 128; i++) if (diff[i]! > 0) surplus += diff[i]!;
  // surplus = letters of a missing from b; letters of b missing from a = surplus - (|a| - |b|).
  return Math.max(surplus, surplus - (length - other.length));
}
