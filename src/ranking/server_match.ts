/**
 * How well each server's own words (its name, title and description) match a query, relative to
 * the best-matching server: the ranker's evidence that a tool's server is what the query is about.
 *
 * @module
 */

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
  // For each word, the numbers of the servers that hold it, and its rarity among servers.
  #holders = new Map<string, number[]>();
  #idf = new Map<string, number>();

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
    return this.#numbers.get(server) ?? -1;
  }

  /**
   * Scores every server for a query.
   *
   * @param queryWords The query's distinct words, normalised like the servers' words.
   * @returns Each server's score in [0, 1], by server number; all 0 when none matches.
   */
  match(queryWords: Iterable<string>): Float64Array {
    const scores = new Float64Array(this.#names.length);
    for (const word of queryWords) {
      const idf = this.#idf.get(word) ?? 0;
      for (const index of this.#holders.get(word) ?? []) scores[index]! += idf;
    }
    let best = 0;
    for (const score of scores) best = Math.max(best, score);
    if (best > 0) { for (let i = 0; i < scores.length; i++) scores[i]! /= best; }
    return scores;
  }
}
