/**
 * The flags `unfold` runs with, wherever it is started from: `deno task unfold`, the installed
 * command (`deno task install`) and the entry `unfold setup` writes without it. Lazy npm caching
 * fetches only the packages the gateway imports, not every package of deno.json. V8's young
 * generation is capped at 2 MiB a half: the gateway's live objects are few and short-lived, and
 * the default (up to 16 MiB, grown while the modules load) held ~9 MiB more RSS. 1 MiB saves no
 * more and slows the start by more scavenges (`bench/gateway_rss.ts`, `bench/gateway_start.ts`).
 *
 * @module
 */

/** `deno run` flags of the CLI. */
export const RUN_FLAGS: readonly string[] = [
  "-A",
  "--quiet",
  "--node-modules-dir=auto",
  "--unstable-npm-lazy-caching",
  "--v8-flags=--max-semi-space-size=2",
];

/**
 * The environment `unfold` runs with, wherever it is started from: Deno's update check off (it
 * reached the network at every start of the gateway, for nothing the gateway needs).
 */
export const RUN_ENV: Readonly<Record<string, string>> = Object.freeze({
  DENO_NO_UPDATE_CHECK: "1",
});
