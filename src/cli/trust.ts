/**
 * The lock file on disk (Deno): where it is, reading it (a broken file is a config error, never
 * an empty lock; a pipe or a folder in its place is skipped: nothing approved), editing it as a
 * transaction (`unfold approve`, through `utils/file_transaction.ts`: locked, re-read, this run's
 * approvals applied to what the file holds then, renamed over it only if unchanged since, its
 * mode and symlink kept, a read-only file refused), and noticing when it changes so that a
 * running gateway applies new approvals without a restart.
 *
 * Doors that write the lock file: {@linkcode approveCommand} alone (the gateway only reads it).
 *
 * @module
 */

// deno-lint-ignore-file no-console

import { dirname, isAbsolute, join, resolve } from "node:path";
import { readRegularFile } from "../utils/regular_file.ts";
import { type CommitHooks, editFile, editTarget } from "../utils/file_transaction.ts";
import { unfoldConfigDir } from "../mcp/oauth/file_store.ts";
import type { GatewayOptions } from "../gateway/config/parse.ts";
import type { TrustSource } from "../gateway/gateway.ts";
import type { McpTool } from "../tool.ts";
import { toolId } from "../tool.ts";
import { closest } from "../gateway/config/profiles.ts";
import { DEFAULT_TRUST, LOCK_FILE_NAME } from "../gateway/trust/policy.ts";
import { commandSpan, unfoldCommand } from "./hints.ts";
import {
  fieldChanges,
  type Lock,
  lockEntry,
  parseLock,
  review,
  serializeLock,
} from "../gateway/trust/lock.ts";

/**
 * The largest lock file read: a lock of 10,000 tools is about 1.5 MB, so anything much larger is
 * not one of ours.
 */
export const MAX_LOCK_BYTES = 16 * 1024 * 1024;

/**
 * The lock file's path: `unfold.lockFile` (relative to the config's directory), else
 * `unfold.lock.json` beside the config.
 *
 * @param configPath The config's path.
 * @param options The `unfold` block.
 * @returns The path.
 *
 * @example Usage
 * ```ts
 * import { lockPath } from "./trust.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(lockPath("/etc/unfold/mcp.json", { pinned: [] }), "/etc/unfold/unfold.lock.json");
 * equal(lockPath("/etc/unfold/mcp.json", { pinned: [], lockFile: "locks/a.json" }), "/etc/unfold/locks/a.json");
 * ```
 */
export function lockPath(configPath: string, options: GatewayOptions): string {
  const file = options.lockFile ?? LOCK_FILE_NAME;
  return isAbsolute(file) ? file : join(dirname(configPath), file);
}

/**
 * Reads the lock file: a regular file of at most {@linkcode MAX_LOCK_BYTES}, never a wait. A
 * named pipe or a folder in its place is skipped (no lock, with the line saying so in `skipped`).
 *
 * @param path Its path.
 * @param approveAll The command that approves every tool again (`unfold approve --config … --all`),
 * named by the error of a lock that cannot be read.
 * @returns The lock, `undefined` when there is no file yet or it was skipped, or the one-line
 * error.
 *
 * @example Usage
 * ```ts
 * import { readLock } from "./trust.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(await readLock("/nonexistent/unfold.lock.json"), { ok: true, value: undefined });
 * ```
 */
export async function readLock(
  path: string,
  approveAll?: string,
): Promise<
  { ok: true; value: Lock | undefined; skipped?: string } | { ok: false; error: string }
> {
  const read = await readRegularFile(path, MAX_LOCK_BYTES);
  if (!read.ok) {
    if (read.code === "not_found") return { ok: true, value: undefined };
    // A pipe or a folder in its place holds no approvals: skipped, so nothing is approved (under
    // "pin" every tool is held) and the start goes on.
    if (read.code === "not_regular") {
      return { ok: true, value: undefined, skipped: `the lock file ${path} is not a regular file` };
    }
    return { ok: false, error: `cannot read the lock file ${path}: ${read.reason}` };
  }
  const parsed = parseLock(read.text);
  if (!parsed.ok) {
    return {
      ok: false,
      error: `the lock file ${path} is ${parsed.error}: fix it, or delete it and ${
        approveAll === undefined ? "approve the tools again" : `run ${commandSpan(approveAll)}`
      }`,
    };
  }
  return parsed;
}

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
 * import { approveTools } from "./trust.ts";
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
 * import { editLock, readLock } from "./trust.ts";
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
): Promise<{ ok: true; value: Lock } | { ok: false; error: string }> {
  let written: Lock | undefined;
  const edited = await editFile(path, (bytes) => {
    let lock: Lock | undefined;
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
 * Calls back when the lock file may have changed (it is written by rename, so the directory is
 * watched). Stops with the signal.
 *
 * @param path The lock file's path.
 * @param onChange Called after each change of the file.
 * @param signal Stops watching.
 *
 * @example Usage
 * ```ts ignore
 * watchLock("/etc/unfold/unfold.lock.json", () => gateway.refresh(), signal);
 * ```
 */
export function watchLock(path: string, onChange: () => void, signal: AbortSignal): void {
  // A symlinked lock is edited at its target (`unfold approve` keeps the link): both are watched.
  const targets = new Set([resolve(path), editTarget(path)]);
  for (const folder of new Set([...targets].map((target) => dirname(target)))) {
    let watcher: Deno.FsWatcher;
    try {
      watcher = Deno.watchFs(folder, { recursive: false });
    } catch {
      continue; // no directory to watch: approvals then apply at the next re-list or restart
    }
    signal.addEventListener("abort", () => watcher.close(), { once: true });
    void (async () => {
      try {
        for await (const event of watcher) {
          if (event.paths.some((changed) => targets.has(resolve(changed)))) onChange();
        }
      } catch {
        // the watcher closed
      }
    })();
  }
}

/** The approved definitions of one run of the command. */
export interface LockedTrust {
  /** What the gateway reads. */
  source: TrustSource;
  /** The lock file's path. */
  lockFile: string;
  /**
   * The folder of the locks `unfold approve` takes on it: `<unfold config dir>/locks`, one per
   * user whatever the config, so every writer of one lock file takes the same lock.
   */
  lockDir: string;
  /** The line to log at start when nothing is approved yet (and trust is on). */
  notice?: string;
  /** The line to log at start, whatever the command, when the lock file was skipped. */
  skipped?: string;
  /** Reads the lock file again; returns the problem when it cannot be read (the old lock stays). */
  reload(): Promise<string | undefined>;
}

/**
 * Reads the lock file of a config for one command: `inspect` treats a missing lock as an empty
 * one (every tool is then listed as new: the list to review), `approve` applies no trust.
 *
 * @param configPath The config's path.
 * @param options The `unfold` block.
 * @param command The command being run.
 * @param env The environment (where the unfold config directory is, for the locks).
 * @returns The trust of this run, or the one-line problem with the lock file.
 *
 * @example Usage
 * ```ts
 * import { openTrust } from "./trust.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const opened = await openTrust("/nonexistent/mcp.json", { pinned: [], trust: "pin" }, "gateway");
 * equal(opened.ok && opened.value.source.mode, "pin");
 * match(opened.ok ? opened.value.notice ?? "" : "", /every tool awaits approval/);
 * ```
 */
export async function openTrust(
  configPath: string,
  options: GatewayOptions,
  command: string,
  env: Readonly<Record<string, string | undefined>> = Deno.env.toObject(),
): Promise<{ ok: true; value: LockedTrust } | { ok: false; error: string }> {
  const mode = options.trust ?? DEFAULT_TRUST;
  const lockFile = lockPath(configPath, options);
  let lockDir: string;
  try {
    lockDir = join(unfoldConfigDir(env), "locks");
  } catch {
    lockDir = join(dirname(resolve(lockFile)), "locks"); // no home: beside the lock file
  }
  // Every command printed runs as printed, from any directory.
  const config = resolve(configPath);
  const approve = unfoldCommand("approve", "--config", config);
  const first = await readLock(lockFile, `${approve} --all`);
  if (!first.ok) return first;
  let lock = first.value;
  const pin = mode === "pin" ? ' and trust is "pin": every tool awaits approval' : "";
  const value: LockedTrust = {
    source: {
      mode: command === "approve" ? "off" : mode,
      lock: () => lock ?? (command === "inspect" ? { version: 2, tools: {} } : undefined),
      approve,
      inspect: unfoldCommand("inspect", "--config", config),
    },
    lockFile,
    lockDir,
    async reload() {
      const next = await readLock(lockFile, `${approve} --all`);
      if (!next.ok) return next.error;
      if (next.skipped !== undefined) return next.skipped;
      lock = next.value;
      return undefined;
    },
  };
  if (first.skipped !== undefined) {
    value.skipped = `${first.skipped}: it is skipped, and no tool definition is approved`;
  } else if (lock === undefined && mode !== "off") {
    value.notice = `no tool definition is approved yet (${lockFile} does not exist)${pin}; ` +
      `review them with ${commandSpan(unfoldCommand("inspect", "--config", config))}, then run ${
        commandSpan(`${approve} --all`)
      }`;
  }
  return { ok: true, value };
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
