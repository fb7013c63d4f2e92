/**
 * What search learned from the user's runs, kept on disk under the cache directory
 * (`UNFOLD_CACHE_DIR`, see `unfoldCacheDir`): one file per face, profile and tenant,
 * `DIR/learned/<face>/<profile hash>/<tenant hash>.json`, so that scopes never share a file and a
 * name from outside never becomes a path. Bounded (a prior is at most `MAX_LEARNED_BYTES`; a file
 * that is larger, not a regular file or not a prior is ignored, with one line), written as a
 * transaction (`utils/file_transaction.ts`: under the file's lock in `DIR/locks/`, re-read, what
 * another process wrote since taken in, renamed over the old file only if unchanged meanwhile,
 * mode 0600). `unfold forget` ({@linkcode forgetLearned}) marks the store cleared, then removes
 * each file under its lock, so a running gateway drops what it had read instead of writing it
 * back: a write whose prior was read before the last clear writes nothing.
 *
 * Doors that write a prior: the store's `write` and {@linkcode forgetLearned}, both here.
 *
 * @module
 */

import { readRegularFile } from "../utils/regular_file.ts";
import { editFile, editTarget, withFileLock } from "../utils/file_transaction.ts";
import { sha256Hex } from "../canonical_json.ts";
import { LearnedRuns, MAX_LEARNED_BYTES } from "../ranking/learned.ts";
import type { LearnedScope, LearnedStore } from "../session/learned.ts";

/** The folder of the learned priors inside the cache directory. */
export const LEARNED_FOLDER = "learned";

// Written by `unfold forget`: its content changes at each clear.
const CLEARED = "cleared";

// The folder of the writers' locks, outside `learned/` so that a clear never removes a lock held.
const LOCKS = "locks";

// The most files whose read the store remembers (to drop a write of runs read before a clear).
const MAX_TRACKED_READS = 4096;

// The clear's token as it is now (`""`: never cleared).
async function clearToken(dir: string): Promise<string> {
  const read = await readRegularFile(`${dir}/${LEARNED_FOLDER}/${CLEARED}`, 256);
  return read.ok ? read.text : "";
}

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
  // The clear each file's prior was read after: a write of runs read before a later clear is
  // dropped (the gateway reads afresh at its next search).
  const readAfter = new Map<string, string>();
  const parse = (path: string, text: string): LearnedRuns | undefined => {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
    const runs = LearnedRuns.parse(data);
    if (runs === undefined) warn(`ignoring what search learned (${path}): it is not a prior`);
    return runs;
  };
  return {
    async read(scope) {
      const path = await file(scope);
      readAfter.delete(path);
      readAfter.set(path, await clearToken(dir));
      // Bounded (tenants come from outside): the oldest reads go first.
      while (readAfter.size > MAX_TRACKED_READS) readAfter.delete(readAfter.keys().next().value!);
      const read = await readRegularFile(path, MAX_LEARNED_BYTES + 4096);
      if (!read.ok) {
        if (read.code !== "not_found") {
          warn(`ignoring what search learned (${path}): ${read.reason}`);
        }
        return undefined;
      }
      return parse(path, read.text);
    },
    async write(scope, runs) {
      const path = await file(scope);
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true, mode: 0o700 });
      const seen = readAfter.get(path);
      const edited = await editFile(path, async (bytes) => {
        // Under the lock: a clear since this prior was read removed it (or is removing it).
        if (seen !== undefined && seen !== await clearToken(dir)) return { ok: true, value: bytes };
        // Another process of the same scope may have written since: its runs are kept too.
        if (bytes !== undefined && bytes.length <= MAX_LEARNED_BYTES + 4096) {
          const stored = parse(path, new TextDecoder().decode(bytes));
          if (stored !== undefined) runs.merge(stored);
        } else if (bytes !== undefined) {
          warn(`ignoring what search learned (${path}): it is larger than a prior`);
        }
        return { ok: true, value: new TextEncoder().encode(JSON.stringify(runs)) };
      }, { lockDir: `${dir}/${LOCKS}` });
      if (!edited.ok) throw new Error(edited.error);
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
  // The clear first: a write that takes a file's lock from now on sees it and writes nothing.
  await Deno.mkdir(root, { recursive: true, mode: 0o700 });
  const temp = `${root}/${CLEARED}.${crypto.randomUUID()}.tmp`;
  await Deno.writeTextFile(temp, crypto.randomUUID(), { mode: 0o600 });
  await Deno.rename(temp, `${root}/${CLEARED}`);
  // Then each prior under its lock, so a write in flight ends first (and is removed with it).
  const files = await priorFiles(folder);
  for (const file of files) {
    await withFileLock(`${dir}/${LOCKS}`, editTarget(file), async () => {
      await Deno.remove(file).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    });
  }
  // What is left (a folder, a temporary file of a write that crashed), the clear's mark kept.
  const left = profile === undefined
    ? [...Deno.readDirSync(root)].filter((e) => e.name !== CLEARED).map((e) => `${root}/${e.name}`)
    : [folder];
  for (const path of left) {
    await Deno.remove(path, { recursive: true }).catch((error) => {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    });
  }
  return files.length;
}

// The prior files under a folder (none when it does not exist); not following links.
async function priorFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  try {
    for await (const entry of Deno.readDir(folder)) {
      if (entry.isFile && entry.name.endsWith(".json")) found.push(`${folder}/${entry.name}`);
      else if (entry.isDirectory) found.push(...await priorFiles(`${folder}/${entry.name}`));
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found;
}
