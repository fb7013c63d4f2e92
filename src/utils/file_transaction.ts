/**
 * Editing a file someone else owns as a transaction (Deno): one lock per file for unfold's own
 * writers, the file read with a bound, the new bytes written to a temporary file in the same
 * folder with the file's mode (and owner), and renamed over it only if the file still holds the
 * bytes the edit was made from — checked and renamed with nothing of this process in between —
 * else the caller starts again from what is there now, so a concurrent writer (another setup, the
 * host itself) loses nothing. A symlink is followed: its target is edited, the link kept. A file
 * or folder that cannot be written is found before anything is written.
 *
 * Doors (every writer of a file a user owns or that holds what they decided goes through here):
 * `unfold setup` and `--undo` (the host files, unfold's own config, the records and backups under
 * `<config dir>/setup/`), `unfold approve` (the trust lock file, `src/cli/approve.ts`), the OAuth
 * sign-in records (`src/mcp/oauth/file_store.ts`) and what search learned
 * (`src/cli/learned_store.ts`); {@linkcode editFile} is the whole transaction for a writer that
 * can say its change as a function of the bytes there now.
 *
 * @module
 */

import { accessSync, constants } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createHash } from "node:crypto";
import { readRegularBytes } from "./regular_file.ts";
import type { Result } from "../result.ts";

/** A result: the value, or why not in one line. */
export type Outcome<T> = Result<T, string>;

/** The most bytes of a file read for an edit (Claude Code's `~/.claude.json` grows with use). */
export const MAX_EDITED_BYTES = 32 * 1024 * 1024;

/** A file as read for an edit. */
export interface FileState {
  /** The path as given (a symlink stays one). */
  path: string;
  /** The file edited: the path with its symlinks followed. */
  target: string;
  /** Its bytes, `undefined` when there is no file. */
  bytes: Uint8Array | undefined;
  /** Its permission bits, owner and group, when it exists. */
  mode?: number;
  uid?: number | null;
  gid?: number | null;
}

/** What a test may do between an edit's write and its rename (a concurrent writer's turn). */
export interface CommitHooks {
  /** Called with the target after the temporary file is written, before the check. */
  beforeRename?(target: string): void | Promise<void>;
}

/**
 * The path a file is edited at: its symlinks followed (a dangling link gives the file it names).
 *
 * @param path The path.
 * @returns The target.
 */
export function editTarget(path: string): string {
  let current = resolve(path);
  for (let hops = 0; hops < 40; hops++) {
    let info: Deno.FileInfo;
    try {
      info = Deno.lstatSync(current);
    } catch {
      return current;
    }
    if (!info.isSymlink) return current;
    current = resolve(dirname(current), Deno.readLinkSync(current));
  }
  return current;
}

/**
 * Reads a file for an edit.
 *
 * @param path The path.
 * @returns What it holds now, or why it cannot be read (in one line, naming the file).
 */
export async function readForEdit(path: string): Promise<Outcome<FileState>> {
  const target = editTarget(path);
  const read = await readRegularBytes(target, MAX_EDITED_BYTES);
  if (!read.ok && read.code !== "not_found") {
    return { ok: false, error: `cannot read ${path}: ${read.reason}` };
  }
  const state: FileState = { path, target, bytes: read.ok ? read.bytes : undefined };
  if (read.ok) {
    const info = await Deno.stat(target).catch(() => undefined);
    if (info !== undefined) {
      state.mode = (info.mode ?? 0o600) & 0o7777;
      state.uid = info.uid;
      state.gid = info.gid;
    }
  }
  return { ok: true, value: state };
}

/**
 * Whether a file (and the folder it would be written in) can be written, judged before anything
 * is: a file or folder without write permission for anyone (`0444`, `0555`) is refused even where
 * the system would let this user write it, since whoever made it so meant it.
 *
 * @param path The file (as given).
 * @param leaveOut How the user may leave the file out instead (setup's flags by default; `""`:
 * no such way, the line only says to make it writable).
 * @returns Nothing, or why not in one line.
 */
export function checkWritable(path: string, leaveOut = "(--scope, --file)"): Outcome<void> {
  const target = editTarget(path);
  let info: Deno.FileInfo | undefined;
  try {
    info = Deno.statSync(target);
  } catch {
    info = undefined;
  }
  if (info !== undefined) {
    if (!info.isFile) return { ok: false, error: `${path} is not a regular file` };
    const mode = (info.mode ?? 0o600) & 0o777;
    if ((mode & 0o222) === 0 || !canWrite(target)) {
      return {
        ok: false,
        error: `${path} is read-only (mode ${octal(mode)}): nothing was written; make it ` +
          `writable (chmod u+w ${target})${leaveOut === "" ? "" : ` or leave it out ${leaveOut}`}`,
      };
    }
  }
  // The folder the temporary file goes in, or the nearest one there to make it in.
  let dir = dirname(target);
  for (;;) {
    let found: Deno.FileInfo | undefined;
    try {
      found = Deno.statSync(dir);
    } catch {
      found = undefined;
    }
    if (found !== undefined) {
      if (!found.isDirectory) return { ok: false, error: `${dir} is not a folder` };
      const mode = (found.mode ?? 0o700) & 0o777;
      if ((mode & 0o222) === 0 || !canWrite(dir)) {
        return {
          ok: false,
          error: `${dir} is read-only (mode ${octal(mode)}): nothing was written; make it ` +
            `writable${leaveOut === "" ? "" : ` or leave ${path} out ${leaveOut}`}`,
        };
      }
      return { ok: true, value: undefined };
    }
    if (dirname(dir) === dir) return { ok: true, value: undefined };
    dir = dirname(dir);
  }
}

/**
 * Writes a file's new bytes (or, with `undefined`, removes it) if it still holds what it held
 * when read: the new bytes go to a temporary file beside it first (mode, owner and group kept; a
 * new file is `0600`), and the check and the rename run with no `await` between them.
 *
 * @param state The file as read.
 * @param next Its new bytes, or `undefined` to remove it.
 * @param hooks For tests: a writer's turn before the check.
 * @returns `"done"`, or `"changed"` when the file changed meanwhile (nothing was written).
 * @throws {Error} When the system refuses the write (a full disk): the file is as it was.
 */
export async function commitEdit(
  state: FileState,
  next: Uint8Array | undefined,
  hooks: CommitHooks = {},
): Promise<"done" | "changed"> {
  const { target } = state;
  if (next === undefined) {
    await hooks.beforeRename?.(target);
    if (!unchanged(target, state.bytes)) return "changed";
    if (state.bytes !== undefined) Deno.removeSync(target);
    return "done";
  }
  await Deno.mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.unfold-${crypto.randomUUID()}.tmp`);
  const mode = state.mode ?? 0o600;
  try {
    const file = await Deno.open(temp, { write: true, createNew: true, mode });
    try {
      for (let at = 0; at < next.length;) at += await file.write(next.subarray(at));
      await file.syncData();
    } finally {
      file.close();
    }
    await Deno.chmod(temp, mode).catch(() => {}); // the umask took bits; no modes on Windows
    if (state.uid != null && state.gid != null) {
      await Deno.chown(temp, state.uid, state.gid).catch(() => {}); // only root may give away
    }
    await hooks.beforeRename?.(target);
    // From here to the rename nothing else of this process runs: the check holds for it.
    if (!unchanged(target, state.bytes)) {
      Deno.removeSync(temp);
      return "changed";
    }
    Deno.renameSync(temp, target);
    return "done";
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Runs a function holding the lock of one file (an exclusive `flock` on a lock file of unfold's,
 * released when the process ends, however it ends).
 *
 * @param lockDir The folder of the lock files (`<config dir>/setup/locks`).
 * @param target The file locked (its edit target).
 * @param fn What to run.
 * @returns What it returns.
 */
export async function withFileLock<T>(
  lockDir: string,
  target: string,
  fn: () => Promise<T>,
): Promise<T> {
  await Deno.mkdir(lockDir, { recursive: true, mode: 0o700 });
  const path = join(
    lockDir,
    `${createHash("sha256").update(target).digest("hex").slice(0, 24)}.lock`,
  );
  const lock = await Deno.open(path, { create: true, write: true, mode: 0o600 });
  try {
    await lock.lock(true);
    return await fn();
  } finally {
    await lock.unlock().catch(() => {});
    lock.close();
  }
}

/** How {@linkcode editFile} runs. */
export interface EditOptions {
  /** The folder of the lock files; every writer of the file must name the same one. */
  lockDir: string;
  /** How the user may leave the file out instead (see {@linkcode checkWritable}); `""`: none. */
  leaveOut?: string;
  /** For tests: a writer's turn before each check. */
  hooks?: CommitHooks;
  /**
   * The mode written, whatever the file's (a secret's `0600`); by default the file's own. A writer
   * that sets the mode owns the file: its own write bits are then no refusal (its folder's are).
   */
  mode?: number;
}

/** How many times an edit is made again from what the file holds now before it gives up. */
export const MAX_EDIT_TRIES = 16;

/**
 * Edits a file as a transaction: refused before anything is written when it (or its folder) is
 * read-only; then, holding its lock, read, changed by `change` (which gets what the file holds
 * now, so a concurrent writer's bytes are taken in), and written with {@linkcode commitEdit} —
 * made again from the file as it is then when it changed meanwhile. A symlink stays one, the
 * mode and owner stay; a change that gives the same bytes writes nothing.
 *
 * @param path The file.
 * @param change The new bytes from the bytes there now (`undefined`: no file), or why not; it
 * runs holding the lock (the same bytes back: nothing is written).
 * @param options The lock folder (and for tests, the hooks).
 * @returns The bytes the file holds afterwards, or the one-line reason nothing was written.
 * @throws {Error} When the system refuses the write (a full disk): the file is as it was.
 *
 * @example Usage
 * ```ts
 * import { editFile } from "./file_transaction.ts";
 * import { equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const add = (line: string) => (bytes: Uint8Array | undefined) => ({
 *   ok: true as const,
 *   value: new TextEncoder().encode(new TextDecoder().decode(bytes ?? new Uint8Array()) + line),
 * });
 * await Promise.all([
 *   editFile(`${dir}/list`, add("a\n"), { lockDir: `${dir}/locks` }),
 *   editFile(`${dir}/list`, add("b\n"), { lockDir: `${dir}/locks` }),
 * ]);
 * equal((await Deno.readTextFile(`${dir}/list`)).split("\n").length, 3);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function editFile(
  path: string,
  change: (
    bytes: Uint8Array | undefined,
  ) => Outcome<Uint8Array | undefined> | Promise<Outcome<Uint8Array | undefined>>,
  options: EditOptions,
): Promise<Outcome<Uint8Array | undefined>> {
  const leaveOut = options.leaveOut ?? "";
  const own = options.mode === undefined ? path : join(dirname(editTarget(path)), ".unfold-new");
  for (const file of [own, join(options.lockDir, "x.lock")]) {
    const writable = checkWritable(file, leaveOut);
    if (!writable.ok) return writable;
  }
  return await withFileLock(options.lockDir, editTarget(path), async () => {
    for (let tries = 0; tries < MAX_EDIT_TRIES; tries++) {
      const read = await readForEdit(path);
      if (!read.ok) return read;
      const next = await change(read.value.bytes);
      if (!next.ok || sameBytes(next.value, read.value.bytes)) return next;
      const state = options.mode === undefined ? read.value : { ...read.value, mode: options.mode };
      if (await commitEdit(state, next.value, options.hooks) === "done") return next;
    }
    return {
      ok: false,
      error: `${path} kept changing while it was written (${MAX_EDIT_TRIES} tries)`,
    };
  });
}

/**
 * Writes a file of unfold's own (a record, a backup) whole or not at all, readable by the user
 * alone, in a folder only the user can list.
 *
 * @param path The file.
 * @param data Its text.
 */
export async function writePrivate(path: string, data: string): Promise<void> {
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.unfold-${crypto.randomUUID()}.tmp`;
  try {
    await Deno.writeTextFile(temp, data, { mode: 0o600, createNew: true });
    await Deno.chmod(temp, 0o600).catch(() => {});
    await Deno.rename(temp, path);
  } catch (error) {
    await Deno.remove(temp).catch(() => {});
    throw error;
  }
}

/**
 * Whether two files' bytes are the same (`undefined`: no file).
 *
 * @param a Some bytes.
 * @param b Others.
 * @returns Whether they are equal.
 */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// Whether the file still holds those bytes, read at once (no await: see commitEdit); a file that
// is no longer a regular file has changed.
function unchanged(target: string, bytes: Uint8Array | undefined): boolean {
  try {
    const info = Deno.statSync(target);
    if (!info.isFile || info.size > MAX_EDITED_BYTES) return false;
    return sameBytes(Deno.readFileSync(target), bytes);
  } catch (error) {
    return error instanceof Deno.errors.NotFound && bytes === undefined;
  }
}

function canWrite(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function octal(mode: number): string {
  return `0${mode.toString(8).padStart(3, "0")}`;
}
