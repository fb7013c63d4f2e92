/**
 * The ranker of long-lived Deno processes (the gateway, `unfold search`/`inspect`, `deno task
 * start`): the lexical ranker with the word vectors (`./vectors`), the WordNet thesaurus
 * (`./lexicon`) checked by the request's context (`./context`) and the server boost's discount of
 * the words a tool's name holds (`./name_coverage`), which hold or improve every half of every
 * development set (`docs/retrieval.md`; the thesaurus unchecked does not). Every face ranks with
 * it: the data (`ranking_data.ts`, one binary layout read in place) is a file beside the page,
 * which a Deno process reads and a Worker fetches as a static asset ({@linkcode assetRanker}).
 * {@linkcode backgroundRanker} loads it off the request path and searches with the plain lexical
 * ranker until it has, saying so in {@linkcode BackgroundRanker.prototype.status}.
 *
 * Why these names: `backgroundRanker` (with its options and the factory it returns) is what a
 * long-lived Deno host passes as `ranker`; `denoRankerOptions` gives the same settings for
 * `createLexicalRanker` (`./lexical`) when the host loads the tables itself;
 * `DENO_THESAURUS_CONTEXT` is the one setting the measurements fixed; `assetRanker` is the same
 * ranker for a Worker, its data fetched from the static assets; `RankingStatus` is what both say
 * of the data (`/healthz`, `/status`), and `RETRY_LOAD_MS` how long a failed load waits.
 *
 * @module
 */

import { createLexicalRanker, lexicalRanker, type LexicalRankerOptions } from "./lexical_ranker.ts";
import type { Ranker, RankerFactory, RankingStatus } from "./ranker.ts";
export type { RankingStatus } from "./ranker.ts";
import { englishLexicon, lexiconIn } from "./lexicon.ts";
import { englishVectors, vectorsIn } from "./vectors.ts";
import { indexNames } from "./name_coverage.ts";
import type { Lexicon, WordVectors } from "./word_sources.ts";
import { loadRankingData } from "./english_data.ts";

/**
 * The lowest cosine between a related word and the request for the Deno default to follow the
 * thesaurus's relation (`thesaurusContext`; chosen on the development sets' A halves, where 0.4
 * to 0.6 hold, see `docs/retrieval.md`).
 */
export const DENO_THESAURUS_CONTEXT = 0.45;

/**
 * The Deno default's settings beyond the lexical defaults, over the English ranking data's file
 * (read on the first call; see {@linkcode backgroundRanker} to keep that off the request path).
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
  return optionsOver(englishVectors(), englishLexicon());
}

// The Deno default's settings over given data (a Worker's, fetched: its bundle then carries no
// code that reads a file).
function optionsOver(vectors: WordVectors, thesaurus: Lexicon): LexicalRankerOptions {
  return {
    vectors,
    thesaurus,
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
  /** The ranker in use and, while it is the fallback, why. */
  status(): RankingStatus;
  /**
   * Runs the load when it has not run (on demand, or again once {@linkcode RETRY_LOAD_MS} have
   * passed since it failed) and waits for it: call it before a search that should not settle for
   * the fallback. Never rejects.
   */
  loaded(): Promise<void>;
}

/** How long a failed load keeps the fallback before a search tries again. */
export const RETRY_LOAD_MS = 30_000;

/** Options of {@linkcode backgroundRanker}. */
export interface BackgroundRankerOptions {
  /**
   * Loads the better ranker (may be slow; runs once, or again after a failure).
   * @default {() => createLexicalRanker(denoRankerOptions())}
   */
  load?: () => RankerFactory | Promise<RankerFactory>;
  /**
   * The ranker until then.
   * @default {lexicalRanker}
   */
  fallback?: RankerFactory;
  /**
   * Schedules the load, after the caller's startup work; `"on demand"` waits for the first
   * {@linkcode BackgroundRanker.prototype.loaded} (a Worker loads at its first search).
   * @default {(run) => setTimeout(run, 0)}
   */
  schedule?: ((run: () => void) => void) | "on demand";
  /**
   * A monotonic clock in milliseconds, to state the load's cost.
   * @default {performance.now}
   */
  now?: () => number;
}

/**
 * A ranker factory for a long-lived process or isolate: every catalogue's ranker answers with
 * `fallback` until `load` has run (scheduled once, off the request path), then with the loaded
 * ranker, whose index over that catalogue is built on its next search. A load that throws leaves
 * `fallback` in use, says why in `status()`, rejects `ready`, and is tried again by a later
 * `loaded()`.
 *
 * @param options The better ranker, the fallback and the scheduler.
 * @returns The factory, with `ready`, `status` and `loaded`.
 *
 * @example Usage
 * ```ts
 * import { backgroundRanker } from "./deno_ranker.ts";
 * import { lexicalRanker } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = backgroundRanker({ load: () => lexicalRanker });
 * await ranker.ready;
 * equal(ranker.status().ranker, "deno-default");
 * const tools = [{ server: "s", name: "read_file", description: "Read a file", inputSchema: { type: "object" as const } }];
 * equal(ranker(tools, { servers: [] }).search("read", 1)[0]?.id, "s/read_file");
 * ```
 */
export function backgroundRanker(options: BackgroundRankerOptions = {}): BackgroundRanker {
  return loadingRanker(options.load ?? (() => createLexicalRanker(denoRankerOptions())), options);
}

// backgroundRanker with its load given: a Worker's bundle (assetRanker) then carries no code that
// reads the data's file.
function loadingRanker(
  load: NonNullable<BackgroundRankerOptions["load"]>,
  options: BackgroundRankerOptions,
): BackgroundRanker {
  const fallback = options.fallback ?? lexicalRanker;
  const now = options.now ?? (() => performance.now());
  let loaded: RankerFactory | undefined;
  let loading: Promise<void> | undefined;
  let failed: { at: number; why: string } | undefined;
  const { promise, resolve, reject } = Promise.withResolvers<number>();
  // Nobody has to wait for it: an unobserved failure must not end the process.
  promise.catch(() => {});
  // A load that returns a ranker (not a promise) is in use as soon as it returns.
  const run = (): Promise<void> =>
    loading ??= (() => {
      const start = now();
      const done = (factory: RankerFactory) => {
        loaded = factory;
        failed = undefined;
        resolve(now() - start);
      };
      const fail = (e: unknown) => {
        failed = { at: now(), why: e instanceof Error ? e.message : String(e) };
        reject(e);
      };
      try {
        const result = load();
        if (result instanceof Promise) return result.then(done, fail);
        done(result);
      } catch (e) {
        fail(e);
      }
      return Promise.resolve();
    })();
  const schedule = options.schedule ?? ((r) => setTimeout(r, 0));
  if (schedule !== "on demand") schedule(() => void run());
  // Each catalogue's ranker: the one in use, built (or restored) on its first search with it.
  const rankerOf = (
    args: Parameters<RankerFactory>,
    restored?: { from: RankerFactory; ranker: Ranker },
  ): Ranker => {
    let current = restored;
    const now = () => {
      const from = loaded ?? fallback;
      if (current?.from !== from) current = { from, ranker: from(...args) };
      return current.ranker;
    };
    return {
      search: (query, limit) => now().search(query, limit),
      // The index in use, for a cache that outlives the isolate (the Worker's catalogue objects).
      snapshot: () => {
        const ranker = now();
        if (ranker.snapshot === undefined) throw new TypeError("This ranker keeps no snapshot");
        return ranker.snapshot();
      },
    };
  };
  const factory = (...args: Parameters<RankerFactory>): Ranker => rankerOf(args);
  return Object.assign(factory, {
    // A stored index comes back only in the loaded ranker's format, once it has loaded.
    restore: (...args: Parameters<NonNullable<RankerFactory["restore"]>>) => {
      const from = loaded;
      const ranker = from?.restore?.(...args);
      return ranker && rankerOf([args[0], args[1]], { from: from!, ranker });
    },
    ready: promise,
    status: (): RankingStatus =>
      loaded !== undefined ? { ranker: "deno-default" } : {
        ranker: "lexical",
        problem: failed === undefined
          ? "the ranking data is loading"
          : `the ranking data did not load: ${failed.why}`,
      },
    loaded: async () => {
      if (loaded !== undefined) return;
      // A failed load is tried again once RETRY_LOAD_MS have passed, not on every search.
      if (failed !== undefined && loading !== undefined && now() - failed.at >= RETRY_LOAD_MS) {
        loading = undefined;
      }
      if (failed !== undefined && loading !== undefined) return;
      await run();
    },
  });
}

/**
 * The Deno default for a Worker: the ranking data fetched from the Worker's static assets (its
 * `ASSETS` binding) at the first search that waits for it (`loaded()`), once per isolate; the
 * lexical ranker until then, or while the fetch fails (a Worker deployed without its assets).
 *
 * @param assets The `ASSETS` binding, if the Worker has one.
 * @returns The ranker.
 *
 * @example Usage
 * ```ts
 * import { assetRanker } from "./deno_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = assetRanker(undefined);
 * await ranker.loaded();
 * equal(ranker.status().ranker, "lexical");
 * ```
 */
export function assetRanker(
  assets: { fetch(request: Request): Promise<Response> } | undefined,
): BackgroundRanker {
  return loadingRanker(async () => {
    if (assets === undefined) {
      throw new Error("the Worker has no ASSETS binding (wrangler.toml [assets] binding)");
    }
    const data = await loadRankingData((r) => assets.fetch(r));
    return createLexicalRanker(optionsOver(vectorsIn(data.vectors), lexiconIn(data.lexicon)));
  }, { schedule: "on demand" });
}
