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
 * The ranker reaches this module only through its `nameWords` option ({@linkcode indexNames}).
 *
 * @module
 */

import type { ServerMatch, ServerTable } from "./server_match.ts";
import { indexInSorted } from "./_sorted.ts";
import { decodeNames, encodeNames, type NameParts, type WordDocs } from "./name_snapshot.ts";

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
 * const reached = [[{ term: "create", cover: 1 }], [{ term: "directory", cover: 1 }, { term: "status", cover: 1 }]];
 * deepEqual([...names.coverage(reached)], [1, 0.5, 1]);
 * deepEqual(names.named("git"), [2]);
 * ```
 */
export class NameCoverage {
  // Each own name word (less the server's words): the tools that hold it.
  readonly #own: WordDocs;
  // Every name word (the server's too): the tools whose name holds it.
  readonly #named: WordDocs;
  readonly #count: Float64Array;
  // What a restored index was read from (its snapshot), or how to write one.
  readonly #bytes: Uint8Array | (() => Uint8Array);
  readonly #share: Float64Array;
  #servers: { match: ServerMatch; table: ServerTable } | undefined;

  /**
   * Indexes the names.
   *
   * @param names Each tool's name words, by tool number.
   * @param serverWords Each tool's server name words, left out of its own name words (unless they
   * are all of it).
   * @param stored A saved index (`names` and `serverWords` are then ignored), and its bytes.
   */
  constructor(
    names: readonly (readonly string[])[],
    serverWords: readonly (readonly string[])[],
    stored?: { parts: NameParts; bytes: Uint8Array },
  ) {
    if (stored !== undefined) {
      this.#own = stored.parts.own;
      this.#named = stored.parts.named;
      this.#count = stored.parts.count;
      this.#share = new Float64Array(this.#count.length);
      this.#bytes = stored.bytes;
      return;
    }
    const ownDocs = new Map<string, number[]>();
    const namedDocs = new Map<string, number[]>();
    this.#own = ownDocs;
    this.#named = namedDocs;
    this.#count = new Float64Array(names.length);
    this.#share = new Float64Array(names.length);
    this.#bytes = () => encodeNames(ownDocs, namedDocs, this.#count);
    // Without a Set per tool (a name has a few words): a fresh Worker isolate builds this index
    // for every catalogue it restores, before its code is optimised.
    names.forEach((name, doc) => {
      const server = serverWords[doc] ?? [];
      let own = 0;
      for (let i = 0; i < name.length; i++) {
        const word = name[i]!;
        if (name.indexOf(word) !== i) continue;
        push(namedDocs, word, doc);
        if (!server.includes(word)) own++;
      }
      // A name made only of its server's words ("git" on server git) is all the tool has.
      for (let i = 0; i < name.length; i++) {
        const word = name[i]!;
        if (name.indexOf(word) !== i || (own > 0 && server.includes(word))) continue;
        push(ownDocs, word, doc);
        this.#count[doc]!++;
      }
    });
  }

  /**
   * Each tool's factor for a query: 1 + `serverBoost` × its server match (with the query words its
   * own name holds discounted by `serverBoostNameDiscount`, see
   * {@linkcode NameCoverage.prototype.serverMatch}), times 1 + `nameCoverage` × its name coverage
   * (see {@linkcode NameCoverage.prototype.coverage}).
   *
   * @param reached For each query word, the catalogue words it reaches and how fully.
   * @param queryWords The query's distinct words.
   * @param settings The weights.
   * @param servers The servers' words.
   * @param serverOf Each tool's server number.
   * @returns The factors, by tool number.
   */
  factors(
    reached: readonly (readonly { term: string; cover: number }[])[],
    queryWords: Iterable<string>,
    settings: NameSettings,
    servers: ServerMatch,
    serverOf: Int32Array,
  ): Float64Array {
    const discount = settings.serverBoostNameDiscount ?? NAME_DEFAULTS.serverBoostNameDiscount;
    const nameCoverage = settings.nameCoverage ?? NAME_DEFAULTS.nameCoverage;
    const nameCoverageSiblings = settings.nameCoverageSiblings ??
      NAME_DEFAULTS.nameCoverageSiblings;
    const factors = new Float64Array(serverOf.length).fill(1);
    if (settings.serverBoost > 0) {
      const match = discount > 0 ? this.serverMatch(queryWords, servers, serverOf, discount) : null;
      const perServer = match === null ? servers.match(queryWords) : null;
      for (let doc = 0; doc < factors.length; doc++) {
        factors[doc]! *= 1 +
          settings.serverBoost * (match ?? perServer!)[match ? doc : serverOf[doc]!]!;
      }
    }
    if (nameCoverage > 0) {
      const share = this.coverage(reached, nameCoverageSiblings ? serverOf : undefined);
      for (let doc = 0; doc < factors.length; doc++) {
        factors[doc]! *= 1 + nameCoverage * share[doc]!;
      }
    }
    return factors;
  }

  /**
   * The tools whose name holds a word (their server's words included).
   *
   * @param word A word.
   * @returns Their numbers, ascending; empty when none.
   */
  named(word: string): ArrayLike<number> & Iterable<number> {
    return this.#named.get(word) ?? [];
  }

  /**
   * The index as bytes, for {@linkcode indexNames}'s `restore`.
   *
   * @returns The bytes.
   */
  snapshot(): Uint8Array {
    return typeof this.#bytes === "function" ? this.#bytes() : this.#bytes;
  }

  /**
   * The share of each tool's own name words that a query reaches, each word counted by how fully
   * the query reaches it.
   *
   * @param reached For each query word, the catalogue words it reaches and how fully, in (0, 1]
   * (a word reached by several counts once, at its best).
   * @param serverOf Each tool's server number: when given, each share less the best share among
   * the tools of its server (so 0 for the best of each server, and below for its siblings).
   * @returns Each tool's share, in [0, 1] (or [−1, 0] with `serverOf`), by tool number: a scratch
   * array, valid until the next call.
   */
  coverage(
    reached: readonly (readonly { term: string; cover: number }[])[],
    serverOf?: Int32Array,
  ): Float64Array {
    const share = this.#share;
    share.fill(0);
    for (const [word, cover] of bestCovers(reached)) {
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

  /**
   * Each tool's server match with the query words its own name holds counted at 1 − `discount`:
   * like {@linkcode ServerMatch.prototype.match} (each server scores the summed rarity among
   * servers of the query words its words hold, divided by the best server's score), but per tool.
   *
   * @param queryWords The query's distinct words.
   * @param servers The servers' words.
   * @param serverOf Each tool's server number.
   * @param discount How much less a word the tool's name holds counts, in [0, 1].
   * @returns Each tool's match in [0, 1], by tool number; all 0 when no server matches.
   */
  serverMatch(
    queryWords: Iterable<string>,
    servers: ServerMatch,
    serverOf: Int32Array,
    discount: number,
  ): Float64Array {
    // The servers' words as a sorted table, made once per index (read in place when restored).
    if (this.#servers?.match !== servers) {
      this.#servers = { match: servers, table: servers.table() };
    }
    const { words, starts, holders, idf, names } = this.#servers.table;
    const n = serverOf.length;
    const raw = new Float64Array(names.length);
    const held = new Float64Array(n);
    // The last query word each server holds, by its position: whether a tool's server holds the
    // current word.
    const holds = new Int32Array(names.length).fill(-1);
    let at = 0;
    for (const word of queryWords) {
      const i = indexInSorted(words, word);
      if (i < 0) continue;
      for (let k = starts[i]!; k < starts[i + 1]!; k++) {
        raw[holders[k]!]! += idf[i]!;
        holds[holders[k]!] = at;
      }
      for (const doc of this.named(word)) {
        if (holds[serverOf[doc]!] === at) held[doc]! += discount * idf[i]!;
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
}

/**
 * Indexes the tools' name words for `nameCoverage` and `serverBoostNameDiscount`: what the
 * `nameWords` option of `createLexicalRanker` takes (passed in, so that a bundle whose ranker
 * leaves both off does not carry this module).
 *
 * @param names Each tool's name words, by tool number.
 * @param serverWords Each tool's server name words.
 * @returns The index.
 *
 * @example Usage
 * ```ts
 * import { indexNames } from "./name_coverage.ts";
 * import { ServerMatch } from "./server_match.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const servers = new ServerMatch(new Map([["trending", ["trending"]], ["hub", ["hub"]]]));
 * const names = indexNames([["get", "trending"], ["list", "feeds"]], [["trending"], ["trending"]]);
 * deepEqual([...names.serverMatch(["trending"], servers, Int32Array.of(0, 0), 0.5)], [0.5, 1]);
 * ```
 */
export function indexNames(
  names: readonly (readonly string[])[],
  serverWords: readonly (readonly string[])[],
): NameCoverage {
  return new NameCoverage(names, serverWords);
}

/**
 * Restores what {@linkcode NameCoverage.prototype.snapshot} wrote (read in place): how the lexical
 * ranker restores a stored Deno default without indexing the names again.
 *
 * @param bytes The bytes.
 * @returns The index, or `undefined` when the bytes are not one.
 */
indexNames.restore = (bytes: Uint8Array): NameCoverage | undefined => {
  const parts = decodeNames(bytes);
  return parts && new NameCoverage([], [], { parts, bytes });
};

// Each catalogue word a query reaches, with its best cover over the query's words.
function bestCovers(reached: readonly (readonly { term: string; cover: number }[])[]) {
  const best = new Map<string, number>();
  for (const reach of reached) {
    for (const { term, cover } of reach) {
      if (cover > (best.get(term) ?? 0)) best.set(term, cover);
    }
  }
  return best;
}

/**
 * The settings {@linkcode NameCoverage.prototype.factors} reads (the lexical ranker's options of
 * the same names; absent ones default to {@linkcode NAME_DEFAULTS}).
 */
export interface NameSettings {
  /** A tool's score is multiplied by 1 + this × its server's match. */
  serverBoost: number;
  /** How much less the server match counts the query words a tool's own name holds (0–1). */
  serverBoostNameDiscount?: number | undefined;
  /** A tool's score is multiplied by 1 + this × the share of its own name the query reaches. */
  nameCoverage?: number | undefined;
  /** Whether name coverage counts a tool's share less its server's best tool's. */
  nameCoverageSiblings?: boolean | undefined;
}

/** The defaults of the name signals: both off. */
export const NAME_DEFAULTS: Readonly<{
  serverBoostNameDiscount: number;
  nameCoverage: number;
  nameCoverageSiblings: boolean;
}> = Object.freeze({
  serverBoostNameDiscount: 0,
  nameCoverage: 0,
  nameCoverageSiblings: false,
});

function push(map: Map<string, number[]>, word: string, doc: number): void {
  const list = map.get(word);
  if (list === undefined) map.set(word, [doc]);
  else list.push(doc);
}
