/**
 * The gzipped size of text or bytes, as Workers and JSR count a bundle or table: what the size
 * budgets of tests, benchmarks and build scripts measure.
 *
 * @module
 */

/**
 * Gzips data and counts the bytes.
 *
 * @param data Text (UTF-8) or bytes.
 * @returns The gzipped size in bytes.
 *
 * @example Usage
 * ```ts
 * import { gzipSize } from "./_gzip.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok((await gzipSize("a".repeat(10_000))) < 100);
 * ```
 */
export async function gzipSize(data: string | Uint8Array<ArrayBuffer>): Promise<number> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream("gzip"));
  return (await new Response(stream).arrayBuffer()).byteLength;
}
