import { deepEqual, ok } from "node:assert/strict";
import { baseForms, expandWord, inflections } from "../../src/ranking/expansion.ts";
import type { Lexicon } from "../../src/ranking/word_sources.ts";

const bases = new Set(["image", "upload", "news", "copy", "search", "picture"]);
const isBase = (word: string) => bases.has(word);

Deno.test("baseForms() undoes regular inflections only to known base forms", () => {
  deepEqual(baseForms("images", isBase, () => false), ["image"]);
  deepEqual(baseForms("uploading", isBase, () => false), ["upload"]);
  deepEqual(baseForms("copies", isBase, () => false), ["copy"]);
  deepEqual(baseForms("news", isBase, () => false), ["news"]);
  deepEqual(baseForms("ping", isBase, () => false), ["ping"]);
  deepEqual(baseForms("widgets", isBase, (w) => w === "widget"), ["widget"]);
});

Deno.test("inflections() lists the regular forms of a base", () => {
  for (const form of ["searches", "searched", "searching"]) {
    ok(inflections("search").includes(form));
  }
  ok(inflections("copy").includes("copied"));
  ok(!inflections("search").includes("search"));
});

// Expansion sources over a catalogue of these words, with the ranker's default weights.
function sourcesOver(lexicon: Lexicon, words: readonly string[]) {
  const catalogue = new Set(words);
  return {
    known: (w: string) => catalogue.has(w),
    lexicon,
    inflectionWeight: 0.8,
    thesaurusWeight: 1,
    maxRelated: 10,
  };
}

Deno.test("expandWord() reaches catalogue words through inflections and the thesaurus, best weight kept", () => {
  const lexicon = {
    has: isBase,
    related: (w: string) => w === "picture" ? [{ word: "image", weight: 0.6 }] : [],
  };
  const sources = sourcesOver(lexicon, ["image", "images", "pictured", "picture"]);
  deepEqual(expandWord("pictures", sources), [
    { term: "image", weight: 0.6 },
    { term: "images", weight: 0.6 },
    { term: "picture", weight: 0.8 },
    { term: "pictured", weight: 0.8 },
  ]);
  deepEqual(expandWord("pictures", { ...sources, thesaurusWeight: 0 }).map((t) => t.term), [
    "picture",
    "pictured",
  ]);
  deepEqual(expandWord("unrelated", sources), []);
});

Deno.test("expandWord() with withCatalogueBases keeps the catalogue's own base forms beside the thesaurus's", () => {
  // The thesaurus takes "interesting" as a base form of its own; the catalogue has "interest".
  const lexicon = { has: (w: string) => w === "interesting", related: () => [] };
  const sources = sourcesOver(lexicon, ["interest", "interests"]);
  deepEqual(expandWord("interesting", sources), []);
  deepEqual(expandWord("interesting", { ...sources, withCatalogueBases: true }), [
    { term: "interest", weight: 0.8 },
    { term: "interests", weight: 0.8 },
  ]);
});
