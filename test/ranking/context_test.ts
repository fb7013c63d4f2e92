import { deepEqual, equal, ok } from "node:assert/strict";
import { inContext } from "../../src/ranking/context.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { englishLexicon } from "../../src/ranking/lexicon.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import type { Lexicon, WordVectors } from "../../src/ranking/word_sources.ts";
import { tool } from "../_data.ts";

// Two directions of meaning: money (x) and water (y); "spelt" words have vectors but are not
// words of the table.
const AXES: Record<string, [number, number]> = {
  gold: [1, 0],
  price: [1, 0.1],
  currency: [1, 0.2],
  river: [0, 1],
  flow: [0.1, 1],
  current: [0.7, 0.7],
  k8s: [1, 0],
};
const VECTORS: WordVectors = {
  dimensions: 2,
  get: (word) => word in AXES ? { vector: Float32Array.from(AXES[word]!), weight: 0.5 } : undefined,
  has: (word) => word in AXES && word !== "k8s",
  index: () => {
    throw new Error("not used");
  },
};

// A thesaurus that counts how often each word is asked.
function thesaurus(): Lexicon & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    has: (word) => word === "current",
    related(word) {
      asked.push(word);
      return word === "current"
        ? [
          { word: "currency", weight: 0.5 },
          { word: "flow", weight: 0.4 },
          { word: "k8s", weight: 0.3 },
          { word: "unheard", weight: 0.3 },
        ]
        : [];
    },
  };
}

// The catalogue has every word of the requests but "current" (each request needs one of its words).
const knownButCurrent = (word: string) => word !== "current";

Deno.test("inContext() keeps the related words close to the request, whichever sense it means", () => {
  const money = inContext(thesaurus(), VECTORS, ["current", "gold", "price"], 0.9, knownButCurrent);
  deepEqual(money.related("current"), [{ word: "currency", weight: 0.5 }]);
  const water = inContext(thesaurus(), VECTORS, ["current", "river"], 0.9, knownButCurrent);
  deepEqual(water.related("current"), [{ word: "flow", weight: 0.4 }]);
  // A low threshold keeps both senses; words spelt in pieces or without a vector are never kept.
  const loose = inContext(thesaurus(), VECTORS, ["current", "river"], -1, knownButCurrent);
  deepEqual(loose.related("current").map((r) => r.word), ["currency", "flow"]);
  ok(money.has("current") && !money.has("gold"));
});

Deno.test("inContext() follows no relation of a word the catalogue has, nor of a query without context", () => {
  const all = () => true;
  deepEqual(inContext(thesaurus(), VECTORS, ["current", "river"], -1, all).related("current"), []);
  // "k8s" is spelt in pieces, and "unheard" has no vector: the query has no meaning to check by.
  const meaningless = inContext(thesaurus(), VECTORS, ["k8s", "unheard"], -1, knownButCurrent);
  deepEqual(meaningless.related("current"), []);
  deepEqual(inContext(thesaurus(), VECTORS, [], -1, knownButCurrent).related("current"), []);
});

Deno.test("inContext() leaves a request with none of the catalogue's words to the semantic match", () => {
  const none = () => false;
  deepEqual(inContext(thesaurus(), VECTORS, ["current", "river"], -1, none).related("current"), []);
});

Deno.test("inContext() asks the thesaurus once per word in a search", () => {
  const lexicon = thesaurus();
  const search = inContext(lexicon, VECTORS, ["current", "river"], 0.9, knownButCurrent);
  for (let i = 0; i < 5; i++) search.related("current");
  search.related("river");
  deepEqual(lexicon.asked, ["current"]); // "river" is the catalogue's: the thesaurus is not asked
});

const TOOLS = [
  tool("press", "top_stories", "Show the latest stories of the day"),
  tool("market", "exchange_rate", "Show the rate of a currency against another"),
  tool("files", "read_file", "Read a file"),
];

// The thesaurus relates "current" to "latest" and "currency" (among others); the semantic match
// and the neighbours are off, so the ranking shows what the thesaurus reaches.
function ranked(query: string, thesaurusContext: number): string[] {
  const ranker = createLexicalRanker({
    vectors: englishVectors(),
    thesaurus: englishLexicon(),
    thesaurusContext,
    semanticWeight: 0,
    neighbourWeight: 0,
  })(TOOLS, { servers: [] });
  return ranker.search(query, 5).map((hit) => hit.id);
}

Deno.test("thesaurusContext: the ranker follows only the sense of a related word the request means", () => {
  // Unchecked, "current" reaches "latest" whatever the request, and the news ranks first.
  equal(ranked("show current gold price", 0)[0], "press/top_stories");
  equal(ranked("show current gold price", 0.45)[0], "market/exchange_rate");
  equal(ranked("show current news today", 0.45)[0], "press/top_stories");
  // With none of the catalogue's words ("show"), the request gets no relation.
  deepEqual(ranked("current gold price", 0.45), []);
});

Deno.test("thesaurusContext: a deployment's synonyms are followed whatever the request", () => {
  const ranker = createLexicalRanker({
    vectors: englishVectors(),
    thesaurus: englishLexicon(),
    thesaurusContext: 0.45,
    semanticWeight: 0,
    neighbourWeight: 0,
    synonyms: [["fx", "currency"]],
  })(TOOLS, { servers: [] });
  equal(ranker.search("show fx", 5)[0]?.id, "market/exchange_rate");
});

Deno.test("thesaurusContext: without word vectors it changes nothing", () => {
  const options = { thesaurus: englishLexicon(), semanticWeight: 0 };
  const plain = createLexicalRanker(options)(TOOLS, { servers: [] });
  const checked = createLexicalRanker({ ...options, thesaurusContext: 0.45 })(TOOLS, {
    servers: [],
  });
  for (const query of ["show current gold price", "show current news today", "read files"]) {
    deepEqual(checked.search(query, 5), plain.search(query, 5));
  }
});
