/**
 * The version of unfold (kept equal to `deno.json`'s by a test).
 *
 * @module
 */

/** The version of unfold. */
export const VERSION = "0.1.0";
