/**
 * Where the English ranking data (`ranking_data.ts`'s layout, written by `deno task vectors` and
 * `deno task lexicon`) comes from: one file, `src/page/ranking-en.bin`, beside the page so that the
 * Workers serve it as a static asset (their `ASSETS` binding) and never carry it in their script.
 * A Deno process reads the file once, with the bounded regular-file reader, before its first
 * search (`src/deno/ranking_file.ts`, {@linkcode adoptEnglishRankingData}); a library caller of
 * {@linkcode englishRankingData} reads it synchronously, a regular file only; a Worker fetches the
 * asset with {@linkcode loadRankingData} once per isolate and keeps it (`deno_ranker.ts`).
 *
 * @module
 */

import { rankingDataOf, type RankingViews } from "./ranking_data.ts";

/** The path of the ranking data among the page's files (and the Workers' static assets). */
export const RANKING_DATA_ASSET = "/ranking-en.bin";

/**
 * The ranking data's file, beside this module (a `file:` URL in a Deno checkout). Made when asked:
 * in a Worker's bundle `import.meta.url` is no URL to resolve against.
 *
 * @returns The URL.
 */
export function rankingDataFile(): URL {
  return new URL(`../page${RANKING_DATA_ASSET}`, import.meta.url);
}

/** The largest ranking data file read (it is 1.6 MB): a wrong file must not fill the memory. */
export const MAX_RANKING_DATA_BYTES = 64 * 1024 * 1024;

let english: RankingViews | undefined;

/**
 * Opens ranking data a Deno process read itself (through the bounded regular-file reader, which
 * this module does not import: the Workers bundle it) and keeps it as the English data, so that
 * {@linkcode englishRankingData} then reads no file.
 *
 * @param bytes The file's bytes.
 * @returns The data, opened in place.
 * @throws {SyntaxError} When the bytes are not the layout.
 */
export function adoptEnglishRankingData(bytes: Uint8Array): RankingViews {
  return english ??= rankingDataOf(bytes);
}

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
  const url = rankingDataFile();
  const deno = (globalThis as { Deno?: DenoFiles }).Deno;
  if (deno === undefined || url.protocol !== "file:") {
    throw new Error(
      `Cannot read the ranking data at ${url.href} here: await loadRankingData() with a fetch first`,
    );
  }
  // Only a regular file of a bounded size is read (a named pipe in its place would block the
  // process for good); a Deno process reads it without blocking first (`src/deno/ranking_file.ts`).
  const info = deno.statSync(url);
  if (!info.isFile || info.size > MAX_RANKING_DATA_BYTES) {
    throw new Error(
      `Cannot read the ranking data at ${url.href}: ${
        info.isFile ? `it is over ${MAX_RANKING_DATA_BYTES} bytes` : "it is not a regular file"
      }`,
    );
  }
  return english = rankingDataOf(deno.readFileSync(url));
}

// What englishRankingData uses of Deno, found at run time: Workers bundle this module.
interface DenoFiles {
  statSync(path: URL): { isFile: boolean; size: number };
  readFileSync(path: URL): Uint8Array;
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
