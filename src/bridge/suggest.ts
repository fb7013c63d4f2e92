/**
 * Suggestions for a tool name that is not an id of the catalogue ("closest ids"), from a bounded
 * candidate set: the model alone chooses the name, so the work must not grow with the catalogue
 * times the name. A length filter and a letter-count filter (both lower bounds of the edit
 * distance) pick at most {@linkcode MAX_SUGGESTION_COMPARISONS} candidates; only those are compared.
 *
 * @module
 */

import { compareStrings } from "../utils/compare.ts";
import type { McpCatalog } from "../catalog.ts";
import { MAX_NAME_CHARS, MAX_SUGGESTION_COMPARISONS, MAX_SUGGESTION_DISTANCE } from "../limits.ts";
import { toolId } from "../tool.ts";

/** The longest id a catalogue can hold: two names and the slash. */
export const MAX_ID_CHARS = 2 * MAX_NAME_CHARS + 1;

// Lower-cased names and ids of a catalogue, built once per catalogue on its first unknown name.
interface NameIndex {
  ids: string[];
  names: string[];
  servers: string[];
  byName: Map<string, string[]>;
  serverSet: Set<string>;
}
const indexes = new WeakMap<McpCatalog, NameIndex>();

function indexOf(catalog: McpCatalog): NameIndex {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = { ids: [], names: [], servers: [], byName: new Map(), serverSet: new Set() };
    for (const tool of catalog.tools) {
      const id = toolId(tool);
      const name = tool.name.toLowerCase();
      index.ids.push(id);
      index.names.push(name);
      index.servers.push(tool.server.toLowerCase());
      index.serverSet.add(tool.server.toLowerCase());
      const same = index.byName.get(name);
      if (same === undefined) index.byName.set(name, [id]);
      else same.push(id);
    }
    indexes.set(catalog, index);
  }
  return index;
}

/**
 * Whether some tool of the catalogue is on this server, ignoring case.
 *
 * @param catalog The catalogue.
 * @param server A server name.
 * @returns `true` when the catalogue has a tool of that server.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { hasServer } from "./suggest.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "github", name: "create_issue", description: "", inputSchema: { type: "object" } },
 * ]);
 * equal(hasServer(catalog, "GitHub"), true);
 * equal(hasServer(catalog, "gitlab"), false);
 * ```
 */
export function hasServer(catalog: McpCatalog, server: string): boolean {
  return indexOf(catalog).serverSet.has(server.toLowerCase());
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
 * (`max(2, length / 4)`, at most {@linkcode MAX_SUGGESTION_DISTANCE}), nearest first; a different server costs one more. At most
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
  const threshold = Math.min(MAX_SUGGESTION_DISTANCE, Math.max(2, Math.floor(bare.length / 4)));
  const index = indexOf(catalog);
  const counts = letterCounts(bare);
  const scratch = new Int32Array(128);
  // Candidates by a lower bound of the edit distance: the length difference, then the letter-count
  // difference (each edit changes at most one count up and one down).
  const candidates: Array<{ at: number; bound: number }> = [];
  for (let at = 0; at < index.names.length; at++) {
    const candidate = index.names[at]!;
    if (Math.abs(candidate.length - bare.length) > threshold) continue;
    const bound = bagDistance(counts, bare.length, candidate, scratch);
    if (bound <= threshold) candidates.push({ at, bound });
  }
  candidates.sort((a, b) => a.bound - b.bound || a.at - b.at);
  const compared = Math.min(candidates.length, MAX_SUGGESTION_COMPARISONS);
  const near: Array<{ id: string; distance: number }> = [];
  const rows = [new Int32Array(MAX_NAME_CHARS + 1), new Int32Array(MAX_NAME_CHARS + 1)];
  for (let k = 0; k < compared; k++) {
    const { at } = candidates[k]!;
    const penalty = server === undefined || server === index.servers[at] ? 0 : 1;
    const distance = boundedDistance(bare, index.names[at]!, threshold - penalty, rows) + penalty;
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

// max(letters only in a, letters only in b): at most the edit distance of a and b. `scratch` is
// all zeros before and after.
function bagDistance(
  counts: Int32Array,
  length: number,
  other: string,
  scratch: Int32Array,
): number {
  for (let i = 0; i < other.length; i++) scratch[other.charCodeAt(i) & 127]! += 1;
  let surplus = 0;
  for (let i = 0; i < 128; i++) {
    const extra = counts[i]! - scratch[i]!;
    if (extra > 0) surplus += extra;
    scratch[i] = 0;
  }
  // surplus = letters of a missing from b; letters of b missing from a = surplus - (|a| - |b|).
  return Math.max(surplus, surplus - (length - other.length));
}

// Levenshtein distance (insertions, deletions, substitutions) of two names of at most
// MAX_NAME_CHARS, or max + 1 as soon as it must exceed max. Hand-written rather than the shared
// editDistance because it reuses two typed rows and stops early: 10,000 alike 128-character names
// took 166 ms through the shared one (which allocates a full table per pair).
function boundedDistance(a: string, b: string, max: number, rows: Int32Array[]): number {
  if (max < 0 || Math.abs(a.length - b.length) > max) return max + 1;
  const far = max + 1;
  let previous = rows[0]!;
  let current = rows[1]!;
  for (let j = 0; j <= b.length; j++) previous[j] = j <= max ? j : far;
  for (let i = 1; i <= a.length; i++) {
    // Only the band |i - j| <= max can hold a distance within max.
    const from = Math.max(1, i - max);
    const to = Math.min(b.length, i + max);
    current[from - 1] = from === 1 && i <= max ? i : far;
    let best = far;
    const ca = a.charCodeAt(i - 1);
    for (let j = from; j <= to; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost, far);
      current[j] = d;
      if (d < best) best = d;
    }
    if (to < b.length) current[to + 1] = far;
    if (best > max) return far;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length]!, far);
}
