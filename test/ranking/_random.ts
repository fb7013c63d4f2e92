/**
 * A small deterministic generator (mulberry32): the ranking tests' random words and vectors are
 * the same on every run.
 *
 * @module
 */

/**
 * Numbers in [0, 1) from a seed, the same sequence for the same seed.
 *
 * @param seed Any integer.
 * @returns The next number on each call.
 */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
