/**
 * Running the retrieval evaluation: build each contender over the catalogue, rank every query of
 * every set, score the first 10 results, time the searches and the index build.
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../../mod.ts";
import { type EvalData, half } from "./dataset.ts";
import { CUTOFF, meanMetrics, type QueryMetrics, scoreQuery } from "./metrics.ts";

/** A search function: the ids of the best tools for a query, best first. */
export type Search = (query: string) => string[];

/** A ranker under evaluation. */
export interface Contender {
  /** Its name in tables. */
  name: string;
  /**
   * Builds its index over a catalogue, completely (lazy indexes are forced), and returns its
   * search; the time this takes is the build time.
   */
  build(tools: readonly McpTool[], servers: readonly ServerInfo[]): Search;
}

/** Latency of single searches, in milliseconds. */
export interface Latency {
  /** The mean. */
  meanMs: number;
  /** The 99th percentile (nearest rank). */
  p99Ms: number;
}

/** The results of one contender on one query set. */
export interface SetResult {
  /** The query set. */
  set: string;
  /** The number of queries scored. */
  queries: number;
  /** The mean metrics over all queries. */
  all: QueryMetrics;
  /** The mean metrics over each half of the queries (split by task, see `half`). */
  halves: { A: QueryMetrics & { queries: number }; B: QueryMetrics & { queries: number } };
  /** Search latency over every query of the set, each run `rounds` times. */
  latency: Latency;
}

/** The results of one contender. */
export interface ContenderResult {
  /** The contender. */
  name: string;
  /** The median time to build its index over the catalogue, in milliseconds. */
  buildMs: number;
  /** One result per query set. */
  sets: SetResult[];
}

/** Options of {@linkcode evaluate}. */
export interface EvaluateOptions {
  /**
   * A monotonic clock in milliseconds.
   * @default {performance.now}
   */
  now?: () => number;
  /**
   * How many times each build and each search is timed, after one untimed warm-up round.
   * @default {3}
   */
  rounds?: number;
}

/**
 * Evaluates contenders on every query set of a catalogue.
 *
 * @param data The catalogue and its query sets.
 * @param contenders The rankers to compare.
 * @param options The clock and the number of timing rounds.
 * @returns One result per contender, in the order given.
 *
 * @example Usage
 * ```ts
 * import { evaluate } from "./run.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tools = [
 *   { server: "s", name: "a", description: "", inputSchema: { type: "object" } },
 *   { server: "s", name: "b", description: "", inputSchema: { type: "object" } },
 * ];
 * const data = { dir: "", tools, servers: [], sets: [{ name: "q", skipped: 0, queries: [{ group: "1", query: "b", gold: [["s/b"]] }] }] };
 * const [result] = evaluate(data, [{ name: "always a, b", build: () => () => ["s/a", "s/b"] }]);
 * equal(result?.sets[0]?.all.mrr, 0.5);
 * ```
 */
export function evaluate(
  data: EvalData,
  contenders: readonly Contender[],
  options: EvaluateOptions = {},
): ContenderResult[] {
  const now = options.now ?? (() => performance.now());
  const rounds = Math.max(1, Math.floor(options.rounds ?? 3));
  return contenders.map((contender): ContenderResult => {
    const builds: number[] = [];
    // Untimed warm-up, so that timings measure the steady state, not the JIT compiler.
    let search = contender.build(data.tools, data.servers);
    for (const set of data.sets) for (const q of set.queries) search(q.query);
    for (let round = 0; round < rounds; round++) {
      const start = now();
      search = contender.build(data.tools, data.servers);
      builds.push(now() - start);
    }
    const sets = data.sets.map((set): SetResult => {
      const times: number[] = [];
      const scored = set.queries.map((q) => {
        let ranked: string[] = [];
        for (let round = 0; round < rounds; round++) {
          const start = now();
          ranked = search(q.query);
          times.push(now() - start);
        }
        return { half: half(q.group), metrics: scoreQuery(ranked.slice(0, CUTOFF), q.gold) };
      });
      const of = (h: "A" | "B") => {
        const list = scored.filter((s) => s.half === h).map((s) => s.metrics);
        return { ...meanMetrics(list), queries: list.length };
      };
      return {
        set: set.name,
        queries: scored.length,
        all: meanMetrics(scored.map((s) => s.metrics)),
        halves: { A: of("A"), B: of("B") },
        latency: latency(times),
      };
    });
    return { name: contender.name, buildMs: median(builds), sets };
  });
}

function latency(times: readonly number[]): Latency {
  if (times.length === 0) return { meanMs: 0, p99Ms: 0 };
  const sorted = [...times].sort((a, b) => a - b);
  return {
    meanMs: times.reduce((a, b) => a + b, 0) / times.length,
    p99Ms: sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
