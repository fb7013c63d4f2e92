/**
 * The ranking strategy behind `search`: an index over a catalogue's tools that answers a query with
 * scored ids. Implementations are chosen in one place ({@linkcode McpCatalog}'s `ranker` option) and
 * all pass the same contract tests.
 *
 * @module
 */

import type { McpTool, ServerInfo } from "../tool.ts";

/** One search hit: a tool id and its relevance (higher is better). */
export interface RankedTool {
  /** The tool's id, `server/name`. */
  id: string;
  /** The relevance score, a finite positive number. */
  score: number;
}

/**
 * A search index over one catalogue.
 *
 * Contract (checked by `test/_contracts/ranker_contract.ts` for every implementation):
 * at most `limit` results; scores finite and positive; sorted by score, ties by id; the same answer
 * whatever order the tools were indexed in; `[]` for a query without searchable terms; never throws
 * on any string.
 */
export interface Ranker {
  /**
   * Ranks the catalogue's tools for a query.
   *
   * @param query What the model is looking for, in its own words.
   * @param limit The most results to return, a positive integer.
   * @returns The best matches, best first.
   */
  search(query: string, limit: number): RankedTool[];
  /**
   * The built index as bytes, for a cache that outlives the process (the Worker keeps it in a
   * Durable Object): `format` names the ranker, its version and the settings that shaped the
   * index; the factory's `restore` takes it back. Optional: a ranker without it is rebuilt.
   *
   * @returns The format and the bytes.
   */
  snapshot?(): { format: string; bytes: Uint8Array };
}

/**
 * Which ranker a face searches with now, as `/healthz`, `/status` and the `unfold-ranker` header
 * say (`backgroundRanker` of `./deno_ranker.ts` reports it).
 */
export interface RankingStatus {
  /** `deno-default` once the ranking data has loaded, `lexical` until then. */
  ranker: "deno-default" | "lexical";
  /** Why the lexical ranker is in use, while it is: the data is loading, or why it failed. */
  problem?: string;
}

/** What a ranker may index besides the tools: information about the catalogue's servers. */
export type RankerOptions = Parameters<RankerFactory>[1];

/**
 * Builds a {@linkcode Ranker} over a catalogue's tools (already validated, sorted by id).
 *
 * @param tools The tools to index.
 * @param options What else to index.
 * @returns The ranker.
 */
export interface RankerFactory {
  (tools: readonly McpTool[], options: { servers: readonly ServerInfo[] }): Ranker;
  /**
   * Rebuilds a ranker from the snapshot of one this factory built over the same tools and
   * servers, without indexing them again. Optional.
   *
   * @param tools The tools the snapshot's ranker indexed.
   * @param options The same server information.
   * @param snapshot What {@linkcode Ranker.prototype.snapshot} returned.
   * @returns The ranker, or `undefined` when the snapshot is not in this factory's format.
   */
  restore?(
    tools: readonly McpTool[],
    options: { servers: readonly ServerInfo[] },
    snapshot: { format: string; bytes: Uint8Array },
  ): Ranker | undefined;
}
