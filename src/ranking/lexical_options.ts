/**
 * The lexical ranker's settings: every option with what it does and its default, the defaults
 * measured with `deno task eval` (`docs/retrieval.md`). The ranker itself is `./lexical_ranker`,
 * which re-exports these.
 *
 * @module
 */

import { STOP_WORDS } from "./terms.ts";
import type { LexicalField, Lexicon, WordVectors } from "./word_sources.ts";

/** Options of `createLexicalRanker` (`./lexical_ranker`); each defaults to {@linkcode LEXICAL_DEFAULTS}. */
export interface LexicalRankerOptions {
  /**
   * How much a match in each field counts (0 leaves the field out): the tool's `name`, `title`
   * (its MCP `title`, else `annotations.title`), `keywords` (`_meta["unfold/keywords"]`), `server`
   * name, `serverText` (the server's title and description), `description`, `params` (input
   * property names), `paramDescriptions` and `related` (document-side expansion: the thesaurus's
   * words related to the tool's name, title and keywords; needs `thesaurus`).
   * @default {{name: 3, title: 2, keywords: 2, server: 1.5, serverText: 1.5, description: 1, params: 0.5, paramDescriptions: 0.5, related: 0}}
   */
  fieldWeights?: Partial<Record<LexicalField, number>>;
  /** BM25 term-frequency saturation. @default {1.2} */
  k1?: number;
  /** BM25 length normalisation, per field. @default {0.7} */
  b?: number;
  /** BM25+ lower bound: what any match in a field is worth, however long the field. @default {0.5} */
  delta?: number;
  /** The shortest query word that also matches longer words it begins. @default {4} */
  prefixMinLength?: number;
  /** The weight of a prefix match (0: off). @default {0.375} */
  prefixWeight?: number;
  /** The shortest unknown query word matched to catalogue words one typo away. @default {5} */
  fuzzyMinLength?: number;
  /** The weight of a match one typo away (0: off). @default {0.45} */
  fuzzyWeight?: number;
  /** Whether a word repeated in the query counts as often as it is repeated. @default {true} */
  queryTermFrequency?: boolean;
  /** The score is multiplied by (number of distinct query words matched) ^ coordination. @default {0.75} */
  coordination?: number;
  /** Each query word pair found side by side in a tool's name multiplies its score by 1 + this. @default {2} */
  nameBigramBoost?: number;
  /** A tool's score is multiplied by 1 + this × (its server's relative match). @default {1} */
  serverBoost?: number;
  /** Words ignored in queries and tools. @default {STOP_WORDS} */
  stopWords?: ReadonlySet<string>;
  /** Whether markup tags are removed from queries before searching. @default {true} */
  stripMarkup?: boolean;
  /** The weight of another inflection of a query word (`uploading` → `uploads`; 0: off). @default {0.8} */
  inflectionWeight?: number;
  /**
   * The thesaurus that relates query words to other words (`picture` → `image`), e.g.
   * `englishLexicon()` from `./lexicon` (WordNet filtered by GloVe vectors, ~95 KiB gzipped:
   * opt-in to keep the Worker small); `false` or absent for none.
   * @default {false}
   */
  thesaurus?: Lexicon | false;
  /** A factor on every thesaurus relation's weight (0: off). @default {1} */
  thesaurusWeight?: number;
  /**
   * With `thesaurus` and `vectors`, the thesaurus checked by the request's context (0: off):
   * a query word's related words are followed only when the catalogue does not have the word,
   * and only those whose vector's cosine with the query's (the weighted mean of its words'
   * vectors) is at least this, so that the senses the request does not mean are left out (see
   * `./context`); the thesaurus then also leaves the catalogue's own base forms for inflections
   * in place. The deployment's `synonyms` are followed whatever the request.
   * @default {0}
   */
  thesaurusContext?: number;
  /** The most related words followed per query word, strongest first. @default {10} */
  maxRelated?: number;
  /**
   * A deployment's own synonyms: groups of words or phrases that mean the same there
   * (`[["k8s", "kubernetes"], ["ticket", "issue"]]`); each word of an entry reaches each word of
   * the other entries of its group at `synonymWeight`.
   * @default {[]}
   */
  synonyms?: readonly (readonly string[])[];
  /** The weight of a match through `synonyms`. @default {0.8} */
  synonymWeight?: number;
  /**
   * When nothing matches, search again following the thesaurus two steps (a related word's
   * related words), so that a query naming a real need is never a bare miss. @default {true}
   */
  fallback?: boolean;
  /**
   * Requests with at least this many words (after stop-words) and two clauses or more are also
   * ranked clause by clause, and the rankings fused, so that each needed tool surfaces (0: off).
   * @default {0}
   */
  segmentMinWords?: number;
  /** The rank offset of the fusion of clause rankings (small: the clauses take turns). @default {1} */
  segmentFusionK?: number;
  /** The factor on the expansions of a query word the catalogue itself uses. @default {0.5} */
  knownWordFactor?: number;
  /** Whether a match through an expansion counts as matching its query word only by its weight. @default {true} */
  fractionalCover?: boolean;
  /**
   * The weight of query-word coverage when the best tools are re-ranked (xQuAD, with the query's
   * words weighted by idf as aspects), so that a request needing several tools surfaces each of
   * them (0: off; at most 0.99, where relevance still breaks ties).
   * @default {0.3}
   */
  diversity?: number;
  /** How many of the best tools the coverage re-ranking considers. @default {60} */
  diversityDepth?: number;
  /**
   * With vectors: among the first {@linkcode LexicalRankerOptions.siblingDepth} results, each
   * server's tools swap the places they hold by their score relative to the best plus this × their
   * cosine with the request (`./sibling_order`; 0: off).
   * @default {0}
   */
  siblingWeight?: number;
  /** How many of the best results the sibling order considers. @default {10} */
  siblingDepth?: number;
  /**
   * Pseudo-relevance feedback: the words of this many best tools of a first search feed a second
   * (0: off).
   * @default {0}
   */
  feedbackDocs?: number;
  /** The most feedback words added to a query. @default {8} */
  feedbackWords?: number;
  /** The weight of the best feedback word (a query word counts 1). @default {0.3} */
  feedbackWeight?: number;
  /**
   * Word vectors for a semantic match (opt-in: `englishVectors()` from `./vectors`, ~0.8 MiB
   * gzipped): each tool and each query becomes the weighted mean of its words' vectors, and tools
   * close in meaning rank in beside the lexical matches, weighted by the share of the query's
   * words that no tool uses; they also weigh query words by English word frequency
   * (`commonWordPower`) and reach catalogue words close in meaning (`neighbourWeight`); `false`
   * or absent for none.
   * @default {false}
   */
  vectors?: WordVectors | false;
  /** The weight of the semantic match when none of a query's words is the catalogue's. @default {2.25} */
  semanticWeight?: number;
  /**
   * With `vectors`: each query word also reaches the catalogue words closest to it in meaning
   * (cosine ≥ 0.8, at most 3, see `./neighbours`) at this weight times their cosine (0: off).
   * @default {0.2}
   */
  neighbourWeight?: number;
  /**
   * With `vectors`: a query word of the vector table counts as its weight there (a / (a + p),
   * lower for frequent English words such as `show` or `want`) to this power, so that the words
   * that say least about a need move the ranking least (0: off).
   * @default {0.75}
   */
  commonWordPower?: number;
  /**
   * A tool's score is multiplied by 1 + this × the share of its own name words (those not in its
   * server's name) that the query reaches, so that the tool whose whole name a request says
   * outranks one that shares a word of it (0: off; needs `nameWords`).
   * @default {0}
   */
  nameCoverage?: number;
  /**
   * Whether name coverage counts each tool's share less the best share among its server's tools,
   * so that it only orders siblings (and lowers them against other servers' tools).
   * @default {false}
   */
  nameCoverageSiblings?: boolean;
  /**
   * How much less the server boost counts a query word that the tool's own name also holds (the
   * name and server fields already count it): 0 alike, 1 not at all (needs `nameWords`).
   * @default {0}
   */
  serverBoostNameDiscount?: number;
  /**
   * What indexes the tools' name words for `nameCoverage` and `serverBoostNameDiscount`
   * (`indexNames` from `./name_coverage`, as the Deno default passes it; opt-in so that a bundle
   * whose ranker leaves both off does not carry it); `false` or absent: both are off.
   * @default {false}
   */
  nameWords?:
    | (
      & ((
        names: readonly (readonly string[])[],
        serverWords: readonly (readonly string[])[],
      ) => object)
      & {
        /** Restores an index from its `snapshot()` (absent: a ranker with it is never restored). */
        restore?: (bytes: Uint8Array) => object | undefined;
      }
    )
    | false;
  /**
   * A query run of at least this many characters without a space (base64, a hash, a minified
   * line) is data, not words: it is left out of the search, so that the thousands of fragments it
   * splits into neither rank tools nor cost time (0: off).
   * @default {100}
   */
  dataRunChars?: number;
  /**
   * A long request (a pasted task) is searched by its most distinctive words only: at most this
   * many distinct words, those whose weight (below) times their idf in the catalogue is highest,
   * so that a search's work is bounded whatever the request's length (0: every word).
   * @default {96}
   */
  queryTermLimit?: number;
  /**
   * A request's first this many words count fully, and its n-th word after them counts
   * this / (this + n): the first sentences of a long request weigh most (0: every word fully).
   * @default {128}
   */
  positionWeightAfter?: number;
  /**
   * Length is not relevance: in a tool whose text fields (its description and its parameters'
   * descriptions) hold more than this many times the catalogue's mean number of their words,
   * each match in them counts pivot × mean / length as much, in its score and (when no other
   * field holds the word) in coordination, so that their contribution stops growing with their
   * length and a long description matching a little of everything cannot outrank a focused tool
   * (0: off).
   * @default {8}
   */
  textPivot?: number;
}

/** Every setting of the lexical ranker: {@linkcode LexicalRankerOptions} with none left out. */
export type LexicalSettings =
  & Required<Omit<LexicalRankerOptions, "fieldWeights" | "thesaurus" | "vectors" | NameOptions>>
  & Pick<LexicalRankerOptions, NameOptions>
  & {
    fieldWeights: Readonly<Record<LexicalField, number>>;
    thesaurus?: Lexicon | false;
    vectors?: WordVectors | false;
  };

// The options read only with `nameWords` (their defaults are where they are read, in
// `./name_coverage`, so that a bundle without it carries none of them).
type NameOptions =
  | "nameWords"
  | "nameCoverage"
  | "nameCoverageSiblings"
  | "serverBoostNameDiscount";

/** The defaults of {@linkcode LexicalRankerOptions}, measured with `deno task eval`. */
export const LEXICAL_DEFAULTS: Readonly<LexicalSettings> = Object.freeze({
  fieldWeights: Object.freeze({
    name: 3,
    title: 2,
    keywords: 2,
    server: 1.5,
    serverText: 1.5,
    description: 1,
    params: 0.5,
    paramDescriptions: 0.5,
    related: 0,
  }),
  k1: 1.2,
  b: 0.7,
  delta: 0.5,
  prefixMinLength: 4,
  prefixWeight: 0.375,
  fuzzyMinLength: 5,
  fuzzyWeight: 0.45,
  queryTermFrequency: true,
  coordination: 0.75,
  nameBigramBoost: 2,
  serverBoost: 1,
  stopWords: STOP_WORDS,
  stripMarkup: true,
  inflectionWeight: 0.8,
  thesaurusWeight: 1,
  thesaurusContext: 0,
  maxRelated: 10,
  synonyms: Object.freeze([]),
  synonymWeight: 0.8,
  fallback: true,
  knownWordFactor: 0.5,
  fractionalCover: true,
  segmentMinWords: 0,
  segmentFusionK: 1,
  diversity: 0.3,
  diversityDepth: 60,
  siblingWeight: 0,
  siblingDepth: 10,
  feedbackDocs: 0,
  feedbackWords: 8,
  feedbackWeight: 0.3,
  semanticWeight: 2.25,
  neighbourWeight: 0.2,
  commonWordPower: 0.75,
  dataRunChars: 100,
  queryTermLimit: 96,
  positionWeightAfter: 128,
  textPivot: 8,
});
