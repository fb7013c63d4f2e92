/**
 * Replaying a development set as a user's sessions: its queries in their recorded order, each
 * searched with what the user ran so far (`LearnedRuns`) and followed by the tools it ran (its
 * gold: for route_dev, the tools the agent executed next). It measures what the learned prior
 * gains over the same ranking without it, and, with one tool executed 1,000 times after searches
 * with the set's most frequent words (a poisoned prior), what it can cost.
 *
 * @module
 */

import { McpCatalog, type RankerFactory } from "../../mod.ts";
import { LearnedRuns, learnedWords } from "../../src/ranking/learned.ts";
import { type EvalData, half } from "./dataset.ts";
import { CUTOFF, meanMetrics, type QueryMetrics, scoreQuery } from "./metrics.ts";

/** One set replayed: its metrics without and with the learned prior, and poisoned. */
export interface ReplayResult {
  /** The query set. */
  set: string;
  /** The number of queries. */
  queries: number;
  /** The metrics of each variant on each half and the whole set. */
  variants: Record<"without" | "learned" | "poisoned", Record<"A" | "B" | "all", QueryMetrics>>;
  /** The poisoned tool, and how many queries had it in their first 5 (unpoisoned: how many). */
  poison: { tool: string; top5: number; top5Before: number; words: string[] };
}

/** How many times the poisoned tool is executed. */
export const POISON_RUNS = 1000;

/**
 * Replays each query set of a catalogue.
 *
 * @param data The catalogue and its sets (their queries in the files' order).
 * @param ranker The ranker.
 * @returns One result per set.
 *
 * @example Usage
 * ```ts ignore
 * import { replay } from "./replay.ts";
 * import { loadEvalData } from "./dataset.ts";
 * import { lexicalRanker } from "../../mod.ts";
 *
 * console.log(replay(loadEvalData("testdata/livemcpbench"), lexicalRanker));
 * ```
 */
export function replay(data: EvalData, ranker: RankerFactory): ReplayResult[] {
  const catalog = new McpCatalog(data.tools, { servers: data.servers, ranker });
  return data.sets.map((set): ReplayResult => {
    const runs = new LearnedRuns();
    const poison = poisoned(catalog, set.queries.map((q) => q.query));
    const rows = set.queries.map((q) => {
      const score = (learned?: LearnedRuns) =>
        scoreQuery(catalog.search(q.query, CUTOFF, { learned }).map((m) => m.id), q.gold);
      const row = {
        half: half(q.group),
        without: score(),
        learned: score(runs),
        poisoned: score(poison.runs),
        hit: catalog.search(q.query, 5, { learned: poison.runs }).some((m) => m.id === poison.tool),
        hitBefore: catalog.search(q.query, 5).some((m) => m.id === poison.tool),
      };
      // The session then runs the tools it needed: one of each gold group.
      for (const group of q.gold) runs.record(learnedWords(q.query), group[0]!);
      return row;
    });
    const of = (key: "without" | "learned" | "poisoned") => {
      const pick = (h?: "A" | "B") =>
        meanMetrics(rows.filter((r) => h === undefined || r.half === h).map((r) => r[key]));
      return { A: pick("A"), B: pick("B"), all: pick() };
    };
    return {
      set: set.name,
      queries: rows.length,
      variants: { without: of("without"), learned: of("learned"), poisoned: of("poisoned") },
      poison: {
        tool: poison.tool,
        top5: rows.filter((r) => r.hit).length,
        top5Before: rows.filter((r) => r.hitBefore).length,
        words: poison.words,
      },
    };
  });
}

// A prior in which one tool, the catalogue's first by id that no query ranks first, was executed
// POISON_RUNS times after searches with the set's most frequent words: the worst a tool run for
// words of every request can do.
function poisoned(
  catalog: McpCatalog,
  queries: readonly string[],
): { runs: LearnedRuns; tool: string; words: string[] } {
  const frequency = new Map<string, number>();
  for (const query of queries) {
    for (const word of learnedWords(query)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  const words = [...frequency].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, 16).map(([word]) => word);
  const firsts = new Set(queries.map((q) => catalog.search(q, 1)[0]?.id));
  const tool = catalog.tools.map((t) => `${t.server}/${t.name}`).find((id) => !firsts.has(id))!;
  const runs = new LearnedRuns();
  for (let i = 0; i < POISON_RUNS; i++) runs.record(words, tool);
  return { runs, tool, words };
}

/**
 * Renders replays as Markdown: per set and half, nDCG@10 / R@5 without and with the learned
 * prior, the change, the poisoned figures, and how many requests had the poisoned tool in their
 * first five (before → after).
 *
 * @param results The replays.
 * @returns One table.
 *
 * @example Usage
 * ```ts
 * import { renderReplay } from "./replay.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(renderReplay([]).includes("learned"));
 * ```
 */
export function renderReplay(results: readonly ReplayResult[]): string {
  const f = (m: QueryMetrics) => `${m.ndcg10.toFixed(3)} / ${m.r5.toFixed(3)}`;
  const d = (a: number, b: number) => `${a - b >= 0 ? "+" : "−"}${Math.abs(a - b).toFixed(3)}`;
  const rows = results.flatMap((r) =>
    (["A", "B", "all"] as const).map((h) => {
      const { without, learned, poisoned } = r.variants;
      return `| ${r.set} | ${h} | ${f(without[h])} | ${f(learned[h])} | ${
        d(learned[h].ndcg10, without[h].ndcg10)
      } / ${d(learned[h].r5, without[h].r5)} | ${f(poisoned[h])} | ${
        h === "all" ? `${r.poison.top5Before} → ${r.poison.top5} of ${r.queries}` : ""
      } |`;
    })
  );
  return [
    "| set | half | without | learned | change | poisoned | poisoned tool in the first 5 |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
  ].join("\n") + "\n";
}
