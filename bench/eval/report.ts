/**
 * Rendering evaluation results as Markdown tables: quality per query set, quality per half of the
 * queries, and timing.
 *
 * @module
 */

import { METRICS, type QueryMetrics } from "./metrics.ts";
import type { ContenderResult } from "./run.ts";

const LABELS: Record<keyof QueryMetrics, string> = {
  r1: "R@1",
  r3: "R@3",
  r5: "R@5",
  r10: "R@10",
  hit5: "hit@5",
  mrr: "MRR",
  ndcg10: "nDCG@10",
};

// A Markdown table whose first `left` columns are left-aligned and the others right-aligned.
function table(header: readonly string[], rows: readonly (readonly string[])[], left = 2): string {
  const align = header.map((_, i) => i < left ? "---" : "---:");
  return [header, align, ...rows].map((row) => `| ${row.join(" | ")} |`).join("\n");
}

const f3 = (x: number) => x.toFixed(3);
const ms = (x: number) => x.toFixed(3);

/**
 * Renders results as Markdown: one quality table (every metric, each contender, each set), one
 * split-half table (nDCG@10, R@5 and hit@5 on each half) and one timing table.
 *
 * @param results The results of {@linkcode evaluate}.
 * @returns The tables, separated by blank lines.
 *
 * @example Usage
 * ```ts
 * import { renderReport } from "./report.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(renderReport([]).includes("nDCG@10"));
 * ```
 */
export function renderReport(results: readonly ContenderResult[]): string {
  const quality = table(
    ["set", "ranker", ...METRICS.map((m) => LABELS[m])],
    results.flatMap((r) => r.sets.map((s) => ({ r, s })))
      .sort((a, b) => a.s.set < b.s.set ? -1 : a.s.set > b.s.set ? 1 : 0)
      .map(({ r, s }) => [`${s.set} (${s.queries})`, r.name, ...METRICS.map((m) => f3(s.all[m]))]),
  );
  const halves = table(
    ["set", "ranker", "A nDCG@10", "A R@5", "A hit@5", "B nDCG@10", "B R@5", "B hit@5"],
    results.flatMap((r) => r.sets.map((s) => ({ r, s })))
      .sort((a, b) => a.s.set < b.s.set ? -1 : a.s.set > b.s.set ? 1 : 0)
      .map(({ r, s }) => [
        `${s.set} (A ${s.halves.A.queries}, B ${s.halves.B.queries})`,
        r.name,
        ...(["A", "B"] as const).flatMap((h) =>
          [s.halves[h].ndcg10, s.halves[h].r5, s.halves[h].hit5].map(f3)
        ),
      ]),
  );
  const timing = table(
    [
      "ranker",
      "index build (ms)",
      ...results[0]?.sets.flatMap((s) => [
        `${s.set} mean (ms)`,
        `${s.set} p99 (ms)`,
      ]) ?? [],
    ],
    results.map((r) => [
      r.name,
      ms(r.buildMs),
      ...r.sets.flatMap((s) => [ms(s.latency.meanMs), ms(s.latency.p99Ms)]),
    ]),
    1,
  );
  return `${quality}\n\n${halves}\n\n${timing}\n`;
}

/**
 * Renders an ablation as Markdown: for each variant, the target metrics on each query set
 * and their change from the first variant (the reference).
 *
 * @param results The results of {@linkcode evaluate}, the reference first.
 * @returns One table.
 *
 * @example Usage
 * ```ts
 * import { renderAblation } from "./report.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(renderAblation([]).includes("variant"));
 * ```
 */
export function renderAblation(results: readonly ContenderResult[]): string {
  const reference = results[0];
  const metrics: (keyof QueryMetrics)[] = ["ndcg10", "r5", "hit5"];
  const header = reference?.sets.flatMap((s) => metrics.map((m) => `${s.set} ${LABELS[m]}`)) ?? [];
  const rows = results.map((r) => [
    r.name,
    ...r.sets.flatMap((s, i) =>
      metrics.map((m) => {
        const base = reference!.sets[i]!.all[m];
        const change = s.all[m] - base;
        return r === reference
          ? f3(s.all[m])
          : `${f3(s.all[m])} (${change >= 0 ? "+" : ""}${change.toFixed(3)})`;
      })
    ),
  ]);
  return `${table(["variant", ...header], rows, 1)}\n`;
}

/** How far a half may fall below the reference and still hold, under the rule for defaults. */
export const RULE_TOLERANCE = 0.005;

/**
 * Renders the rule for defaults as Markdown: for each variant, nDCG@10 and R@5 on both halves of
 * every query set (the reference's figures, the variants' changes), and whether the variant holds
 * (no half falls more than {@linkcode RULE_TOLERANCE} below the reference on either metric) or
 * which halves it loses.
 *
 * @param results The results of {@linkcode evaluate} over every development set, the reference
 * first.
 * @returns One table.
 *
 * @example Usage
 * ```ts
 * import { renderRule } from "./report.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(renderRule([]).includes("holds?"));
 * ```
 */
export function renderRule(results: readonly ContenderResult[]): string {
  const reference = results[0];
  const metrics = [["ndcg10", "nDCG"], ["r5", "R@5"]] as const;
  const cells =
    reference?.sets.flatMap((s) =>
      (["A", "B"] as const).flatMap((h) =>
        metrics.map(([m, label]) => ({ set: s.set, h, m, label }))
      )
    ) ?? [];
  const rows = results.map((r) => {
    const losses: string[] = [];
    const values = cells.map(({ set, h, m, label }) => {
      const value = r.sets.find((s) => s.set === set)?.halves[h][m] ?? NaN;
      const base = reference!.sets.find((s) => s.set === set)!.halves[h][m];
      if (r === reference) return f3(value);
      const change = value - base;
      if (change < -RULE_TOLERANCE) losses.push(`${set} ${h} ${label}`);
      return `${change >= 0 ? "+" : ""}${change.toFixed(3)}`;
    });
    const verdict = r === reference
      ? "reference"
      : losses.length === 0
      ? "holds"
      : `fails (${losses.length} of ${cells.length})`;
    return [r.name, ...values, verdict];
  });
  const header = ["variant", ...cells.map((c) => `${c.set} ${c.h} ${c.label}`), "holds?"];
  return `${table(header, rows, 1)}\n`;
}
