/**
 * The flags `unfold` runs with, wherever it is started from: `deno task unfold`, the installed
 * command (`deno task install`) and the entry `unfold setup` writes without it. Lazy npm caching
 * fetches only the packages the gateway imports, not every package of deno.json.
 *
 * @module
 */

/** `deno run` flags of the CLI. */
export const RUN_FLAGS: readonly string[] = [
  "-A",
  "--quiet",
  "--node-modules-dir=auto",
  "--unstable-npm-lazy-caching",
];
