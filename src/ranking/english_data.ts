/**
 * Where the English ranking data (`ranking_data.ts`'s layout, written by `deno task vectors` and
 * `deno task lexicon`) comes from: one file, `src/page/ranking-en.bin`, beside the page so that the
 * Workers serve it as a static asset (their `ASSETS` binding) and never carry it in their script.
 * A Deno process reads the file once, synchronously, on the first call of
 * {@linkcode englishRankingData}; a Worker fetches the asset with {@linkcode loadRankingData}
 * once per isolate and keeps it (`deno_ranker.ts`).
 *
 * @module
 */

import { rankingDataOf, type RankingViews } from "./ranking_data.ts";

/** The path of the ranking data among the page's files (and the Workers' static assets). */
export const RANKING_DATA_ASSET = "/ranking-en.bin";

let english: RankingViews | undefined;

/**
 * The English ranking data, read from its file on the first call (Deno; needs read access to
 * `src/page`).
 *
 * @returns The data, opened in place.
 * @throws {Error} When the file cannot be read (outside Deno, or without the permission), or
 * {@linkcode SyntaxError} when it is not the layout.
 *
 * @example Usage
 * ```ts
 * import { englishRankingData } from "./english_data.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(englishRankingData().vectors.words.find("picture") >= 0);
 * ```
 */
export function englishRankingData(): RankingViews {
  if (english !== undefined) return english;
  const url = new URL(`../page${RANKING_DATA_ASSET}`, import.meta.url);
  const deno = (globalThis as { Deno?: { readFileSync(path: URL): Uint8Array } }).Deno;
  if (deno === undefined || url.protocol !== "file:") {
    throw new Error(
      `Cannot read the ranking data at ${url.href} here: await loadRankingData() with a fetch first`,
    );
  }
  return english = rankingDataOf(deno.readFileSync(url));
}

/**
 * Loads the English ranking data with a fetch (a Worker's `env.ASSETS.fetch`): each call fetches,
 * so the caller keeps what it loaded (a Worker, for the life of its isolate).
 *
 * @param fetcher Fetches a URL (the asset's path is resolved against `http://assets.local`).
 * @returns The data, opened in place.
 * @throws {Error} When the fetch fails or answers other than 200, or {@linkcode SyntaxError} when
 * the bytes are not the layout.
 *
 * @example Usage
 * ```ts
 * import { loadRankingData } from "./english_data.ts";
 * import { ok, rejects } from "node:assert/strict";
 *
 * const bytes = Deno.readFileSync(new URL("../page/ranking-en.bin", import.meta.url));
 * const data = await loadRankingData(() => Promise.resolve(new Response(bytes)));
 * ok(data.lexicon.words.find("picture") >= 0);
 * await rejects(loadRankingData(() => Promise.resolve(new Response("", { status: 404 }))));
 * ```
 */
export async function loadRankingData(
  fetcher: (request: Request) => Promise<Response>,
): Promise<RankingViews> {
  const response = await fetcher(new Request(`http://assets.local${RANKING_DATA_ASSET}`));
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new Error(
      `Cannot load the ranking data: ${RANKING_DATA_ASSET} answered ${response.status}`,
    );
  }
  const bytes = new Uint8Array(await response.arrayBuffer());
  return rankingDataOf(bytes);
}
