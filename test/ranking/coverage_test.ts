import { deepEqual, equal, ok } from "node:assert/strict";
import { coverageRerank } from "../../src/ranking/coverage.ts";
import { lexicalRanker } from "../../mod.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { tool } from "../_data.ts";

Deno.test("coverageRerank() moves a tool for an uncovered word above another for a covered one", () => {
  const candidates = [{ doc: 0, score: 4 }, { doc: 1, score: 3.8 }, { doc: 2, score: 3 }];
  // Words: "audio" (docs 0 and 1), "chroma" (doc 2).
  const ranked = coverageRerank(candidates, [1, 0, 1, 0, 0, 1], [1, 1], 0.3, 3);
  deepEqual(ranked.map((c) => c.doc), [0, 2, 1]);
  for (let i = 1; i < ranked.length; i++) ok(ranked[i - 1]!.score >= ranked[i]!.score);
  equal(ranked[0]!.score, 4 * (0.7 + 0.3 * 0.5));
});

Deno.test("coverageRerank() keeps relevance order without coverage, ties by number", () => {
  const candidates = [{ doc: 3, score: 2 }, { doc: 1, score: 1 }, { doc: 2, score: 1 }];
  deepEqual(
    coverageRerank(candidates, [0, 0, 0, 0, 0, 0], [1, 1], 0.3, 3).map((c) => c.doc),
    [3, 1, 2],
  );
  // One word, no lambda or one candidate: unchanged.
  deepEqual(coverageRerank(candidates, [1, 1, 1], [1], 0.3, 3), candidates);
  deepEqual(coverageRerank(candidates, [1, 0, 0, 1, 1, 0], [1, 1], 0, 3), candidates);
  deepEqual(coverageRerank([], [], [1, 1], 0.3, 3), []);
});

Deno.test("coverageRerank() fills only the first places greedily, the rest by their last worth", () => {
  const candidates = [{ doc: 0, score: 4 }, { doc: 1, score: 3.8 }, { doc: 2, score: 3 }];
  const ranked = coverageRerank(candidates, [1, 0, 1, 0, 0, 1], [1, 1], 0.3, 1);
  deepEqual(ranked.map((c) => c.doc), [0, 2, 1]);
  for (let i = 1; i < ranked.length; i++) ok(ranked[i - 1]!.score >= ranked[i]!.score);
});

Deno.test("lexicalRanker surfaces a tool for each need of a request, not only the dominant one", () => {
  const tools = [
    ...["add_slide", "add_chart", "add_text", "open_deck", "save_deck"].map((name) =>
      tool("ppt", name, `${name.replace("_", " ")} in a ppt deck`)
    ),
    tool("finance", "get_prices", "Historical prices of a stock"),
    tool("finance", "get_news", "News about a company"),
  ];
  const request = "stock prices in a ppt deck with a chart";
  const top2 = (ranker: typeof lexicalRanker) =>
    ranker(tools, { servers: [] }).search(request, 2).map((hit) => hit.id);
  deepEqual(top2(lexicalRanker), ["ppt/add_chart", "finance/get_prices"]);
  deepEqual(top2(createLexicalRanker({ diversity: 0 })), ["ppt/add_chart", "ppt/open_deck"]);
});
