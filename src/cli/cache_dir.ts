/**
 * Where unfold keeps what it caches on this machine (the upstreams' snapshots, what search
 * learned): one place, read by the gateway, `unfold forget` and `deno task start`, in a module of
 * its own so that a server that only needs the place does not load the snapshots' MCP code.
 *
 * @module
 */

/**
 * Where unfold caches (snapshots, what search learned): `UNFOLD_CACHE_DIR`, else
 * `$XDG_CACHE_HOME/unfold`, else `~/.cache/unfold`; `undefined` when none of them is set (then
 * nothing is kept).
 *
 * @param env The environment.
 * @returns The cache directory.
 *
 * @example Usage
 * ```ts
 * import { unfoldCacheDir } from "./cache_dir.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(unfoldCacheDir({ UNFOLD_CACHE_DIR: "/c" }), "/c");
 * equal(unfoldCacheDir({ XDG_CACHE_HOME: "/x" }), "/x/unfold");
 * equal(unfoldCacheDir({ HOME: "/home/a" }), "/home/a/.cache/unfold");
 * ```
 */
export function unfoldCacheDir(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (env.UNFOLD_CACHE_DIR) return env.UNFOLD_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME}/unfold`;
  if (env.HOME) return `${env.HOME}/.cache/unfold`;
  return undefined;
}
