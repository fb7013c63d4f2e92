/**
 * The English thesaurus behind query expansion: words related to a query word (synonyms, derived
 * forms, kinds, words of its definition), each with a weight below an exact match. Built from
 * WordNet at build time, keeping only relations between words that GloVe's vectors find used alike
 * (`scripts/build_lexicon.ts`): 14,502 words, 19,935 relations, part of the ranking data's file
 * (`ranking_data.ts`), read in place on first use.
 *
 * Why these names: `englishLexicon()` is the table a host hands to `createLexicalRanker`
 * (`./lexical`) as its `thesaurus`; `Lexicon`, `RelatedWord` and `RelationKind` are its shape (a host
 * may bring its own); `relationWeight`, `RELATION_WEIGHTS` and `SENSE_DECAY` say how a relation is
 * weighed, for a host that builds its own table to match; `lexiconIn` reads the thesaurus of ranking
 * data a host loaded itself (`LexiconViews`, `WordTable`: the views it reads, in place).
 *
 * @module
 */

import { LEXICON_SENSES, RELATION_KINDS } from "./lexicon_codec.ts";
import type { RelationKind } from "./lexicon_codec.ts";
export type { RelationKind } from "./lexicon_codec.ts";
import type { LexiconViews } from "./ranking_data.ts";
import { englishRankingData } from "./english_data.ts";
export type { LexiconViews, WordTable } from "./ranking_data.ts";
import type { Lexicon, RelatedWord } from "./word_sources.ts";
export type { Lexicon, RelatedWord } from "./word_sources.ts";

/**
 * How much a match through each relation counts against an exact match (1), set a priori, never
 * fitted to queries: a synonym or a derived form (`delete` / `deletion`) names the same thing; a
 * verb group or a similar adjective nearly; a broader or narrower kind less; a word of the
 * definition least.
 */
export const RELATION_WEIGHTS: Readonly<Record<RelationKind, number>> = Object.freeze({
  synonym: 0.6,
  derived: 0.6,
  similar: 0.5,
  broader: 0.4,
  narrower: 0.35,
  gloss: 0.3,
});

/** Each later sense of a word (WordNet orders them by use) counts this much less than the one before. */
export const SENSE_DECAY = 0.85;

/**
 * The weight of a relation: its kind's weight, decayed by the sense it comes from.
 *
 * @param kind The relation's kind.
 * @param sense The sense (0: the most common).
 * @returns The weight, in (0, 1).
 *
 * @example Usage
 * ```ts
 * import { relationWeight } from "./lexicon.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(relationWeight("synonym", 0), 0.6);
 * ```
 */
export function relationWeight(kind: RelationKind, sense: number): number {
  return RELATION_WEIGHTS[kind] * SENSE_DECAY ** sense;
}

let english: Lexicon | undefined;

/**
 * The English thesaurus compiled from WordNet, read in place from the ranking data's file on the
 * first call (`english_data.ts`).
 *
 * @returns The thesaurus.
 *
 * @example Usage
 * ```ts
 * import { englishLexicon } from "./lexicon.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(englishLexicon().related("picture").some((r) => r.word === "image"));
 * ```
 */
export function englishLexicon(): Lexicon {
  return english ??= lexiconIn(englishRankingData().lexicon);
}

/**
 * A thesaurus over the ranking data's views (`ranking_data.ts`), read in place: only the words a
 * query reaches are made strings, and kept.
 *
 * @param table The views.
 * @returns The thesaurus.
 *
 * @example Usage
 * ```ts
 * import { lexiconIn } from "./lexicon.ts";
 * import { englishRankingData } from "./english_data.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(lexiconIn(englishRankingData().lexicon).has("picture"));
 * ```
 */
export function lexiconIn(table: LexiconViews): Lexicon {
  const cache = new Map<number, RelatedWord[]>();
  const weights = RELATION_KINDS.flatMap((kind) =>
    Array.from({ length: LEXICON_SENSES }, (_, sense) => relationWeight(kind, sense))
  );
  return {
    has: (word) => table.words.find(word) >= 0,
    related(word) {
      const id = table.words.find(word);
      if (id < 0) return [];
      let list = cache.get(id);
      if (list === undefined) {
        list = [];
        for (let i = table.start[id]!; i < table.start[id + 1]!; i++) {
          list.push({
            word: table.words.word(table.others[i]!),
            weight: weights[table.codes[i]!]!,
          });
        }
        list.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : 1));
        cache.set(id, list);
      }
      return list;
    },
  };
}
