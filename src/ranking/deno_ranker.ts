/**
 * The ranker of long-lived Deno processes (the gateway, `unfold search`/`inspect`, `deno task
 * start`): the lexical ranker with the word vectors (`./vectors`), the WordNet thesaurus
 * (`./lexicon`) checked by the request's context (`./context`) and the server boost's discount of
 * the words a tool's name holds (`./name_coverage`), which hold or improve every half of every
 * development set (`docs/retrieval.md`; the thesaurus unchecked does not). The tables take tens of
 * milliseconds to decode, so {@linkcode backgroundRanker} decodes them once, after startup, and
 * searches with the plain lexical ranker until they are ready. The API Worker does not import
 * this module: its bundle has no room for the tables.
 *
 * Why these names: `backgroundRanker` (with its options and the factory it returns) is what a
 * long-lived Deno host passes as `ranker`; `denoRankerOptions` gives the same settings for
 * `createLexicalRanker` (`./lexical`) when the host loads the tables itself;
 * `DENO_THESAURUS_CONTEXT` is the one setting the measurements fixed.
 *
 * @module
 */

import { createLexicalRanker, lexicalRanker, type LexicalRankerOptions } from "./lexical_ranker.ts";
import type { Ranker, RankerFactory } from "./ranker.ts";
import { englishLexicon } from "./lexicon.ts";
import { englishVectors } from "./vectors.ts";
import { indexNames } from "./name_coverage.ts";

/**
 * The lowest cosine between a related word and the request for the Deno default to follow the
 * thesaurus's relation (`thesaurusContext`; chosen on the development sets' A halves, where 0.4
 * to 0.6 hold, see `docs/retrieval.md`).
 */
export const DENO_THESAURUS_CONTEXT = 0.45;

/**
 * The Deno default's settings beyond the lexical defaults. Reading it decodes the vectors and the
 * thesaurus (the first time only; see {@linkcode backgroundRanker} to keep that off the request
 * path).
 *
 * @returns The settings: the English word vectors, the English thesaurus checked by the
 * request's context, the server boost's discount of the query words a tool's own name holds,
 * and a server's tools ordered among their places by meaning.
 *
 * @example Usage
 * ```ts
 * import { DENO_THESAURUS_CONTEXT, denoRankerOptions } from "./deno_ranker.ts";
 * import { equal, ok } from "node:assert/strict";
 *
 * const options = denoRankerOptions();
 * ok(options.vectors && options.thesaurus);
 * equal(options.thesaurusContext, DENO_THESAURUS_CONTEXT);
 * ```
 */
export function denoRankerOptions(): LexicalRankerOptions {
  return {
    vectors: englishVectors(),
    thesaurus: englishLexicon(),
    thesaurusContext: DENO_THESAURUS_CONTEXT,
    nameWords: indexNames,
    serverBoostNameDiscount: DENO_SERVER_BOOST_NAME_DISCOUNT,
    siblingWeight: DENO_SIBLING_WEIGHT,
  };
}

// The Deno default's weight of the cosine that orders a server's tools among the places they
// hold (chosen on the development sets' first halves: 0.05 to 0.15 hold, 0.2 fails on the second
// halves; see `docs/retrieval.md`).
const DENO_SIBLING_WEIGHT = 0.1;

// The Deno default's discount of the server boost for the query words a tool's own name holds
// (chosen on the development sets' first halves; its index, like the vectors', is rebuilt rather
// than restored, which only long-lived Deno processes can afford).
const DENO_SERVER_BOOST_NAME_DISCOUNT = 0.3;

/** A ranker factory that switches to a better ranker once it has loaded. */
export interface BackgroundRanker extends RankerFactory {
  /** Resolves when the better ranker is in use, with the milliseconds its loading took. */
  readonly ready: Promise<number>;
}

/** Options of {@linkcode backgroundRanker}. */
export interface BackgroundRankerOptions {
  /**
   * Loads the better ranker (may be slow; runs once).
   * @default {() => createLexicalRanker(denoRankerOptions())}
   */
  load?: () => RankerFactory;
  /**
   * The ranker until then.
   * @default {lexicalRanker}
   */
  fallback?: RankerFactory;
  /**
   * Schedules the load, after the caller's startup work.
   * @default {(run) => setTimeout(run, 0)}
   */
  schedule?: (run: () => void) => void;
  /**
   * A monotonic clock in milliseconds, to state the load's cost.
   * @default {performance.now}
   */
  now?: () => number;
}

/**
 * A ranker factory for a long-lived process: every catalogue's ranker answers with `fallback`
 * until `load` has run (scheduled once, off the request path), then with the loaded ranker, whose
 * index over that catalogue is built on its next search. A load that throws leaves `fallback` in
 * use and rejects `ready`.
 *
 * @param options The better ranker, the fallback and the scheduler.
 * @returns The factory, with `ready`.
 *
 * @example Usage
 * ```ts
 * import { backgroundRanker } from "./deno_ranker.ts";
 * import { lexicalRanker } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = backgroundRanker({ load: () => lexicalRanker });
 * await ranker.ready;
 * const tools = [{ server: "s", name: "read_file", description: "Read a file", inputSchema: { type: "object" as const } }];
 * equal(ranker(tools, { servers: [] }).search("read", 1)[0]?.id, "s/read_file");
 * ```
 */
export function backgroundRanker(options: BackgroundRankerOptions = {}): BackgroundRanker {
  const load = options.load ?? (() => createLexicalRanker(denoRankerOptions()));
  const fallback = options.fallback ?? lexicalRanker;
  const schedule = options.schedule ?? ((run) => setTimeout(run, 0));
  const now = options.now ?? (() => performance.now());
  let loaded: RankerFactory | undefined;
  const { promise, resolve, reject } = Promise.withResolvers<number>();
  // Nobody has to wait for it: an unobserved failure must not end the process.
  promise.catch(() => {});
  schedule(() => {
    const start = now();
    try {
      loaded = load();
      resolve(now() - start);
    } catch (e) {
      reject(e);
    }
  });
  const factory = (...args: Parameters<RankerFactory>): Ranker => {
    let current: { from: RankerFactory; ranker: Ranker } | undefined;
    return {
      search(query, limit) {
        const from = loaded ?? fallback;
        if (current?.from !== from) current = { from, ranker: from(...args) };
        return current.ranker.search(query, limit);
      },
    };
  };
  return Object.assign(factory, { ready: promise });
}
