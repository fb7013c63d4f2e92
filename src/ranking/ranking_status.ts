/**
 * How a face says which ranker it searches with: a ranker factory that loads a better ranker
 * (`backgroundRanker` of `./deno_ranker.ts`) reports its {@linkcode RankingStatus}; the HTTP API
 * and the gateway put it in `/healthz`, `/status` and the {@linkcode RANKER_HEADER} of every
 * response, so a face that could not load the ranking data is never silently weaker.
 *
 * @module
 */

import type { RankerFactory, RankingStatus } from "./ranker.ts";

/** The response header that names the ranker in use (`deno-default` or `lexical`). */
export const RANKER_HEADER = "unfold-ranker";

/** A ranker factory that reports which ranker it uses and can be waited for. */
export interface ReportingRanker {
  /** The ranker in use and, while it is the fallback, why. */
  status(): RankingStatus;
  /** Loads the better ranker if it has not (never rejects). */
  loaded(): Promise<void>;
}

/**
 * The reporting side of a ranker factory, if it has one.
 *
 * @param ranker The factory.
 * @returns It as a {@linkcode ReportingRanker}, or `undefined` for a plain factory.
 *
 * @example Usage
 * ```ts
 * import { reportingOf } from "./ranking_status.ts";
 * import { lexicalRanker } from "./lexical_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(reportingOf(lexicalRanker), undefined);
 * ```
 */
export function reportingOf(ranker: RankerFactory | undefined): ReportingRanker | undefined {
  const r = ranker as Partial<ReportingRanker> | undefined;
  return typeof r?.status === "function" && typeof r.loaded === "function"
    ? r as ReportingRanker
    : undefined;
}

/**
 * The members `/healthz` and `/status` add for a reporting ranker.
 *
 * @param ranking The ranker, if it reports.
 * @returns `{ranker, rankerProblem?}`, or nothing.
 *
 * @example Usage
 * ```ts
 * import { rankingFields } from "./ranking_status.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const failed = { status: () => ({ ranker: "lexical" as const, problem: "no data" }), loaded: async () => {} };
 * deepEqual(rankingFields(failed), { ranker: "lexical", rankerProblem: "no data" });
 * deepEqual(rankingFields(undefined), {});
 * ```
 */
export function rankingFields(
  ranking: ReportingRanker | undefined,
): { ranker?: RankingStatus["ranker"]; rankerProblem?: string } {
  if (ranking === undefined) return {};
  const { ranker, problem } = ranking.status();
  return problem === undefined ? { ranker } : { ranker, rankerProblem: problem };
}
