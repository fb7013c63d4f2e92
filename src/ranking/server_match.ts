/**
 * How well each server's own words (its name, title and description) match a query, relative to
 * the best-matching server: the ranker's evidence that a tool's server is what the query is about.
 *
 * @module
 */

import { indexInSorted } from "./_sorted.ts";
/**
 * Scores servers for a query: each server scores the summed rarity among servers,
 * ln(1 + (S − s + 0.5) / (s + 0.5)) with S servers of which s hold the word, of the query words
 * its own words hold; scores are then divided by the best one.
 *
 * @example Usage
 * ```ts
 * import { ServerMatch } from "./server_match.ts";
 * import { equal } from "node:assert/strict";
 *
 * const servers = new ServerMatch(new Map([
 *   ["osm", ["maps", "geocoding", "server"]],
 *   ["git", ["git", "repository", "server"]],
 * ]));
 * const scores = servers.match(["maps", "server"]);
 * equal(scores[servers.indexOf("osm")], 1);
 * equal(scores[servers.indexOf("git")]! < 1, true);
 * ```
 */
export class ServerMatch {
  #names: string[];
  #numbers = new Map<string, number>();
  // For each word, the numbers of the servers that hold it, and its rarity among servers: in maps
  // when built, in a sorted table when restored from one (read in place, nothing to rebuild).
  #holders = new Map<string, number[]>();
  #idf = new Map<string, number>();
  #table: ServerTable | undefined;

  /**
   * Indexes the servers' words.
   *
   * @param servers Each server's words, by server name.
   */
  constructor(servers: ReadonlyMap<string, readonly string[]>) {
    this.#names = [...servers.keys()];
    this.#names.forEach((server, index) => {
      this.#numbers.set(server, index);
      for (const word of new Set(servers.get(server))) {
        const list = this.#holders.get(word);
        if (list === undefined) this.#holders.set(word, [index]);
        else list.push(index);
      }
    });
    for (const [word, list] of this.#holders) {
      this.#idf.set(word, Math.log(1 + (servers.size - list.length + 0.5) / (list.length + 0.5)));
    }
  }

  /**
   * A server's number: its position in the map given to the constructor.
   *
   * @param server A server name.
   * @returns Its number, or -1 for a server not given.
   */
  indexOf(server: string): number {
    if (this.#table !== undefined && this.#numbers.size === 0) {
      this.#names.forEach((name, index) => this.#numbers.set(name, index));
    }
    return this.#numbers.get(server) ?? -1;
  }

  /**
   * The index as a table: the servers, then every word (sorted by UTF-16 code units) with its
   * servers and rarity. {@linkcode ServerMatch.fromTable} takes it back.
   *
   * @returns The table.
   */
  table(): ServerTable {
    if (this.#table !== undefined) return this.#table;
    const words = [...this.#holders.keys()].sort();
    const starts = new Int32Array(words.length + 1);
    let count = 0;
    words.forEach((word, i) => {
      starts[i] = count;
      count += this.#holders.get(word)!.length;
    });
    starts[words.length] = count;
    const holders = new Int32Array(count);
    const idf = new Float64Array(words.length);
    words.forEach((word, i) => {
      holders.set(this.#holders.get(word)!, starts[i]!);
      idf[i] = this.#idf.get(word)!;
    });
    return { names: this.#names, words, starts, holders, idf };
  }

  /**
   * A server index over a table that {@linkcode ServerMatch.prototype.table} made, used in place.
   *
   * @param table The table.
   * @returns The index; it scores exactly as the one that made the table.
   */
  static fromTable(table: ServerTable): ServerMatch {
    const match = new ServerMatch(new Map());
    match.#names = [...table.names];
    match.#table = table;
    return match;
  }

  /**
   * Scores every server for a query.
   *
   * @param queryWords The query's distinct words, normalised like the servers' words.
   * @returns Each server's score in [0, 1], by server number; all 0 when none matches.
   */
  match(queryWords: Iterable<string>): Float64Array {
    const scores = new Float64Array(this.#names.length);
    const table = this.#table;
    for (const word of queryWords) {
      if (table === undefined) {
        const idf = this.#idf.get(word) ?? 0;
        for (const index of this.#holders.get(word) ?? []) scores[index]! += idf;
        continue;
      }
      const i = indexInSorted(table.words, word);
      if (i < 0) continue;
      for (let k = table.starts[i]!; k < table.starts[i + 1]!; k++) {
        scores[table.holders[k]!]! += table.idf[i]!;
      }
    }
    let best = 0;
    for (const score of scores) best = Math.max(best, score);
    if (best > 0) { for (let i = 0; i < scores.length; i++) scores[i]! /= best; }
    return scores;
  }
}

/** A {@linkcode ServerMatch} as data (a stored search index holds it). */
export interface ServerTable {
  /** The servers, by number. */
  names: readonly string[];
  /** Every word of the servers, sorted by UTF-16 code units. */
  words: readonly string[];
  /** Each word's first holder in `holders`, and one past the last word's. */
  starts: Int32Array;
  /** The numbers of the servers holding each word, ascending. */
  holders: Int32Array;
  /** Each word's rarity among servers. */
  idf: Float64Array;
}
