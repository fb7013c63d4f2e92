/**
 * `unfold approve` (Deno): approving tools' current definitions, and writing them to the lock
 * file as a transaction (`utils/file_transaction.ts`: locked, re-read, this run's approvals — and
 * only they — applied to what the file holds then, renamed over it only if unchanged since, its
 * mode and symlink kept, a read-only file refused in one line), so two `approve` at once each keep
 * the other's approvals.
 *
 * Doors that write the lock file: {@linkcode approveCommand} alone, through {@linkcode editLock}.
 *
 * @module
 */

// deno-lint-ignore-file no-console

import { type CommitHooks, editFile } from "../utils/file_transaction.ts";
import type { Result } from "../result.ts";
import type { McpTool } from "../tool.ts";
import { toolId } from "../tool.ts";
import { closest } from "../gateway/config/profiles.ts";
import {
  fieldChanges,
  type Lock,
  lockEntry,
  parseLock,
  review,
  serializeLock,
} from "../gateway/trust/lock.ts";
import { type LockedTrust, MAX_LOCK_BYTES } from "./trust.ts";

/**
 * Approves tools: their current definitions replace (or join) the lock's entries; the other
 * entries stay, so a server that is down keeps its approvals.
 *
 * @param lock The lock as it is (none yet: `undefined`).
 * @param tools Every listed tool.
 * @param ids The ids to approve, or `"all"`.
 * @returns The new lock and the ids approved, or the ids that name no listed tool.
 *
 * @example Usage
 * ```ts
 * import { approveTools } from "./approve.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const tools = [{ server: "s", name: "t", description: "Does T", inputSchema: { type: "object" } }];
 * const done = approveTools(undefined, tools, "all");
 * deepEqual(done.ok && done.approved, ["s/t"]);
 * const bad = approveTools(undefined, tools, ["s/x"]);
 * equal(bad.ok, false);
 * ```
 */
export function approveTools(
  lock: Lock | undefined,
  tools: readonly McpTool[],
  ids: readonly string[] | "all",
): { ok: true; lock: Lock; approved: string[] } | { ok: false; error: string } {
  const byId = new Map(tools.map((tool) => [toolId(tool), tool]));
  const wanted = ids === "all" ? [...byId.keys()] : [...new Set(ids)];
  const missing = wanted.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const first = missing[0]!;
    return {
      ok: false,
      error: `Cannot approve ${JSON.stringify(first)}: no upstream lists it now${
        closest(first, [...byId.keys()])
      }`,
    };
  }
  // Entries of a version 1 lock that are not approved again stay as they were (hashes only).
  const next: Lock = { version: 2, tools: { ...(lock?.tools ?? {}) } };
  for (const id of wanted) next.tools[id] = lockEntry(byId.get(id)!);
  return { ok: true, lock: next, approved: wanted };
}

/**
 * Edits the lock as a transaction: holding its lock, the file is read again and `change` applied
 * to what it holds now (so an approval another `unfold approve` wrote meanwhile stays), then
 * written to a temporary file beside its target and renamed over it only if it still holds what
 * was read; a symlink stays one, its mode stays (a new lock is `0600`), a read-only lock is
 * refused before anything is written. A gateway reading it meanwhile sees the old file or the
 * new one, never half of one.
 *
 * @param path The lock file's path.
 * @param change The new lock from the lock there now (`undefined`: none yet).
 * @param lockDir The folder of the lock files of unfold's writers (see {@linkcode LockedTrust}).
 * @param hooks For tests: another writer's turn before each rename.
 * @returns The lock written, or the one-line reason nothing was written.
 *
 * @example Usage
 * ```ts
 * import { editLock } from "./approve.ts";
 * import { readLock } from "./trust.ts";
 * import { equal } from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const empty = { ok: true as const, lock: { version: 2 as const, tools: {} } };
 * await editLock(`${dir}/unfold.lock.json`, () => empty, `${dir}/locks`);
 * const read = await readLock(`${dir}/unfold.lock.json`);
 * equal(read.ok && read.value?.version, 2);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export async function editLock(
  path: string,
  change: (lock: Lock | undefined) => { ok: true; lock: Lock } | { ok: false; error: string },
  lockDir: string,
  hooks?: CommitHooks,
): Promise<Result<Lock, string>> {
  let written: Lock | undefined;
  const edited = await editFile(path, (bytes) => {
    let lock: Lock | undefined;
    if (bytes !== undefined && bytes.length > MAX_LOCK_BYTES) {
      return { ok: false, error: `the lock file ${path} is over ${MAX_LOCK_BYTES} bytes` };
    }
    if (bytes !== undefined) {
      const parsed = parseLock(new TextDecoder().decode(bytes));
      if (!parsed.ok) {
        return {
          ok: false,
          error: `the lock file ${path} is ${parsed.error}: fix it, or delete it and approve again`,
        };
      }
      lock = parsed.value;
    }
    const next = change(lock);
    if (!next.ok) return next;
    written = next.lock;
    return { ok: true, value: new TextEncoder().encode(serializeLock(next.lock)) };
  }, { lockDir, ...(hooks === undefined ? {} : { hooks }) });
  return edited.ok ? { ok: true, value: written! } : edited;
}

/**
 * `unfold approve`: writes the current definitions of the tools named (or all) to the lock file
 * as a transaction ({@linkcode editLock}: this run's approvals applied to the lock as it is when
 * written, so a concurrent `approve` loses nothing), and prints each id approved with, for a new or changed one, the approved and the live value of
 * each field that differs (what the user approved). With `dryRun` it prints the same and writes
 * nothing.
 *
 * @param locked The run's trust (its lock file).
 * @param tools Every listed tool.
 * @param ids The ids, or `"all"`.
 * @param dryRun Whether to print only.
 * @param hooks For tests: another writer's turn before the lock file is renamed.
 * @returns The exit code: 0, or 1 when an id names no listed tool or the lock cannot be written
 * (read-only, broken meanwhile: one line).
 *
 * @example Usage
 * ```ts ignore
 * Deno.exit(await approveCommand(locked, pool.tools(), "all", false));
 * ```
 */
export async function approveCommand(
  locked: LockedTrust,
  tools: readonly McpTool[],
  ids: readonly string[] | "all",
  dryRun = false,
  hooks?: CommitHooks,
): Promise<number> {
  const lock = locked.source.lock();
  const done = approveTools(lock, tools, ids);
  if (!done.ok) {
    console.error(`unfold: ${done.error}`);
    return 1;
  }
  const wanted = new Set(done.approved);
  const changed = new Map(
    (await review(tools.filter((tool) => wanted.has(toolId(tool))), lock ?? EMPTY))
      .map((tool) => [toolId(tool), tool]),
  );
  // Loaded here: the report's formatting is no part of the gateway's start.
  const { changeLines } = await import("./inspect.ts");
  const verb = dryRun ? "would approve" : "approved";
  for (const id of done.approved) {
    const tool = changed.get(id);
    if (tool === undefined) {
      console.log(`${verb} ${id} (unchanged)`);
      continue;
    }
    console.log(
      `${verb} ${id} (${tool.change === "new" ? "new" : `changed: ${tool.fields.join(", ")}`})`,
    );
    for (const line of changeLines(fieldChanges(tool), "  ")) console.log(line);
  }
  if (dryRun) {
    console.error(`unfold: dry run: ${done.approved.length} tool definitions not written`);
    return 0;
  }
  // The same approvals, applied to the lock as it is now (another run may have written since).
  const written = await editLock(
    locked.lockFile,
    (now) => approveTools(now, tools, done.approved),
    locked.lockDir,
    hooks,
  );
  if (!written.ok) {
    console.error(`unfold: cannot approve: ${written.error}`);
    return 1;
  }
  console.error(`unfold: ${done.approved.length} tool definitions approved in ${locked.lockFile}`);
  return 0;
}

const EMPTY: Lock = { version: 2, tools: {} };
