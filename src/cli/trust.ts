/**
 * The lock file on disk (Deno): where it is, reading it (a broken file is a config error, never
 * an empty lock; a pipe or a folder in its place is skipped: nothing approved), and noticing when
 * it changes (at a symlink's target too) so that a running gateway applies new approvals without
 * a restart. `unfold approve` writes it (`approve.ts`); the gateway only reads it.
 *
 * @module
 */

import { dirname, isAbsolute, join, resolve } from "node:path";
import { readRegularFile } from "../utils/regular_file.ts";
import { editTarget } from "../utils/file_transaction.ts";
import { unfoldConfigDir } from "../mcp/oauth/file_store.ts";
import type { GatewayOptions } from "../gateway/config/parse.ts";
import type { TrustSource } from "../gateway/gateway.ts";
import { DEFAULT_TRUST, LOCK_FILE_NAME } from "../gateway/trust/policy.ts";
import { commandSpan, unfoldCommand } from "./hints.ts";
import { type Lock, parseLock } from "../gateway/trust/lock.ts";

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
