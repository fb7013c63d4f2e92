import { deepEqual, equal } from "node:assert/strict";
import { orderSiblings } from "../../src/ranking/sibling_order.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { SemanticIndex } from "../../src/ranking/semantic.ts";
import type { WordVectors } from "../../src/ranking/word_sources.ts";
import type { McpTool } from "../../src/tool.ts";

const cosinesOf = (table: Record<number, number>) => (docs: readonly number[]) =>
  Float64Array.from(docs, (doc) => table[doc] ?? 0);

Deno.test("orderSiblings() swaps a server's tools within its places and keeps other servers' places and the scores", () => {
  // Server 0 holds places 0, 2 and 3; server 1 place 1; server 2 place 4.
  const top = [
    { doc: 10, score: 10 },
    { doc: 20, score: 9.95 },
    { doc: 11, score: 9.9 },
    { doc: 12, score: 9.85 },
    { doc: 30, score: 5 },
  ];
  const serverOf = new Int32Array(40);
  serverOf.fill(0, 10, 20).fill(1, 20, 30).fill(2, 30, 40);
  const ordered = orderSiblings(top, serverOf, 10, 0.1, cosinesOf({ 10: 0, 11: 0.2, 12: 0.9 }));
  deepEqual(ordered.map((hit) => hit.doc), [12, 20, 11, 10, 30]);
  deepEqual(ordered.map((hit) => hit.score), top.map((hit) => hit.score));
});

Deno.test("orderSiblings() keeps a lexical lead larger than the weight times the cosines' difference", () => {
  const top = [{ doc: 0, score: 10 }, { doc: 1, score: 8 }];
  const serverOf = Int32Array.from([0, 0]);
  const cosines = cosinesOf({ 0: 0, 1: 0.5 });
  // 1 + 0.2 × 0 > 0.8 + 0.2 × 0.5: the lead of 0.2 (relative to the best) stays.
  deepEqual(orderSiblings(top, serverOf, 10, 0.2, cosines).map((hit) => hit.doc), [0, 1]);
  // At weight 0.5 the meaning outweighs it.
  deepEqual(orderSiblings(top, serverOf, 10, 0.5, cosines).map((hit) => hit.doc), [1, 0]);
});

Deno.test("orderSiblings() leaves the ranking as it is at weight 0, without a query vector, past the depth, and with no siblings", () => {
  const top = [{ doc: 0, score: 3 }, { doc: 1, score: 2 }, { doc: 2, score: 1 }];
  const serverOf = Int32Array.from([0, 1, 0]);
  const cosines = cosinesOf({ 2: 1 });
  deepEqual(orderSiblings(top, serverOf, 10, 0, cosines), top);
  deepEqual(orderSiblings(top, serverOf, 10, 1, () => undefined), top);
  // Within the first two places, no server has two tools.
  deepEqual(orderSiblings(top, serverOf, 2, 1, cosines), top);
  deepEqual(orderSiblings(top, serverOf, 3, 1, cosines).map((hit) => hit.doc), [2, 1, 0]);
  deepEqual(orderSiblings([], serverOf, 10, 1, cosines), []);
});

Deno.test("orderSiblings() asks the cosines of the siblings only, once", () => {
  const top = [{ doc: 0, score: 3 }, { doc: 1, score: 2 }, { doc: 2, score: 1 }];
  const asked: number[][] = [];
  orderSiblings(top, Int32Array.from([0, 1, 0]), 10, 1, (docs) => {
    asked.push([...docs]);
    return new Float64Array(docs.length);
  });
  deepEqual(asked, [[0, 2]]);
});

// Vectors given by hand: each word its own direction, `storm` close to `alerts`.
function handVectors(table: Record<string, number[]>): WordVectors {
  const vectors: WordVectors = {
    dimensions: Object.values(table)[0]!.length,
    has: (word) => word in table,
    get(word) {
      const v = table[word];
      return v === undefined ? undefined : { vector: Float32Array.from(v), weight: 0.5 };
    },
    index: (words) => new SemanticIndex(words, vectors),
  };
  return vectors;
}

const tool = (server: string, name: string, description: string): McpTool => ({
  server,
  name,
  description,
  inputSchema: { type: "object" },
});

Deno.test("the lexical ranker's siblingWeight orders a server's tools by meaning, with vectors only", () => {
  const vectors = handVectors({
    weather: [1, 0, 0, 0, 0],
    forecast: [0, 1, 0, 0, 0],
    city: [0, 1, 0, 0, 0],
    alerts: [0, 0, 1, 0, 0],
    storm: [0, 0, 1, 0, 0],
    news: [0, 0, 0, 1, 0],
    headlines: [0, 0, 0, 1, 0],
    maps: [0, 0, 0, 0, 1],
  });
  const tools = [
    tool("weather", "forecast", "Weather forecast for a city"),
    tool("weather", "alerts", "Weather alerts"),
    tool("news", "headlines", "News headlines about the weather"),
    tool("maps", "maps", "Maps of a city"),
  ];
  const query = "city weather storm";
  const ids = (options: Parameters<typeof createLexicalRanker>[0]) =>
    createLexicalRanker(options)(tools, { servers: [] }).search(query, 10).map((hit) => hit.id);
  const before = ids({ vectors });
  equal(before.indexOf("weather/forecast") < before.indexOf("weather/alerts"), true);
  const after = ids({ vectors, siblingWeight: 2 });
  // The weather server's two places are swapped; the other servers keep theirs.
  deepEqual(
    after,
    before.map((id) =>
      id === "weather/forecast"
        ? "weather/alerts"
        : id === "weather/alerts"
        ? "weather/forecast"
        : id
    ),
  );
  // Without vectors there is no meaning to order by.
  deepEqual(ids({ siblingWeight: 2 }), ids({}));
});
