import { deepEqual, equal, ok } from "node:assert/strict";
import {
  NEIGHBOUR_MAX_WORDS,
  weighCommonWords,
  withNeighbours,
} from "../../src/ranking/vector_query.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import type { Lexicon, RelatedWord } from "../../src/ranking/word_sources.ts";

const THESAURUS: Lexicon = {
  has: (word) => word === "photo",
  related: (word) => word === "photo" ? [{ word: "image", weight: 0.6 }] : [],
};

// Neighbours for every word: its name with a `_near` suffix, and "image"; the words asked, kept.
function countingNeighbours() {
  const asked: string[] = [];
  const related = (word: string, weight: number): RelatedWord[] => {
    asked.push(word);
    return [{ word: `${word}_near`, weight }, { word: "image", weight }];
  };
  return { asked, related };
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
  const { related } = countingNeighbours();
  const lexicon = withNeighbours(THESAURUS, related, 0.2);
  deepEqual(lexicon.related("photo"), [
    { word: "image", weight: 0.6 },
    { word: "photo_near", weight: 0.2 },
  ]);
  deepEqual(lexicon.related("file"), [
    { word: "file_near", weight: 0.2 },
    { word: "image", weight: 0.2 },
  ]);
  ok(lexicon.has("photo"));
  ok(!lexicon.has("file"));
});

Deno.test("withNeighbours() asks for the neighbours of at most NEIGHBOUR_MAX_WORDS distinct words per search", () => {
  const { asked, related } = countingNeighbours();
  const lexicon = withNeighbours(THESAURUS, related, 0.2);
  for (let i = 0; i < NEIGHBOUR_MAX_WORDS + 10; i++) lexicon.related(`w${i}`);
  // A word asked before is answered again; a new one past the limit gets the thesaurus alone.
  equal(lexicon.related("w0").length, 2);
  deepEqual(lexicon.related(`w${NEIGHBOUR_MAX_WORDS}`), []);
  deepEqual(lexicon.related("photo"), [{ word: "image", weight: 0.6 }]);
  equal(new Set(asked).size, NEIGHBOUR_MAX_WORDS);
  // The next search starts afresh.
  deepEqual(withNeighbours(THESAURUS, related, 0.2).related("w30").map((r) => r.word), [
    "w30_near",
    "image",
  ]);
});
