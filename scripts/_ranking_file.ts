/**
 * The build scripts' access to the ranking data's file (`src/page/ranking-en.bin`, the layout of
 * `src/ranking/ranking_data.ts`): `deno task vectors` and `deno task lexicon` each rewrite their
 * own part and keep the other as it is.
 *
 * @module
 */

import { rankingDataOf, type RankingViews } from "../src/ranking/ranking_data.ts";
import {
  encodeRankingData,
  type RankingTables,
  tablesOf,
} from "../src/ranking/ranking_data_write.ts";

/** The file every face reads the ranking data from. */
export const RANKING_FILE: URL = new URL("../src/page/ranking-en.bin", import.meta.url);

/**
 * Rewrites the ranking data's file with one part replaced.
 *
 * @param part The vectors or the thesaurus to write.
 * @returns The bytes written.
 */
export function writeRankingPart(part: RankingTables): number {
  const bytes = encodeRankingData({ ...tablesOf(readRankingFile()), ...part });
  Deno.writeFileSync(RANKING_FILE, bytes);
  return bytes.length;
}

/**
 * The ranking data's file, opened.
 *
 * @returns Its views.
 */
export function readRankingFile(): RankingViews {
  return rankingDataOf(Deno.readFileSync(RANKING_FILE));
}
