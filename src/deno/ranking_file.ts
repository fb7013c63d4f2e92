/**
 * The ranking data of a Deno process (`deno task start`, the `unfold` command), read from its file
 * through the bounded regular-file reader: a named pipe, a device or a folder in the file's place
 * is refused at once (the process ranks lexically and says why), so it neither blocks the start
 * nor the signal handlers that stop the process.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { readRegularBytes } from "../utils/regular_file.ts";
import {
  adoptEnglishRankingData,
  MAX_RANKING_DATA_BYTES,
  rankingDataFile,
} from "../ranking/english_data.ts";
import { denoRankerOptions } from "../ranking/deno_ranker.ts";
import { createLexicalRanker } from "../ranking/lexical_ranker.ts";
import type { RankerFactory } from "../ranking/ranker.ts";

/**
 * Loads the Deno default ranker: the ranking data read without blocking, then the ranker over it.
 * What `backgroundRanker` is given as its `load` by the Deno processes.
 *
 * @param file The English ranking data's file (another place in tests).
 * @returns The ranker.
 * @throws {Error} When the file is not a regular file, is too large or cannot be read; or
 * {@linkcode SyntaxError} when its bytes are not the layout.
 *
 * @example Usage
 * ```ts
 * import { loadDenoRanker } from "./ranking_file.ts";
 * import { rejects } from "node:assert/strict";
 *
 * await rejects(loadDenoRanker(new URL("file:///")), /it is a folder/);
 * ```
 */
export async function loadDenoRanker(file: URL = rankingDataFile()): Promise<RankerFactory> {
  const read = await readRegularBytes(fileURLToPath(file), MAX_RANKING_DATA_BYTES);
  if (!read.ok) throw new Error(`Cannot read the ranking data at ${file.href}: ${read.reason}`);
  adoptEnglishRankingData(read.bytes);
  return createLexicalRanker(denoRankerOptions());
}
