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

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const align = header.map((_, i) => i === 0 || i === 1 ? "---" : "---:");
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
  );
  return `${quality}\n\n${halves}\n\n${timing}\n`;
}
