/**
 * What `unfold setup` changed, kept per file so that `--undo` can reverse exactly that: one record
 * per host file (`--file` ones too), holding each run's step — the file's bytes before (its
 * backup) and a hash of them after, the entries taken out of each place with their text, the
 * entry put in, and what the run added to unfold's own config (its servers, the profile, and that
 * file's bytes before too). Records are JSON, `0600`, in a folder only the user can open:
 *
 * ```
 * <unfold config dir>/setup/<host>/<file name>-<hash of its path>.json
 * <unfold config dir>/setup/locks/<hash of a path>.lock
 * ```
 *
 * @module
 */

import { Buffer } from "node:buffer";
import { basename, join } from "node:path";
import { contentHash } from "./data.ts";
import { readRegularFile } from "../../utils/regular_file.ts";
import { MAX_EDITED_BYTES, writePrivate } from "../../utils/file_transaction.ts";
import { isRecord } from "../../utils/record.ts";
import type { Result } from "../../result.ts";

/** A file's bytes as a record keeps them: a hash, and the bytes themselves for a backup. */
export interface Snapshot {
  /** SHA-256 of the bytes, `"absent"` for no file. */
  sha256: string;
  /** The bytes in base64 (a backup), absent for no file or where only the hash is kept. */
  base64?: string;
}

/** A server setup took out of a place. */
export interface MovedServer {
  /** Its name in the host's file. */
  name: string;
  /** Its data there. */
  value: unknown;
  /** Its text there. */
  raw: string;
  /** Its name in unfold's config. */
  id: string;
}

/** What one run changed in one place of a file. */
export interface PlaceStep {
  scope: string;
  pointer: string[];
  /** Whether the servers' object was made by this step (it goes when left empty). */
  keyCreated: boolean;
  removed: MovedServer[];
  /** unfold's entry, when this step put it in. */
  added?: { name: string; value: unknown };
}

/** A server one run put in (or found in) unfold's config. */
export interface ConfigServer {
  id: string;
  entry: unknown;
  /** Whether this run made it (else it was there, the same). */
  created: boolean;
  /** Whether this run added it to the profile. */
  inProfile: boolean;
}

/** What one run changed in unfold's config for one file. */
export interface ConfigStep {
  path: string;
  before: Snapshot;
  after: Snapshot;
  servers: ConfigServer[];
  profile: { name: string; created: boolean; listCreated: boolean };
  /** Whether setup made the config (passed on to a remaining step when this one is undone). */
  made?: boolean;
}

/** One run's change of one file. */
export interface Step {
  /** The run (files one run changed share it); later runs have larger numbers. */
  run: number;
  /** When, for people. */
  at: string;
  /** `pending` until unfold's config was written too. */
  state: "pending" | "done";
  before: Snapshot;
  after: Snapshot;
  places: PlaceStep[];
  config: ConfigStep;
}

/** The record of one host file. */
export interface FileRecord {
  version: 1;
  host: string;
  /** The file as setup was given it (a symlink stays one). */
  file: string;
  /** The file edited (symlinks followed). */
  target: string;
  steps: Step[];
}

/** A record and where it is kept. */
export interface StoredRecord {
  path: string;
  record: FileRecord;
}

/**
 * A snapshot of some bytes.
 *
 * @param bytes The bytes (`undefined`: no file).
 * @param backup Whether to keep the bytes, not only their hash.
 * @returns The snapshot.
 */
export function snapshot(bytes: Uint8Array | undefined, backup: boolean): Snapshot {
  const sha256 = contentHash(bytes);
  return bytes === undefined || !backup
    ? { sha256 }
    : { sha256, base64: Buffer.from(bytes).toString("base64") };
}

/**
 * The bytes a snapshot kept.
 *
 * @param snap The snapshot.
 * @returns The bytes, or `undefined` for no file.
 */
export function snapshotBytes(snap: Snapshot): Uint8Array | undefined {
  return snap.base64 === undefined ? undefined : new Uint8Array(Buffer.from(snap.base64, "base64"));
}

/**
 * Where the record of a host's file is kept.
 *
 * @param setupDir `<unfold config dir>/setup`.
 * @param host The host.
 * @param target The file (its edit target).
 * @returns The record's path.
 */
export function recordPath(setupDir: string, host: string, target: string): string {
  const name = basename(target).replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 64);
  const hash = contentHash(new TextEncoder().encode(target)).slice(0, 16);
  return join(setupDir, host, `${name}-${hash}.json`);
}

/**
 * The records kept for a host (or for every host).
 *
 * @param setupDir `<unfold config dir>/setup`.
 * @param host The host, or `undefined` for all.
 * @returns The records, or the first that cannot be read, in one line.
 */
export async function loadRecords(
  setupDir: string,
  host?: string,
): Promise<Result<StoredRecord[], string>> {
  const hosts = host !== undefined ? [host] : await folders(setupDir);
  const found: StoredRecord[] = [];
  for (const name of hosts) {
    const dir = join(setupDir, name);
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      continue;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      const read = await readRegularFile(path, 4 * MAX_EDITED_BYTES);
      let record: unknown;
      try {
        record = read.ok ? JSON.parse(read.text) : undefined;
      } catch {
        record = undefined;
      }
      if (!isFileRecord(record)) {
        return { ok: false, error: `${path} is not a record of unfold setup: move it away` };
      }
      found.push({ path, record });
    }
  }
  return { ok: true, value: found };
}

/**
 * Keeps a record (or removes it when no step is left).
 *
 * @param stored The record and its path.
 */
export async function saveRecord(stored: StoredRecord): Promise<void> {
  if (stored.record.steps.length === 0) await Deno.remove(stored.path).catch(() => {});
  else await writePrivate(stored.path, `${JSON.stringify(stored.record, null, 2)}\n`);
}

/**
 * The next run's number: one more than any record holds.
 *
 * @param records Every record of the config.
 * @returns The number.
 */
export function nextRun(records: readonly StoredRecord[]): number {
  let last = 0;
  for (const { record } of records) {
    for (const step of record.steps) last = Math.max(last, step.run);
  }
  return last + 1;
}

async function folders(dir: string): Promise<string[]> {
  try {
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && entry.name !== "locks") names.push(entry.name);
    }
    return names.sort();
  } catch {
    return [];
  }
}

function isFileRecord(value: unknown): value is FileRecord {
  return isRecord(value) && value.version === 1 && typeof value.host === "string" &&
    typeof value.file === "string" && typeof value.target === "string" &&
    Array.isArray(value.steps) &&
    value.steps.every((step) =>
      isRecord(step) && typeof step.run === "number" && Array.isArray(step.places) &&
      isRecord(step.config) && isRecord(step.before) && isRecord(step.after)
    );
}
