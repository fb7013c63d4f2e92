/**
 * Snapshots of the upstreams' tool lists, kept on disk so that the next start can answer the host
 * at once from the last known lists while the upstreams connect. One file per config entry, named
 * by the SHA-256 of the entry's canonical JSON (after `${VAR}` expansion): an entry that changes in
 * any way starts without a snapshot.
 *
 * A cache, not a file the user owns or a record of what they decided: a snapshot is a copy of what
 * its upstream listed, so two writers of one write the same kind of bytes and the last whole file
 * wins; written atomically (a temporary file renamed over it), with no lock. Bounded: each file
 * by {@linkcode MAX_SNAPSHOT_BYTES}, the folder by {@linkcode MAX_SNAPSHOT_FILES} (the least
 * recently written go first, with any temporary file a crash left), readable by the user alone.
 *
 * @module
 */

import { readRegularFile } from "../utils/regular_file.ts";
import { canonicalJson, sha256Hex } from "../canonical_json.ts";
import type { UpstreamConfig } from "../gateway/config/parse.ts";
import type { Snapshot, SnapshotStore } from "../gateway/pool/upstreams.ts";
import { toMcpTools } from "../mcp/tool_list.ts";

/** The largest snapshot written or read: a bigger list is simply listed live at each start. */
export const MAX_SNAPSHOT_BYTES = 16 * 1024 * 1024;

/**
 * The most snapshot files kept: each change of a config entry starts a new one, so without a
 * bound the folder would grow with every edit of the config.
 */
export const MAX_SNAPSHOT_FILES = 256;

export { unfoldCacheDir } from "./cache_dir.ts";

/**
 * Snapshot files under `DIR/snapshots/`. Written atomically (a temporary file renamed over the
 * old one); a snapshot over {@linkcode MAX_SNAPSHOT_BYTES} is not written, and a file that is too
 * big, unreadable, not a regular file (a named pipe, a folder) or not a snapshot is ignored with
 * one line to `warn`. Its tools are checked as a
 * live listing is.
 *
 * @param dir The cache directory (see {@linkcode unfoldCacheDir}).
 * @param warn Receives one line per ignored or unwritable snapshot.
 * @param maxFiles The most snapshot files kept (see {@linkcode MAX_SNAPSHOT_FILES}).
 * @returns The store.
 *
 * @example Usage
 * ```ts
 * import { fileSnapshotStore } from "./snapshots.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = fileSnapshotStore(await Deno.makeTempDir(), () => {});
 * const config = { server: "demo", command: "demo", args: [], env: {} };
 * const tool = { server: "demo", name: "echo", description: "Echoes", inputSchema: { type: "object" } };
 * await store.write(config, { tools: [tool], instructions: "Be kind" });
 * equal((await store.read(config))?.tools[0]?.name, "echo");
 * ```
 */
export function fileSnapshotStore(
  dir: string,
  warn: (line: string) => void,
  maxFiles = MAX_SNAPSHOT_FILES,
): SnapshotStore {
  const folder = `${dir}/snapshots`;
  const file = async (config: UpstreamConfig) =>
    `${folder}/${await sha256Hex(canonicalJson(config))}.json`;
  return {
    async read(config) {
      const path = await file(config);
      const read = await readRegularFile(path, MAX_SNAPSHOT_BYTES);
      if (!read.ok) {
        if (read.code !== "not_found") {
          warn(`ignoring the snapshot of "${config.server}" (${path}): ${read.reason}`);
        }
        return undefined;
      }
      try {
        const data: unknown = JSON.parse(read.text);
        if (
          typeof data !== "object" || data === null || !Array.isArray((data as Snapshot).tools)
        ) throw new Error("it has no list of tools");
        const raw = data as { tools: unknown[]; instructions?: unknown };
        const tools = toMcpTools(config.server, raw.tools, () => {});
        return typeof raw.instructions === "string"
          ? { tools, instructions: raw.instructions }
          : { tools };
      } catch (error) {
        warn(`ignoring the snapshot of "${config.server}" (${path}): ${reason(error)}`);
        return undefined;
      }
    },
    async write(config, snapshot) {
      const text = JSON.stringify({
        tools: snapshot.tools.map(({ server: _, ...tool }) => tool),
        ...(snapshot.instructions === undefined ? {} : { instructions: snapshot.instructions }),
      });
      // Bytes are at most three times the UTF-16 length: measured only when it could matter.
      if (text.length * 3 > MAX_SNAPSHOT_BYTES) {
        if (new TextEncoder().encode(text).length > MAX_SNAPSHOT_BYTES) return;
      }
      const path = await file(config);
      const temp = `${path}.${crypto.randomUUID()}.tmp`;
      try {
        await Deno.mkdir(folder, { recursive: true, mode: 0o700 });
        await Deno.writeTextFile(temp, text, { createNew: true, mode: 0o600 });
        await Deno.rename(temp, path);
      } catch (error) {
        await Deno.remove(temp).catch(() => {});
        warn(`cannot keep the snapshot of "${config.server}" (${path}): ${reason(error)}`);
        return;
      }
      await prune(folder, maxFiles, path).catch(() => {}); // a cache: trimmed at the next write
    },
  };
}

// Keeps the folder within `maxFiles`: the least recently written files go (never `keep`, the one
// just written), a temporary file older than a minute (a writer that crashed) with them.
async function prune(folder: string, maxFiles: number, keep: string): Promise<void> {
  const found: { path: string; at: number; temp: boolean }[] = [];
  for await (const entry of Deno.readDir(folder)) {
    if (!entry.isFile) continue;
    const path = `${folder}/${entry.name}`;
    const info = await Deno.lstat(path).catch(() => undefined);
    found.push({ path, at: info?.mtime?.getTime() ?? 0, temp: entry.name.endsWith(".tmp") });
  }
  const snapshots = found.filter((file) => !file.temp).sort((a, b) => b.at - a.at);
  const now = Date.now();
  const gone = [
    ...snapshots.filter((file) => file.path !== keep).slice(Math.max(0, maxFiles - 1)),
    ...found.filter((file) => file.temp && now - file.at > 60_000),
  ];
  for (const file of gone) await Deno.remove(file.path).catch(() => {});
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
