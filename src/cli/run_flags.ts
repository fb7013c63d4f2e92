/**
 * The flags `unfold` runs with, wherever it is started from: `deno task unfold`, the installed
 * command (`deno task install`) and the entry `unfold setup` writes without it. Lazy npm caching
 * fetches only the packages the gateway imports, not every package of deno.json. V8's young
 * generation is capped at 1 MiB a half: the gateway's live objects are few and short-lived, and
 * the default (up to 16 MiB) held ~10 MiB more RSS for no measurable gain in latency
 * (`bench/gateway_rss.ts`, `bench/gateway_latency.ts`).
 *
 * @module
 */

/** `deno run` flags of the CLI. */
export const RUN_FLAGS: readonly string[] = [
  "-A",
  "--quiet",
  "--node-modules-dir=auto",
  "--unstable-npm-lazy-caching",
  "--v8-flags=--max-semi-space-size=1",
];
