import { deepEqual, equal, ok } from "node:assert/strict";
import {
  NEIGHBOUR_MAX_WORDS,
  weighCommonWords,
  withNeighbours,
} from "../../src/ranking/vector_query.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import type { ExpansionSources } from "../../src/ranking/expansion.ts";
import type { RelatedWord, SemanticMatch } from "../../src/ranking/word_sources.ts";

const SOURCES: ExpansionSources = {
  known: () => true,
  lexicon: {
    has: (word) => word === "photo",
    related: (word) => word === "photo" ? [{ word: "image", weight: 0.6 }] : [],
  },
  inflectionWeight: 0.8,
  thesaurusWeight: 1,
  maxRelated: 10,
};

// A semantic match whose every word has one neighbour, its name with a `_near` suffix.
function countingMatch(): SemanticMatch & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    weight: () => 0,
    fuse: () => [],
    related(word: string, weight: number): RelatedWord[] {
      asked.push(word);
      return [{ word: `${word}_near`, weight }, { word: "image", weight }];
    },
  };
}

Deno.test("weighCommonWords() lowers frequent English words, leaves spelt words and power 0 alone", () => {
  const counts = new Map([["show", 2], ["photo", 2], ["forecast", 1]]);
  weighCommonWords(counts, englishVectors(), 0.75);
  ok(counts.get("show")! < 1.5 && counts.get("show")! > 0);
  ok(counts.get("photo")! < 2 && counts.get("photo")! > counts.get("show")!);
  equal(counts.get("forecast"), 1); // not a word of the table: spelt in pieces
  const same = new Map([["show", 2]]);
  weighCommonWords(same, englishVectors(), 0);
  deepEqual(same, new Map([["show", 2]]));
});

Deno.test("withNeighbours() adds the neighbours after the thesaurus's own words, each once", () => {
  const match = countingMatch();
  const sources = withNeighbours(SOURCES, match, 0.2)!;
  deepEqual(sources.lexicon.related("photo"), [
    { word: "image", weight: 0.6 },
    { word: "photo_near", weight: 0.2 },
  ]);
  deepEqual(sources.lexicon.related("file"), [
    { word: "file_near", weight: 0.2 },
    { word: "image", weight: 0.2 },
  ]);
  ok(sources.lexicon.has("photo"));
  equal(sources.inflectionWeight, 0.8);
});

Deno.test("withNeighbours() leaves the sources alone without a match, a weight or sources", () => {
  equal(withNeighbours(SOURCES, undefined, 0.2), SOURCES);
  equal(withNeighbours(SOURCES, { weight: () => 0, fuse: () => [] }, 0.2), SOURCES);
  equal(withNeighbours(SOURCES, countingMatch(), 0), SOURCES);
  equal(withNeighbours(undefined, countingMatch(), 0.2), undefined);
});

Deno.test("withNeighbours() asks for the neighbours of at most NEIGHBOUR_MAX_WORDS distinct words per search", () => {
  const match = countingMatch();
  const sources = withNeighbours(SOURCES, match, 0.2)!;
  const words = Array.from({ length: NEIGHBOUR_MAX_WORDS + 10 }, (_, i) => `w${i}`);
  for (const word of words) sources.lexicon.related(word);
  // A word asked before is answered again; a new one past the limit gets the thesaurus alone.
  equal(sources.lexicon.related("w0").length, 2);
  deepEqual(sources.lexicon.related(`w${NEIGHBOUR_MAX_WORDS}`), []);
  deepEqual(sources.lexicon.related("photo"), [{ word: "image", weight: 0.6 }]);
  equal(new Set(match.asked).size, NEIGHBOUR_MAX_WORDS);
  // The next search starts afresh.
  deepEqual(withNeighbours(SOURCES, match, 0.2)!.lexicon.related("w30").map((r) => r.word), [
    "w30_near",
    "image",
  ]);
});
