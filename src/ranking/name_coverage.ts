/**
 * Two opt-in signals from the words of tool names, for telling a tool from its server's siblings
 * and from tools whose server merely shares a query word:
 *
 * - name coverage: how much of a tool's own name (less its server's words, which every sibling
 *   carries) the query reaches, so that the tool whose whole name a request says
 *   (`create_directory` for "create a directory") can outrank a sibling that shares one word
 *   (`list_directory`);
 * - the server boost without the words a tool's own name holds: a query word in both a tool's name
 *   and its server's words is already counted by the name field and the server fields, and the
 *   server boost would count it a third time.
 *
 * Both cost one pass over the tools whose names hold a query word, like the lexical sum itself.
 *
 * @module
 */

import type { ServerMatch } from "./server_match.ts";

/**
 * The tools' name words, indexed by word: for each word the tools whose name holds it, and each
 * tool's own name words (less its server's), so that a search adds each reached word to the
 * tools that hold it.
 *
 * @example Usage
 * ```ts
 * import { NameCoverage } from "./name_coverage.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const names = new NameCoverage(
 *   [["create", "directory"], ["list", "directory"], ["git", "status"]],
 *   [["files"], ["files"], ["git"]],
 * );
 * const reached = new Map([["create", 1], ["directory", 1], ["status", 1]]);
 * deepEqual([...names.coverage(reached)], [1, 0.5, 1]);
 * deepEqual(names.named("git"), [2]);
 * ```
 */
export class NameCoverage {
  // Each own name word (less the server's words): the tools that hold it.
  readonly #own = new Map<string, number[]>();
  // Every name word (the server's too): the tools whose name holds it.
  readonly #named = new Map<string, number[]>();
  readonly #count: Float64Array;
  readonly #share: Float64Array;

  /**
   * Indexes the names.
   *
   * @param names Each tool's name words, by tool number.
   * @param serverWords Each tool's server name words, left out of its own name words (unless they
   * are all of it).
   */
  constructor(names: readonly (readonly string[])[], serverWords: readonly (readonly string[])[]) {
    this.#count = new Float64Array(names.length);
    this.#share = new Float64Array(names.length);
    names.forEach((name, doc) => {
      const distinct = [...new Set(name)];
      for (const word of distinct) push(this.#named, word, doc);
      const server = new Set(serverWords[doc]);
      const own = distinct.filter((word) => !server.has(word));
      // A name made only of its server's words ("git" on server git) is all the tool has.
      for (const word of own.length > 0 ? own : distinct) {
        push(this.#own, word, doc);
        this.#count[doc]!++;
      }
    });
  }

  /**
   * The tools whose name holds a word (their server's words included).
   *
   * @param word A word.
   * @returns Their numbers, ascending; empty when none.
   */
  named(word: string): readonly number[] {
    return this.#named.get(word) ?? [];
  }

  /**
   * The share of each tool's own name words that a query reaches, each word counted by how fully
   * the query reaches it.
   *
   * @param reached Each catalogue word the query reaches, with how fully, in (0, 1] (each word
   * once: its best).
   * @param serverOf Each tool's server number: when given, each share less the best share among
   * the tools of its server (so 0 for the best of each server, and below for its siblings).
   * @returns Each tool's share, in [0, 1] (or [−1, 0] with `serverOf`), by tool number: a scratch
   * array, valid until the next call.
   */
  coverage(reached: ReadonlyMap<string, number>, serverOf?: Int32Array): Float64Array {
    const share = this.#share;
    share.fill(0);
    for (const [word, cover] of reached) {
      for (const doc of this.#own.get(word) ?? []) share[doc]! += cover;
    }
    for (let doc = 0; doc < share.length; doc++) {
      if (share[doc]! > 0) share[doc] = Math.min(1, share[doc]! / this.#count[doc]!);
    }
    if (serverOf === undefined) return share;
    const best = new Map<number, number>();
    for (let doc = 0; doc < share.length; doc++) {
      const server = serverOf[doc]!;
      if (share[doc]! > (best.get(server) ?? 0)) best.set(server, share[doc]!);
    }
    for (let doc = 0; doc < share.length; doc++) share[doc]! -= best.get(serverOf[doc]!) ?? 0;
    return share;
  }
}

/**
 * Each tool's server match with the query words its own name holds counted at 1 − `discount`:
 * like {@linkcode ServerMatch.prototype.match} (each server scores the summed rarity among servers
 * of the query words its words hold, divided by the best server's score), but per tool.
 *
 * @param queryWords The query's distinct words.
 * @param servers The servers' words.
 * @param serverOf Each tool's server number.
 * @param names The tools' name words.
 * @param discount How much less a word the tool's name holds counts, in [0, 1].
 * @returns Each tool's match in [0, 1], by tool number; all 0 when no server matches.
 *
 * @example Usage
 * ```ts
 * import { NameCoverage, serverMatchBeyondNames } from "./name_coverage.ts";
 * import { ServerMatch } from "./server_match.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const servers = new ServerMatch(new Map([["trending", ["trending"]], ["hub", ["hub"]]]));
 * const names = new NameCoverage([["get", "trending"], ["list", "feeds"]], [["trending"], ["trending"]]);
 * const match = serverMatchBeyondNames(["trending"], servers, Int32Array.of(0, 0), names, 0.5);
 * deepEqual([...match], [0.5, 1]);
 * ```
 */
export function serverMatchBeyondNames(
  queryWords: Iterable<string>,
  servers: ServerMatch,
  serverOf: Int32Array,
  names: NameCoverage,
  discount: number,
): Float64Array {
  const n = serverOf.length;
  const raw = new Float64Array(servers.size);
  const held = new Float64Array(n);
  // The last query word each server holds, by its position: whether a tool's server holds the
  // current word.
  const holds = new Int32Array(servers.size).fill(-1);
  let at = 0;
  for (const word of queryWords) {
    const holders = servers.holders(word);
    if (holders === undefined) continue;
    for (let k = 0; k < holders.servers.length; k++) {
      const server = holders.servers[k]!;
      raw[server]! += holders.idf;
      holds[server] = at;
    }
    for (const doc of names.named(word)) {
      if (holds[serverOf[doc]!] === at) held[doc]! += discount * holders.idf;
    }
    at++;
  }
  let best = 0;
  for (const score of raw) best = Math.max(best, score);
  for (let doc = 0; doc < n; doc++) {
    held[doc] = best > 0 ? (raw[serverOf[doc]!]! - held[doc]!) / best : 0;
  }
  return held;
}

function push(map: Map<string, number[]>, word: string, doc: number): void {
  const list = map.get(word);
  if (list === undefined) map.set(word, [doc]);
  else list.push(doc);
}
