import { deepEqual, equal, ok } from "node:assert/strict";
import { queryTerms } from "../../src/ranking/query_terms.ts";
import { createLexicalRanker, LEXICAL_DEFAULTS } from "../../src/ranking/lexical_ranker.ts";
import type { Lexicon } from "../../src/ranking/word_sources.ts";
import { tool } from "../_data.ts";

const settings = { queryTermFrequency: true, queryTermLimit: 3, positionWeightAfter: 4 };

Deno.test("queryTerms() reads a request of a few words exactly as before: every word, fully", () => {
  const read = queryTerms(["send", "team", "message", "team"], settings, () => 1);
  deepEqual(read.words, ["send", "team", "message", "team"]);
  deepEqual([...read.counts], [["send", 1], ["team", 2], ["message", 1]]);
  equal(read.distinct, 3);
});

Deno.test("queryTerms() weighs a long request's first words most", () => {
  const words = ["a", "b", "c", "d", "e", "f", "g", "h"];
  const read = queryTerms(words, { ...settings, queryTermLimit: 0 }, () => 1);
  deepEqual([...read.counts.values()], [1, 1, 1, 1, 4 / 5, 4 / 6, 4 / 7, 4 / 8]);
});

Deno.test("queryTerms() keeps a long request's most distinctive words, ties to the earlier", () => {
  const idf: Record<string, number> = { the: 0.1, ledger: 3, invoice: 3, tax: 2, report: 1 };
  const words = ["the", "report", "the", "invoice", "tax", "ledger"];
  const read = queryTerms(words, settings, (w) => idf[w] ?? 0);
  deepEqual([...read.counts.keys()], ["invoice", "ledger", "tax"]);
  deepEqual(read.words, ["invoice", "tax", "ledger"]);
  equal(read.distinct, 5);
});

// A thesaurus that counts the distinct words a search asks it about: the ranker asks once per
// query word it searches (and its base forms), so this counts the words a search works on.
function countingLexicon(): Lexicon & { asked: Set<string> } {
  const asked = new Set<string>();
  return {
    asked,
    has: (word) => (asked.add(word), true),
    related: (word) => (asked.add(word), []),
  };
}

// A request of `chars` characters of distinct made-up words (no catalogue has them).
function request(chars: number): string {
  const words: string[] = [];
  for (let i = 0; words.join(" ").length < chars; i++) {
    words.push(`zq${i.toString(26).replace(/\d/g, (d) => "abcdefghij"[Number(d)]!)}x`);
  }
  return words.join(" ").slice(0, chars);
}

Deno.test("a search reads at most queryTermLimit distinct words, whatever the request's length", () => {
  const tools = [tool("files", "read_file", "Read a file"), tool("chat", "post", "Post a message")];
  const asked: number[] = [];
  for (const chars of [1_000, 8_000, 32_000]) {
    const lexicon = countingLexicon();
    const ranker = createLexicalRanker({ thesaurus: lexicon })(tools, { servers: [] });
    ranker.search(`read the file ${request(chars)}`, 5);
    asked.push(lexicon.asked.size);
  }
  // Each word searched is asked about with its base forms (a word and one form here), once or
  // twice (the fallback when nothing matches): the count does not grow with the request.
  ok(asked[0]! <= 2 * LEXICAL_DEFAULTS.queryTermLimit, `${asked}`);
  deepEqual(asked, [asked[0], asked[0], asked[0]]);
});

Deno.test("a long request's distinctive words still find their tool", () => {
  const tools = [tool("files", "read_file", "Read a file"), tool("chat", "post", "Post a message")];
  const ranker = createLexicalRanker()(tools, { servers: [] });
  equal(ranker.search(`please ${request(7_000)} post a message`, 5)[0]?.id, "chat/post");
});
