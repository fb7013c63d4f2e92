/**
 * One search over a built lexical index: each query word reaches catalogue words (exactly, as a
 * prefix, one typo away, as another inflection, through the thesaurus), their stored field scores
 * are summed, and each tool's sum is re-scored by coordination, name word pairs and its server.
 *
 * @module
 */

import type { Postings } from "./field_scores.ts";
import { coverageRerank } from "./coverage.ts";
import { expandWord, type ExpansionSources } from "./expansion.ts";
import type { NameCoverage } from "./name_coverage.ts";
import type { ServerMatch } from "./server_match.ts";
import type { ExpansionOptions, Vocabulary } from "./vocabulary.ts";

/** The settings a search reads. */
export interface SearchSettings extends ExpansionOptions {
  /** The score is multiplied by (number of distinct query words matched) ^ coordination. */
  coordination: number;
  /** Each query word pair found side by side in a tool's name multiplies its score by 1 + this. */
  nameBigramBoost: number;
  /** A tool's score is multiplied by 1 + this × (its server's relative match). */
  serverBoost: number;
  /** The weight of query-word coverage against relevance when re-ranking the best (0: off). */
  diversity: number;
  /** How many of the best tools the coverage re-ranking considers. */
  diversityDepth: number;
  /** A tool's score is multiplied by 1 + this × (the share of its own name the query reaches). */
  nameCoverage?: number | undefined;
  /** Whether name coverage counts a tool's share less its server's best tool's. */
  nameCoverageSiblings?: boolean | undefined;
  /** How much less the server boost counts the query words a tool's own name holds (0–1). */
  serverBoostNameDiscount?: number | undefined;
}

/** A scored tool: its number (position in id order) and score. */
export interface Hit {
  /** The tool's number. */
  doc: number;
  /** Its score. */
  score: number;
}

// A feedback word counts towards coordination by its weight times this.
const FEEDBACK_COVER = 1;
// Coverage never outweighs relevance completely: scores stay positive.
const MAX_DIVERSITY = 0.99;
/** Each vocabulary term's postings (a map, or a stored index's sorted table). */
export interface TermPostings {
  /**
   * A term's postings.
   *
   * @param term A vocabulary term.
   * @returns Its postings, or `undefined` for a term not in the vocabulary.
   */
  get(term: string): Postings | undefined;
}

/** The tools (by number, ascending) whose names hold each pair of adjacent words. */
export interface PairDocs {
  /**
   * The tools whose names hold a pair.
   *
   * @param pair Two words joined by a space.
   * @returns Their numbers, or `undefined` when none has it.
   */
  get(pair: string): Iterable<number> | undefined;
}

// Up to this many results are selected by insertion; more are sorted.
const SMALL_LIMIT = 64;

/** A built index and the scratch space of its searches. */
export class LexicalIndex {
  readonly #postings: TermPostings;
  readonly #vocabulary: Vocabulary;
  readonly #nameBigrams: PairDocs;
  readonly #servers: ServerMatch;
  readonly #serverOf: Int32Array;
  readonly #names: NameCoverage | undefined;
  // Per-search scratch, reused: a search runs to completion before the next starts, and fresh
  // arrays for every search showed up as garbage-collection pauses in the p99.
  readonly #scores: Float64Array;
  readonly #matched: Float64Array;
  readonly #wordBest: Float64Array;
  readonly #lastWord: Int32Array;
  readonly #boost: Float64Array;

  /**
   * Wraps the parts of a built index.
   *
   * @param parts Postings by term, the vocabulary, name word pairs, server scores, each
   * tool's server number and, for the signals of `./name_coverage`, the tools' name words.
   */
  constructor(parts: {
    postings: TermPostings;
    vocabulary: Vocabulary;
    nameBigrams: PairDocs;
    servers: ServerMatch;
    serverOf: Int32Array;
    names?: NameCoverage | undefined;
  }) {
    this.#names = parts.names;
    this.#postings = parts.postings;
    this.#vocabulary = parts.vocabulary;
    this.#nameBigrams = parts.nameBigrams;
    this.#servers = parts.servers;
    this.#serverOf = parts.serverOf;
    const n = parts.serverOf.length;
    this.#scores = new Float64Array(n);
    this.#matched = new Float64Array(n);
    this.#wordBest = new Float64Array(n);
    this.#lastWord = new Int32Array(n);
    this.#boost = new Float64Array(n);
  }

  /**
   * How many tools have a word.
   *
   * @param word A catalogue word.
   * @returns The number of tools with it in any field (0 for an unknown word).
   */
  docFrequency(word: string): number {
    const postings = this.#postings.get(word);
    return postings === undefined ? 0 : postings.end - postings.start;
  }

  /**
   * How much a word tells the tools apart: ln(1 + (N − n + 0.5) / (n + 0.5)) with n the tools
   * that have it, and 0 for a word no tool has (it reaches tools only by a prefix, a typo or a
   * related word, and tells less than any word a tool has).
   *
   * @param word A query word.
   * @returns Its idf, ≥ 0.
   */
  idf(word: string): number {
    const df = this.docFrequency(word);
    const n = this.#serverOf.length;
    return df === 0 ? 0 : Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /** Whether the catalogue has a word. */
  readonly known = (word: string): boolean => this.#vocabulary.has(word);

  /**
   * Scores the tools for a query's words and returns the best.
   *
   * @param queryWords The query's words, in order, with repeats.
   * @param counts Each distinct word's count (its weight in the sum).
   * @param limit The most tools to return.
   * @param settings Expansion and re-scoring settings.
   * @param expansion Where inflections and related words come from; none when `undefined`.
   * @returns The best tools, best first, ties by number.
   */
  search(
    queryWords: readonly string[],
    counts: ReadonlyMap<string, number>,
    limit: number,
    settings: SearchSettings,
    expansion: ExpansionSources | undefined,
    feedback?: ReadonlyMap<string, number>,
  ): Hit[] {
    const scores = this.#scores;
    const matched = this.#matched;
    const wordBest = this.#wordBest;
    const lastWord = this.#lastWord;
    const boost = this.#boost;
    scores.fill(0);
    matched.fill(0);
    lastWord.fill(-1);
    boost.fill(1);
    let wordIndex = 0;
    const reached: { term: string; weight: number; cover: number }[][] = [];
    const wordDocs: number[] = [];
    for (const [word, count] of counts) {
      const reach = this.#reach(word, settings, expansion);
      reached.push(reach);
      wordDocs.push(0);
      for (const { term, weight, cover: reachCover } of reach) {
        const { docs, scores: termScores, cover: covers, start, end } = this.#postings.get(term)!;
        for (let k = start; k < end; k++) {
          const doc = docs[k]!;
          scores[doc]! += count * weight * termScores[k]!;
          // A match only a long text holds counts less (`TextPivot` of ./field_scores.ts).
          const cover = covers === undefined ? reachCover : reachCover * covers[k]!;
          // How far the word is matched: 1 through the word itself (exactly, a prefix or a typo),
          // less through another inflection or a related word.
          if (lastWord[doc] !== wordIndex) {
            lastWord[doc] = wordIndex;
            wordDocs[wordIndex]!++;
            wordBest[doc] = cover;
            matched[doc]! += cover;
          } else if (wordBest[doc]! < cover) {
            matched[doc]! += cover - wordBest[doc]!;
            wordBest[doc] = cover;
          }
        }
      }
      wordIndex++;
    }
    // Feedback words (from the best tools of a first search) add their scores at their weight,
    // and count towards coordination only by it.
    for (const [term, weight] of feedback ?? []) {
      const postings = this.#postings.get(term);
      if (postings === undefined) continue;
      const { docs, scores: termScores, start, end } = postings;
      for (let k = start; k < end; k++) {
        const doc = docs[k]!;
        scores[doc]! += weight * termScores[k]!;
        matched[doc]! += weight * FEEDBACK_COVER;
      }
    }
    if (settings.nameBigramBoost > 0) {
      const pairs = new Set<string>();
      for (let i = 0; i + 1 < queryWords.length; i++) {
        pairs.add(`${queryWords[i]} ${queryWords[i + 1]}`);
      }
      for (const pair of pairs) {
        for (const doc of this.#nameBigrams.get(pair) ?? []) {
          boost[doc]! *= 1 + settings.nameBigramBoost;
        }
      }
    }
    // With the tools' name words (`./name_coverage`), one factor per tool that holds the server
    // boost too; otherwise the server boost, one match per server.
    const named = this.#names?.factors(
      reached,
      counts.keys(),
      settings,
      this.#servers,
      this.#serverOf,
    );
    const serverMatch = settings.serverBoost > 0 && named === undefined
      ? this.#servers.match(counts.keys())
      : undefined;
    // The best `limit` tools, kept sorted (insertion, as limits are small); tools are numbered in
    // id order, so on equal scores the lower number stays ahead.
    const top: Hit[] = [];
    const n = scores.length;
    const diversify = settings.diversity > 0 && wordDocs.filter((d) => d > 0).length >= 2;
    const keep = Math.min(diversify ? Math.max(limit, settings.diversityDepth) : limit, n);
    for (let doc = 0; doc < n; doc++) {
      if (!(scores[doc]! > 0)) continue;
      let score = scores[doc]! * matched[doc]! ** settings.coordination * boost[doc]!;
      if (serverMatch !== undefined) {
        score *= 1 + settings.serverBoost * serverMatch[this.#serverOf[doc]!]!;
      }
      if (named !== undefined) score *= named[doc]!;
      if (!Number.isFinite(score) || score <= 0) continue;
      if (keep > SMALL_LIMIT) {
        top.push({ doc, score });
        continue;
      }
      if (top.length === keep && score <= top[keep - 1]!.score) continue;
      let at = top.length === keep ? keep - 1 : top.length;
      while (at > 0 && top[at - 1]!.score < score) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = { doc, score };
    }
    if (keep > SMALL_LIMIT) top.sort((a, b) => b.score - a.score || a.doc - b.doc).splice(keep);
    if (!diversify || top.length < 2) return top.slice(0, limit);
    // The same pool whatever the limit, so a short result list is the start of a long one.
    const pool = top.slice(0, settings.diversityDepth);
    const lambda = Math.min(settings.diversity, MAX_DIVERSITY);
    const reranked = coverageRerank(
      pool,
      this.#wordMatches(pool, [...counts.values()], reached),
      wordDocs.map((docs) => docs > 0 ? Math.log(1 + (n - docs + 0.5) / (docs + 0.5)) : 0),
      lambda,
      limit,
    );
    // Beyond the pool, the rest keep their order, at their worth without coverage (never above
    // the pool's last worth).
    const best = top[0]!.score;
    for (const { doc, score } of top.slice(pool.length, limit)) {
      reranked.push({ doc, score: (1 - lambda) * Math.sqrt(score / best) * best });
    }
    return reranked.slice(0, limit);
  }

  // How well each candidate matches each query word, relative to the best candidate for that word:
  // matches[c · words + i] in [0, 1].
  #wordMatches(
    top: readonly Hit[],
    counts: readonly number[],
    reached: readonly { term: string; weight: number }[][],
  ): Float64Array {
    const words = reached.length;
    const slot = this.#lastWord; // reused as candidate positions; reset by the next search
    slot.fill(-1);
    top.forEach(({ doc }, c) => slot[doc] = c);
    const matches = new Float64Array(top.length * words);
    reached.forEach((reach, i) => {
      for (const { term, weight } of reach) {
        const { docs, scores: termScores, start, end } = this.#postings.get(term)!;
        for (let k = start; k < end; k++) {
          const c = slot[docs[k]!]!;
          if (c >= 0) matches[c * words + i]! += counts[i]! * weight * termScores[k]!;
        }
      }
      let best = 0;
      for (let c = 0; c < top.length; c++) best = Math.max(best, matches[c * words + i]!);
      if (best > 0) { for (let c = 0; c < top.length; c++) matches[c * words + i]! /= best; }
    });
    return matches;
  }

  // The catalogue words a query word reaches: exact, prefix and typo matches first (in the
  // vocabulary's order), then inflections and related words; a word reached twice keeps its
  // highest weight, in its first position.
  #reach(
    word: string,
    settings: ExpansionOptions,
    expansion: ExpansionSources | undefined,
  ): { term: string; weight: number; cover: number }[] {
    const terms = this.#vocabulary.expand(word, settings).map((t) => ({ ...t, cover: 1 }));
    if (expansion === undefined) return terms;
    const extra = expandWord(word, expansion);
    if (extra.length === 0) return terms;
    // A word the catalogue itself uses needs its relations less (backoff).
    const factor = this.#vocabulary.has(word) ? (expansion.knownWordFactor ?? 1) : 1;
    const at = new Map(terms.map((t, i) => [t.term, i]));
    for (const { term, weight: w } of extra) {
      const weight = w * factor;
      const cover = expansion.fractionalCover === false ? 1 : weight;
      const i = at.get(term);
      if (i === undefined) {
        at.set(term, terms.length);
        terms.push({ term, weight, cover });
      } else if (terms[i]!.weight < weight) terms[i] = { term, weight, cover: terms[i]!.cover };
    }
    return terms;
  }
}
