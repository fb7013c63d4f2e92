/**
 * What search learned from the user's runs, kept on disk under the cache directory
 * (`UNFOLD_CACHE_DIR`, see `unfoldCacheDir`): one file per face, profile and tenant,
 * `DIR/learned/<face>/<profile hash>/<tenant hash>.json`, so that scopes never share a file and a
 * name from outside never becomes a path. Bounded (a prior is at most `MAX_LEARNED_BYTES`; a file
 * that is larger, not a regular file or not a prior is ignored, with one line), written
 * atomically (a temporary file renamed over the old one, mode 0600) after taking in what another
 * process wrote since. `unfold forget` ({@linkcode forgetLearned}) removes the files and marks the
 * store cleared, so a running gateway drops what it had read instead of writing it back.
 *
 * @module
 */

import { readRegularFile } from "../utils/regular_file.ts";
import { sha256Hex } from "../canonical_json.ts";
import { LearnedRuns, MAX_LEARNED_BYTES } from "../ranking/learned.ts";
import type { LearnedScope, LearnedStore } from "../session/learned.ts";

/** The folder of the learned priors inside the cache directory. */
export const LEARNED_FOLDER = "learned";

// Written by `unfold forget`: its content changes at each clear.
const CLEARED = "cleared";

/**
 * The folder of one face's and profile's priors (every tenant's).
 *
 * @param dir The cache directory.
 * @param face The face.
 * @param profile The profile (`""` for none).
 * @returns The folder.
 *
 * @example Usage
 * ```ts
 * import { learnedFolder } from "./learned_store.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok((await learnedFolder("/c", "gateway", "work")).startsWith("/c/learned/gateway/p-"));
 * ```
 */
export async function learnedFolder(
  dir: string,
  face: LearnedScope["face"],
  profile: string,
): Promise<string> {
  return `${dir}/${LEARNED_FOLDER}/${face}/p-${(await sha256Hex(profile)).slice(0, 16)}`;
}

/**
 * Learned priors as files under `DIR/learned/`.
 *
 * @param dir The cache directory.
 * @param warn Receives one line per ignored or unwritable file.
 * @param options How often the store looks for a clear (`unfold forget`), and the clock.
 * @returns The store.
 *
 * @example Usage
 * ```ts
 * import { fileLearnedStore } from "./learned_store.ts";
 * import { LearnedRuns } from "../ranking/learned.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = fileLearnedStore(await Deno.makeTempDir(), () => {});
 * const scope = { face: "gateway" as const, profile: "", tenant: "" };
 * const runs = new LearnedRuns();
 * runs.record(["release", "notes"], "repo/publish");
 * await store.write(scope, runs);
 * equal((await store.read(scope))?.lift(["notes"]).get("repo/publish"), 0.5);
 * ```
 */
export function fileLearnedStore(
  dir: string,
  warn: (line: string) => void,
  options: { checkEveryMs?: number; now?: () => number } = {},
): LearnedStore {
  const every = options.checkEveryMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  // The clear's token, read at most once per `every` ms: every search asks for it.
  let checked: { at: number; token: Promise<string> } | undefined;
  const file = async (scope: LearnedScope) =>
    `${await learnedFolder(dir, scope.face, scope.profile)}/t-${
      (await sha256Hex(scope.tenant)).slice(0, 16)
    }.json`;
  const readAt = async (path: string): Promise<LearnedRuns | undefined> => {
    const read = await readRegularFile(path, MAX_LEARNED_BYTES + 4096);
    if (!read.ok) {
      if (read.code !== "not_found") warn(`ignoring what search learned (${path}): ${read.reason}`);
      return undefined;
    }
    let data: unknown;
    try {
      data = JSON.parse(read.text);
    } catch {
      data = undefined;
    }
    const runs = LearnedRuns.parse(data);
    if (runs === undefined) warn(`ignoring what search learned (${path}): it is not a prior`);
    return runs;
  };
  return {
    async read(scope) {
      return await readAt(await file(scope));
    },
    async write(scope, runs) {
      const path = await file(scope);
      // Another process of the same scope may have written since: its runs are kept too.
      const stored = await readAt(path);
      if (stored !== undefined) runs.merge(stored);
      const folder = path.slice(0, path.lastIndexOf("/"));
      const temp = `${path}.${crypto.randomUUID()}.tmp`;
      try {
        await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
        await Deno.writeTextFile(temp, JSON.stringify(runs), { mode: 0o600 });
        await Deno.rename(temp, path);
      } catch (error) {
        await Deno.remove(temp).catch(() => {});
        throw error;
      }
    },
    generation() {
      const at = now();
      if (checked === undefined || at - checked.at >= every) {
        checked = {
          at,
          token: readRegularFile(`${dir}/${LEARNED_FOLDER}/${CLEARED}`, 256)
            .then((read) => read.ok ? read.text : ""),
        };
      }
      return checked.token;
    },
  };
}

/**
 * Forgets what search learned: every prior, or one profile's on the gateway. A running gateway
 * or server notices at its next search and starts afresh.
 *
 * @param dir The cache directory.
 * @param profile Only this profile's (the gateway's), or every prior.
 * @returns How many files were removed.
 *
 * @example Usage
 * ```ts
 * import { fileLearnedStore, forgetLearned } from "./learned_store.ts";
 * import { LearnedRuns } from "../ranking/learned.ts";
 * import { equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const store = fileLearnedStore(dir, () => {});
 * const scope = { face: "gateway" as const, profile: "work", tenant: "" };
 * await store.write(scope, new LearnedRuns());
 * equal(await forgetLearned(dir, "work"), 1);
 * equal(await store.read(scope), undefined);
 * ```
 */
export async function forgetLearned(dir: string, profile?: string): Promise<number> {
  const root = `${dir}/${LEARNED_FOLDER}`;
  const folder = profile === undefined ? root : await learnedFolder(dir, "gateway", profile);
  const removed = await countFiles(folder);
  await Deno.remove(folder, { recursive: true }).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const temp = `${root}/${CLEARED}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, crypto.randomUUID(), { mode: 0o600 });
  await Deno.rename(temp, `${root}/${CLEARED}`);
  return removed;
}

// The prior files under a folder (none when it does not exist); not following links.
async function countFiles(folder: string): Promise<number> {
  let count = 0;
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile && entry.name.endsWith(".json")) count++;
      else if (entry.isDirectory) count += await countFiles(`${folder}/${entry.name}`);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return count;
}
