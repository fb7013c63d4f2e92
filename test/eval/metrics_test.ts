import { deepEqual, equal, throws } from "node:assert/strict";
import { meanMetrics, scoreQuery } from "../../bench/eval/metrics.ts";

const close = (actual: number, expected: number, what: string) =>
  equal(Math.round(actual * 1e9) / 1e9, Math.round(expected * 1e9) / 1e9, what);

Deno.test("scoreQuery() gives 1 everywhere when the only gold tool comes first", () => {
  deepEqual(scoreQuery(["a", "x"], [["a"]]), {
    r1: 1,
    r3: 1,
    r5: 1,
    r10: 1,
    hit5: 1,
    mrr: 1,
    ndcg10: 1,
  });
});

Deno.test("scoreQuery() counts a group found through any of its members, once", () => {
  // Groups {a} and {b, c}; c at 2 finds the second group, b at 4 finds nothing new.
  const m = scoreQuery(["x", "c", "y", "b", "a"], [["a"], ["b", "c"]]);
  equal(m.r1, 0);
  equal(m.r3, 0.5);
  equal(m.r5, 1);
  equal(m.r10, 1);
  equal(m.hit5, 1);
  equal(m.mrr, 0.5);
  const dcg = 1 / Math.log2(3) + 1 / Math.log2(6);
  close(m.ndcg10, dcg / (1 + 1 / Math.log2(3)), "nDCG@10");
});

Deno.test("scoreQuery() treats gold past position 10 as a miss", () => {
  const ranked = [...Array.from({ length: 10 }, (_, i) => `x${i}`), "a"];
  deepEqual(scoreQuery(ranked, [["a"]]), {
    r1: 0,
    r3: 0,
    r5: 0,
    r10: 0,
    hit5: 0,
    mrr: 0,
    ndcg10: 0,
  });
});

Deno.test("scoreQuery() ranks recall by groups, so many groups cap R@1", () => {
  const gold = [["a"], ["b"], ["c"], ["d"]];
  const m = scoreQuery(["a", "b", "c", "d"], gold);
  equal(m.r1, 0.25);
  equal(m.r3, 0.75);
  equal(m.r5, 1);
  equal(m.ndcg10, 1);
  equal(scoreQuery(["x", "x", "x", "x", "x", "a"], gold).hit5, 0);
});

Deno.test("scoreQuery() computes nDCG@10 against an ideal of min(groups, 10) hits", () => {
  const gold = Array.from({ length: 12 }, (_, i) => [`g${i}`]);
  equal(scoreQuery(gold.map((g) => g[0]!), gold).ndcg10, 1);
  const ideal = [1, 2].reduce((sum, i) => sum + 1 / Math.log2(i + 1), 0);
  close(scoreQuery(["x", "b"], [["a"], ["b"]]).ndcg10, (1 / Math.log2(3)) / ideal, "nDCG@10");
});

Deno.test("scoreQuery() rejects a query without gold", () => {
  throws(() => scoreQuery(["a"], []), RangeError);
  throws(() => scoreQuery(["a"], [[]]), RangeError);
});

Deno.test("meanMetrics() averages each metric and gives zeros for no queries", () => {
  const mean = meanMetrics([scoreQuery(["a"], [["a"]]), scoreQuery(["x", "a"], [["a"]])]);
  equal(mean.r1, 0.5);
  equal(mean.mrr, 0.75);
  equal(mean.r3, 1);
  equal(meanMetrics([]).ndcg10, 0);
});
