import { deepEqual, equal, ok } from "node:assert/strict";
import type { EvalData } from "../../bench/eval/dataset.ts";
import { renderReport, renderRule } from "../../bench/eval/report.ts";
import { evaluate } from "../../bench/eval/run.ts";
import { tool } from "../_data.ts";

// Two queries in different halves (see half()): "task-1" is in A, "task-0" in B.
const DATA: EvalData = {
  dir: "",
  tools: [tool("s", "a"), tool("s", "b"), tool("s", "c")],
  servers: [],
  sets: [{
    name: "set",
    skipped: 0,
    queries: [
      { group: "task-1", query: "a", gold: [["s/a"]] },
      { group: "task-0", query: "b", gold: [["s/b"], ["s/c"]] },
    ],
  }],
};

function fakeClock(step: number): () => number {
  let t = 0;
  return () => (t += step);
}

Deno.test("evaluate() scores every query, per set and per half, with the given clock", () => {
  const [result] = evaluate(DATA, [{
    name: "fixed",
    build: () => () => ["s/a", "s/c", "s/b"],
  }], { now: fakeClock(2), rounds: 2 });
  equal(result?.name, "fixed");
  equal(result?.buildMs, 2);
  const set = result!.sets[0]!;
  equal(set.queries, 2);
  equal(set.all.r1, 0.5);
  equal(set.all.mrr, 0.75);
  deepEqual([set.halves.A.queries, set.halves.B.queries], [1, 1]);
  equal(set.halves.A.ndcg10, 1);
  equal(set.halves.B.r3, 1);
  deepEqual(set.latency, { meanMs: 2, p99Ms: 2 });
});

Deno.test("evaluate() builds and searches once to warm up, then once per timed round", () => {
  let builds = 0;
  let searches = 0;
  evaluate(DATA, [{
    name: "counted",
    build: () => {
      builds++;
      return () => {
        searches++;
        return [];
      };
    },
  }], { rounds: 3 });
  equal(builds, 4);
  equal(searches, 8);
});

Deno.test("renderReport() shows every metric for every ranker, both halves and timing", () => {
  const results = evaluate(DATA, [
    { name: "one", build: () => () => ["s/a"] },
    { name: "two", build: () => () => ["s/b"] },
  ], { now: fakeClock(1), rounds: 1 });
  const text = renderReport(results);
  for (const label of ["R@1", "R@3", "R@5", "R@10", "hit@5", "MRR", "nDCG@10", "B hit@5"]) {
    ok(text.includes(label), label);
  }
  ok(text.includes("| set (2) | one | 0.500 |"), text);
  ok(text.includes("| one | 1.000 | 1.000 | 1.000 |"), text);
});

Deno.test("renderRule() holds a variant within 0.005 on every half and names what fails", () => {
  const [reference, within, worse] = evaluate(DATA, [
    { name: "reference", build: () => () => ["s/a", "s/b", "s/c"] },
    { name: "same", build: () => () => ["s/a", "s/b", "s/c"] },
    // Half B's query loses its gold from the first 5 places.
    { name: "worse", build: () => () => ["s/a", "s/x1", "s/x2", "s/x3", "s/x4", "s/x5"] },
  ], { rounds: 1 });
  const lines = renderRule([reference!, within!, worse!]).split("\n");
  ok(lines[0]!.includes("set A nDCG") && lines[0]!.includes("set B R@5"));
  ok(lines[2]!.endsWith("| reference |"));
  ok(lines[3]!.endsWith("| holds |"), lines[3]);
  ok(lines[4]!.endsWith("| fails (2 of 4) |"), lines[4]);
});
