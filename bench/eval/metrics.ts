/**
 * Retrieval metrics over gold groups: a query's relevant tools come in groups of equivalent tools,
 * and a group counts as found as soon as any one of its members is retrieved.
 *
 * Everything here looks at the first {@linkcode CUTOFF} results only: a gold tool at position 11 or
 * later counts as a miss for every metric.
 *
 * @module
 */

/** The deepest position any metric looks at. */
export const CUTOFF = 10;

/** The gold of one query: groups of tool ids, any member of a group satisfying it. */
export type GoldGroups = readonly (readonly string[])[];

/** The metrics of one query (or their means over a query set), each in [0, 1]. */
export interface QueryMetrics {
  /** Recall at 1: the fraction of gold groups found in the first result. */
  r1: number;
  /** Recall at 3. */
  r3: number;
  /** Recall at 5. */
  r5: number;
  /** Recall at 10. */
  r10: number;
  /** 1 when at least one gold group is found in the first 5 results, else 0. */
  hit5: number;
  /** Reciprocal rank of the first result that belongs to a gold group (0 past position 10). */
  mrr: number;
  /** Normalised discounted cumulative gain at 10, each gold group credited once. */
  ndcg10: number;
}

/** The metric names, in the order tables show them. */
export const METRICS: readonly (keyof QueryMetrics)[] = [
  "r1",
  "r3",
  "r5",
  "r10",
  "hit5",
  "mrr",
  "ndcg10",
];

// For each of the first CUTOFF results, how many gold groups it finds that no earlier result found
// (usually 0 or 1; a tool listed in two groups finds both).
function firstFinds(ranked: readonly string[], gold: GoldGroups): number[] {
  const found = new Set<number>();
  return ranked.slice(0, CUTOFF).map((id) => {
    let fresh = 0;
    gold.forEach((group, g) => {
      if (!found.has(g) && group.includes(id)) {
        found.add(g);
        fresh++;
      }
    });
    return fresh;
  });
}

/**
 * Scores one ranked list against its gold groups. With `m` gold groups and results `r1..r10`:
 *
 * - R@k: (number of groups with a member among `r1..rk`) / `m`. With more groups than `k`, R@k
 *   cannot reach 1: that is intended, a short list cannot cover a task that needs many tools.
 * - hit@5: 1 when any group has a member among `r1..r5`.
 * - MRR: 1 / (position of the first result that is a member of any group), 0 when none is in the
 *   first 10.
 * - nDCG@10: binary gain, 1 at a position whose result finds a group no earlier result found
 *   (so a second member of an already-found group, or a repeat, gains nothing);
 *   DCG = Σ gain_i / log2(i + 1) over positions i = 1..10; the ideal DCG puts a new group at each
 *   of the first min(m, 10) positions; nDCG = DCG / ideal DCG.
 *
 * @param ranked The retrieved tool ids, best first (only the first 10 count).
 * @param gold The gold groups; must not be empty.
 * @returns The metrics of this query.
 * @throws {RangeError} When `gold` has no group or an empty group.
 *
 * @example Usage
 * ```ts
 * import { scoreQuery } from "./metrics.ts";
 * import { equal } from "node:assert/strict";
 *
 * // Two groups; the second is found at position 2 through its alternative member "c".
 * const m = scoreQuery(["x", "c", "a"], [["a"], ["b", "c"]]);
 * equal(m.r1, 0);
 * equal(m.r3, 1);
 * equal(m.mrr, 0.5);
 * ```
 */
export function scoreQuery(ranked: readonly string[], gold: GoldGroups): QueryMetrics {
  if (gold.length === 0 || gold.some((group) => group.length === 0)) {
    throw new RangeError("Cannot score a query: it needs at least one non-empty gold group");
  }
  const finds = firstFinds(ranked, gold);
  const recall = (k: number) => finds.slice(0, k).reduce((a, b) => a + b, 0) / gold.length;
  const first = finds.findIndex((_, i) => gold.some((group) => group.includes(ranked[i]!)));
  let dcg = 0;
  finds.forEach((fresh, i) => {
    if (fresh > 0) dcg += 1 / Math.log2(i + 2);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(gold.length, CUTOFF); i++) ideal += 1 / Math.log2(i + 2);
  return {
    r1: recall(1),
    r3: recall(3),
    r5: recall(5),
    r10: recall(10),
    hit5: finds.slice(0, 5).some((fresh) => fresh > 0) ? 1 : 0,
    mrr: first === -1 ? 0 : 1 / (first + 1),
    ndcg10: Math.min(1, dcg / ideal),
  };
}

/**
 * The mean of each metric over a query set.
 *
 * @param all The metrics of each query.
 * @returns The means; all zero for an empty set.
 *
 * @example Usage
 * ```ts
 * import { meanMetrics, scoreQuery } from "./metrics.ts";
 * import { equal } from "node:assert/strict";
 *
 * const mean = meanMetrics([scoreQuery(["a"], [["a"]]), scoreQuery(["x"], [["a"]])]);
 * equal(mean.r1, 0.5);
 * ```
 */
export function meanMetrics(all: readonly QueryMetrics[]): QueryMetrics {
  const mean = (key: keyof QueryMetrics) =>
    all.length === 0 ? 0 : all.reduce((sum, m) => sum + m[key], 0) / all.length;
  return {
    r1: mean("r1"),
    r3: mean("r3"),
    r5: mean("r5"),
    r10: mean("r10"),
    hit5: mean("hit5"),
    mrr: mean("mrr"),
    ndcg10: mean("ndcg10"),
  };
}
