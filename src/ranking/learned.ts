/**
 * What a user ran, as a bounded prior for search: each tool executed after a search is remembered
 * with that search's words, and a later request with the same words lifts it, by at most half the
 * best score the ranker gave that request (so a tool the ranker does not match rises into the
 * results but not above the best match, and nothing rises above an exact id or name, which the
 * catalogue puts above everything). Pure data: the words, their tools and run counts, with their
 * bounds and their storage format; who records and where it is kept is `../session/learned.ts`.
 *
 * Bounds: a search is remembered by at most {@linkcode MAX_LEARNED_QUERY_WORDS} words, a word
 * keeps at most {@linkcode MAX_LEARNED_TOOLS_PER_WORD} tools, the prior at most
 * {@linkcode MAX_LEARNED_WORDS} words (the least recently run ones go first) and
 * {@linkcode MAX_LEARNED_BYTES} as JSON; a run count stops at {@linkcode MAX_LEARNED_COUNT}
 * and counts as count / (count + 1), so a tool run 1,000 times for some words lifts no more than
 * one run 64 times, and only for requests that share those words.
 *
 * @module
 */

import { MAX_TERM_CHARS, STOP_WORDS, stripMarkup, tokenize } from "./terms.ts";
import { withoutDataRuns } from "./data_runs.ts";

/** The most words of one search that its runs are remembered by (its first distinct ones). */
export const MAX_LEARNED_QUERY_WORDS = 16;

/** The most tools one word keeps (the most run first; a new one replaces the least run). */
export const MAX_LEARNED_TOOLS_PER_WORD = 6;

/** The most words a prior keeps; the word run least recently is forgotten first. */
export const MAX_LEARNED_WORDS = 1_000;

/** The most bytes a prior takes as JSON (UTF-8); past it the least recently run words go. */
export const MAX_LEARNED_BYTES = 256 * 1024;

/** A run count stops here (it counts as count / (count + 1), below 1 whatever the count). */
export const MAX_LEARNED_COUNT = 64;

/**
 * The most a prior lifts a tool: this share of the best score the ranker gave the request, times
 * the share of the request's words the tool was run for, times count / (count + 1). Chosen by
 * replaying the development sets (`deno task eval --replay`): at 0.5 a tool run 1,000 times for
 * the commonest words of a set moves no figure of it by more than 0.002; at 1 it costs route_dev
 * R@5 0.017, at 2 it is in the first five of most requests.
 */
export const LEARNED_WEIGHT = 0.5;

/** The storage format's version. */
export const LEARNED_FORMAT = "unfold-learned/1";

// One tool's runs for one word: how many (up to MAX_LEARNED_COUNT), and when last (a tick).
interface Runs {
  count: number;
  tick: number;
}

/**
 * The words a search is remembered by: its searchable words (markup, data runs and stop-words
 * left out, as the ranker reads them), distinct, its first {@linkcode MAX_LEARNED_QUERY_WORDS}.
 *
 * @param query The request, as it was sent.
 * @returns The words, in order.
 *
 * @example Usage
 * ```ts
 * import { learnedWords } from "./learned.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(learnedWords("Ship the release notes, then ship them again"), ["ship", "release", "notes", "again"]);
 * ```
 */
export function learnedWords(query: string): string[] {
  const words = new Set<string>();
  for (const word of tokenize(withoutDataRuns(stripMarkup(query), 100))) {
    if (STOP_WORDS.has(word) || word.length > MAX_TERM_CHARS) continue;
    words.add(word);
    if (words.size === MAX_LEARNED_QUERY_WORDS) break;
  }
  return [...words];
}

/**
 * A user's runs: which tools were executed after searches with which words. Bounded (see the
 * module), mutable by {@linkcode LearnedRuns.prototype.record}, stored as JSON by
 * {@linkcode LearnedRuns.prototype.toJSON} and read back, checked, by {@linkcode LearnedRuns.parse}.
 *
 * @example Usage
 * ```ts
 * import { LearnedRuns } from "./learned.ts";
 * import { equal } from "node:assert/strict";
 *
 * const runs = new LearnedRuns();
 * runs.record(["ship", "release", "notes"], "github/create_release");
 * const lift = runs.lift(["release", "notes"]);
 * equal(lift.get("github/create_release"), 0.5);
 * equal(runs.lift(["weather"]).size, 0);
 * ```
 */
export class LearnedRuns {
  // word → tool id → runs; Maps, as words and ids come from outside.
  readonly #words = new Map<string, Map<string, Runs>>();
  #tick = 0;

  /** The number of words kept. */
  get size(): number {
    return this.#words.size;
  }

  /**
   * Remembers one run: `tool` was executed after a search with `words`.
   *
   * @param words The search's words ({@linkcode learnedWords}); only the first
   * {@linkcode MAX_LEARNED_QUERY_WORDS} distinct ones are kept.
   * @param tool The tool's id.
   */
  record(words: readonly string[], tool: string): void {
    const tick = ++this.#tick;
    for (const word of [...new Set(words)].slice(0, MAX_LEARNED_QUERY_WORDS)) {
      let tools = this.#words.get(word);
      if (tools === undefined) tools = new Map();
      // Most recently run last: the map's order is the eviction order.
      this.#words.delete(word);
      this.#words.set(word, tools);
      const runs = tools.get(tool);
      if (runs !== undefined) {
        runs.count = Math.min(MAX_LEARNED_COUNT, runs.count + 1);
        runs.tick = tick;
        continue;
      }
      if (tools.size >= MAX_LEARNED_TOOLS_PER_WORD) tools.delete(weakest(tools)!);
      tools.set(tool, { count: 1, tick });
    }
    while (this.#words.size > MAX_LEARNED_WORDS) this.#forgetOldest();
  }

  /**
   * How much each tool is lifted for a request: for each tool run after searches sharing the
   * request's words, the mean over the request's words of count / (count + 1) for the words it
   * was run for (0 for the others), each word divided by the square root of the number of tools
   * it was run for. In [0, 1): multiply by {@linkcode LEARNED_WEIGHT} and the request's best score.
   *
   * @param words The request's words ({@linkcode learnedWords}).
   * @returns Each lifted tool's share, above 0.
   */
  lift(words: readonly string[]): Map<string, number> {
    const distinct = [...new Set(words)];
    const lifted = new Map<string, number>();
    if (distinct.length === 0) return lifted;
    for (const word of distinct) {
      const tools = this.#words.get(word);
      if (tools === undefined) continue;
      const spread = Math.sqrt(tools.size);
      for (const [tool, { count }] of tools) {
        const share = count / (count + 1) / spread / distinct.length;
        lifted.set(tool, (lifted.get(tool) ?? 0) + share);
      }
    }
    return lifted;
  }

  /**
   * Takes in another prior's runs (the same user's, written by another process): every word and
   * tool of both, each with the larger count; then the bounds.
   *
   * @param other The other runs.
   */
  merge(other: LearnedRuns): void {
    const base = this.#tick;
    for (const [word, tools] of other.#words) {
      let mine = this.#words.get(word);
      if (mine === undefined) this.#words.set(word, mine = new Map());
      for (const [tool, runs] of tools) {
        const had = mine.get(tool);
        if (had === undefined) {
          if (mine.size >= MAX_LEARNED_TOOLS_PER_WORD) {
            const least = weakest(mine)!;
            if (mine.get(least)!.count > runs.count) continue;
            mine.delete(least);
          }
          mine.set(tool, { count: runs.count, tick: Math.min(runs.tick, base) });
        } else had.count = Math.max(had.count, runs.count);
      }
    }
    this.#tick = Math.max(this.#tick, other.#tick);
    while (this.#words.size > MAX_LEARNED_WORDS) this.#forgetOldest();
  }

  /**
   * The storage form: `{format, tick, words: [[word, [[tool, count, tick], …]], …]}`, least
   * recently run word first, within {@linkcode MAX_LEARNED_BYTES} (older words left out).
   *
   * @returns The JSON-serialisable form.
   */
  toJSON(): { format: string; tick: number; words: [string, [string, number, number][]][] } {
    const words = [...this.#words].map(([word, tools]): [string, [string, number, number][]] => [
      word,
      [...tools].map(([tool, { count, tick }]) => [tool, count, tick]),
    ]);
    // Bytes are at most three per UTF-16 unit: the oldest words go until it fits.
    let size = words.reduce((n, entry) => n + JSON.stringify(entry).length * 3 + 1, 64);
    let from = 0;
    while (size > MAX_LEARNED_BYTES && from < words.length) {
      size -= JSON.stringify(words[from]).length * 3 + 1;
      from++;
    }
    return { format: LEARNED_FORMAT, tick: this.#tick, words: words.slice(from) };
  }

  /**
   * Reads a stored prior back. Hostile input: anything not in the format (or past its bounds)
   * is refused whole, and the caller starts afresh.
   *
   * @param data What `JSON.parse` gave of a stored prior.
   * @returns The runs, or `undefined` when the data is not a prior of this format.
   */
  static parse(data: unknown): LearnedRuns | undefined {
    if (typeof data !== "object" || data === null) return undefined;
    const { format, tick, words } = data as Record<string, unknown>;
    if (format !== LEARNED_FORMAT || !Number.isSafeInteger(tick) || !Array.isArray(words)) {
      return undefined;
    }
    if (words.length > MAX_LEARNED_WORDS) return undefined;
    const runs = new LearnedRuns();
    runs.#tick = tick as number;
    for (const entry of words) {
      if (!Array.isArray(entry) || entry.length !== 2) return undefined;
      const [word, tools] = entry as [unknown, unknown];
      if (typeof word !== "string" || word.length > MAX_TERM_CHARS || !Array.isArray(tools)) {
        return undefined;
      }
      if (tools.length > MAX_LEARNED_TOOLS_PER_WORD) return undefined;
      const kept = new Map<string, Runs>();
      for (const item of tools) {
        if (!Array.isArray(item) || item.length !== 3) return undefined;
        const [tool, count, at] = item as [unknown, unknown, unknown];
        if (
          typeof tool !== "string" || tool.length > 300 || !Number.isSafeInteger(count) ||
          (count as number) < 1 || (count as number) > MAX_LEARNED_COUNT ||
          !Number.isSafeInteger(at)
        ) return undefined;
        kept.set(tool, { count: count as number, tick: at as number });
      }
      runs.#words.set(word, kept);
    }
    return runs;
  }

  #forgetOldest(): void {
    const oldest = this.#words.keys().next();
    if (!oldest.done) this.#words.delete(oldest.value);
  }
}

// The tool a word gives up first: the least run, then the least recently run, then the larger id.
function weakest(tools: ReadonlyMap<string, Runs>): string | undefined {
  let worst: [string, Runs] | undefined;
  for (const entry of tools) {
    const [, runs] = entry;
    if (
      worst === undefined || runs.count < worst[1].count ||
      (runs.count === worst[1].count && runs.tick < worst[1].tick)
    ) worst = entry;
  }
  return worst?.[0];
}

/**
 * Lifts a ranking by a prior: each lifted tool's score gains `LEARNED_WEIGHT × share × best`,
 * with `best` the ranking's best score (1 when nothing ranked), and a lifted tool the ranking
 * lacked comes in with that gain alone; then sorted again, ties by id.
 *
 * @param ranked The ranker's hits, best first.
 * @param lift Each lifted tool's share ({@linkcode LearnedRuns.prototype.lift}).
 * @returns The hits, lifted and sorted; `ranked` itself when nothing is lifted.
 *
 * @example Usage
 * ```ts
 * import { liftRanking } from "./learned.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const ranked = [{ id: "a/x", score: 4 }, { id: "a/y", score: 3 }];
 * deepEqual(liftRanking(ranked, new Map([["a/y", 0.8]])).map((h) => h.id), ["a/y", "a/x"]);
 * ```
 */
export function liftRanking(
  ranked: readonly { id: string; score: number }[],
  lift: ReadonlyMap<string, number>,
): { id: string; score: number }[] {
  if (lift.size === 0) return [...ranked];
  const best = ranked.length > 0 ? ranked[0]!.score : 1;
  const gain = (id: string) => LEARNED_WEIGHT * Math.min(1, lift.get(id) ?? 0) * best;
  const seen = new Set(ranked.map((hit) => hit.id));
  const all = [
    ...ranked.map((hit) => ({ id: hit.id, score: hit.score + gain(hit.id) })),
    ...[...lift.keys()].filter((id) => !seen.has(id)).map((id) => ({ id, score: gain(id) })),
  ];
  return all.filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
