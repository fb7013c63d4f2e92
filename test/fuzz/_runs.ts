/**
 * How many cases each fuzz property runs: a few thousand in `deno task test`, more with
 * `UNFOLD_FUZZ_RUNS` (e.g. `UNFOLD_FUZZ_RUNS=100000 deno test -A test/fuzz/`).
 *
 * @module
 */

/** Cases per property. */
export const RUNS = Number(Deno.env.get("UNFOLD_FUZZ_RUNS") ?? "") || 2_000;

/** Options for `fc.assert`: the run count, and a seed from `UNFOLD_FUZZ_SEED` to replay a failure. */
export function runs(scale = 1): { numRuns: number; seed?: number } {
  const seed = Deno.env.get("UNFOLD_FUZZ_SEED");
  const numRuns = Math.max(1, Math.round(RUNS * scale));
  return seed === undefined ? { numRuns } : { numRuns, seed: Number(seed) };
}
