/**
 * The shapes the lexical ranker reads from its optional word sources (a thesaurus, word vectors,
 * their semantic match), apart from the sources themselves: the ranker, and the core through it,
 * know these types without the modules that read the ranking data (`lexicon.ts`, `vectors.ts`) in
 * their graph.
 *
 * @module
 */

/** The parts of a tool the ranker indexes. */
export type LexicalField =
  | "name"
  | "title"
  | "keywords"
  | "server"
  | "serverText"
  | "description"
  | "params"
  | "paramDescriptions"
  | "related";

/** A word related to another, and how much a match on it counts. */
export interface RelatedWord {
  /** The related word. */
  word: string;
  /** Its weight, in (0, 1). */
  weight: number;
}

/** A thesaurus: which words it knows, and the words related to each. */
export interface Lexicon {
  /**
   * Whether the word is one of the thesaurus's words (a base form: `file`, not `files`).
   *
   * @param word A lower-case word.
   * @returns `true` when it is.
   */
  has(word: string): boolean;
  /**
   * The words related to a word, strongest first (ties by word).
   *
   * @param word A lower-case word.
   * @returns The related words; `[]` for a word the thesaurus does not know.
   */
  related(word: string): readonly RelatedWord[];
}

/** A word's vector and how much it counts in a text's vector. */
export interface WordVector {
  /** The vector (not unit length). */
  vector: Float32Array;
  /** Its weight in (0, 1): lower for frequent words. */
  weight: number;
}

/** Word vectors: what the semantic match of `createLexicalRanker({vectors})` reads. */
export interface WordVectors {
  /** The coordinates per vector. */
  readonly dimensions: number;
  /**
   * A word's vector.
   *
   * @param word A lower-case word, as the ranker's tokenizer produces it.
   * @returns The vector and weight, or `undefined` when the word cannot be spelt with the table.
   */
  get(word: string): WordVector | undefined;
  /**
   * Whether a word is one of the table's own words (not spelt in pieces): a word of everyday
   * English rather than a name, a code or a number. Absent: every word with a vector counts as one.
   *
   * @param word A lower-case word.
   * @returns True for a word of the table.
   */
  has?(word: string): boolean;
  /**
   * The semantic match over a catalogue's tools (the ranker calls it once per index build; it
   * lives here, not in the ranker, so that a bundle without vectors does not carry it).
   *
   * @param words Each tool's words per field, in the index's order.
   * @returns The match.
   */
  index(words: readonly Readonly<Record<LexicalField, readonly string[]>>[]): SemanticMatch;
  /**
   * What identifies the table (its data's digest), so a stored semantic match is restored only by
   * the same table (absent: a match is never stored).
   */
  readonly id?: string;
  /**
   * A semantic match from the bytes of {@linkcode SemanticMatch.prototype.snapshot} (absent: a
   * match is always rebuilt).
   *
   * @param bytes The stored match.
   * @returns The match, or `undefined` when the bytes are not one.
   */
  restore?(bytes: Uint8Array): SemanticMatch | undefined;
}

/** A scored tool, by its position in the index. */
export interface ScoredDoc {
  /** The tool's position. */
  doc: number;
  /** Its score, positive. */
  score: number;
}

/** A catalogue's semantic match: what the lexical ranker calls at search time. */
export interface SemanticMatch {
  /**
   * How much the semantic match counts for a query: `factor` × the square of the share of the
   * query's distinct words that no tool uses and that are everyday English, each word counted by
   * its weight (so 0 for a query in the catalogue's own words).
   *
   * @param queryWords The query's words.
   * @param known Whether a tool uses a word.
   * @param factor The weight when none of the words is known.
   * @returns The weight, ≥ 0.
   */
  weight(queryWords: readonly string[], known: (word: string) => boolean, factor: number): number;
  /**
   * Adds the semantic match to a lexical ranking.
   *
   * @param lexical The lexical ranking, best first (may be empty).
   * @param queryWords The query's words (repeated words count as often).
   * @param weight The semantic match's weight, > 0.
   * @param limit The most results.
   * @returns The fused ranking, best first, ties by position.
   */
  fuse(
    lexical: readonly ScoredDoc[],
    queryWords: readonly string[],
    weight: number,
    limit: number,
  ): ScoredDoc[];
  /**
   * The catalogue's words closest in meaning to a query word, for query expansion (absent: none).
   *
   * @param word A lower-case query word.
   * @param weight The weight of a match at cosine 1.
   * @returns The related catalogue words, closest first.
   */
  related?(word: string, weight: number): readonly RelatedWord[];
  /**
   * A thesaurus for one search that goes on with {@linkcode SemanticMatch.related}'s words after
   * its own (absent: none).
   *
   * @param lexicon The thesaurus.
   * @param weight The weight of a neighbour at cosine 1.
   * @returns The thesaurus for the search.
   */
  withNeighbours?(lexicon: Lexicon, weight: number): Lexicon;
  /**
   * Re-orders each server's tools among the places they hold in a ranking's first
   * `settings.siblingDepth`, by score plus `settings.siblingWeight` × their cosine with the query
   * (absent: none; see `./sibling_order`).
   *
   * @param top The ranking, best first.
   * @param queryWords The query's words.
   * @param serverOf Each tool's server number, by tool position.
   * @param settings The depth and weight.
   * @returns The ranking, best first.
   */
  orderSiblings?(
    top: readonly ScoredDoc[],
    queryWords: readonly string[],
    serverOf: Int32Array,
    settings: { readonly siblingDepth: number; readonly siblingWeight: number },
  ): ScoredDoc[];
  /**
   * A thesaurus for one search whose relations fit the request: none for a word the catalogue
   * has, and for another word only the related words whose vectors are close to the query's
   * (absent: the thesaurus unchanged).
   *
   * @param lexicon The thesaurus.
   * @param queryWords The query's words.
   * @param minCosine The lowest cosine of a related word with the query for it to be kept.
   * @param known Whether the catalogue has a word.
   * @returns The thesaurus for the search.
   */
  inContext?(
    lexicon: Lexicon,
    queryWords: readonly string[],
    minCosine: number,
    known: (word: string) => boolean,
  ): Lexicon;
  /**
   * Weighs a query's words by English word frequency (absent: counts unchanged).
   *
   * @param counts Each distinct query word's count; changed in place.
   * @param power The power of each word's weight.
   */
  weighWords?(counts: Map<string, number>, power: number): void;
  /**
   * The match as bytes, for {@linkcode WordVectors.prototype.restore} (absent: not stored).
   *
   * @returns The bytes.
   */
  snapshot?(): Uint8Array;
}
