/**
 * A snapshot store in memory, for the pool's tests: what it starts with, and each snapshot written.
 *
 * @module
 */
import type { Snapshot, SnapshotStore } from "../../src/gateway/pool/upstreams.ts";

/**
 * A store that reads `initial` for every server and keeps a copy of each snapshot written.
 *
 * @param initial What a read answers (none: no snapshot yet).
 * @returns The store, with the snapshots written so far.
 */
export function memoryStore(initial?: Snapshot): SnapshotStore & { written: Snapshot[] } {
  const written: Snapshot[] = [];
  return {
    written,
    read: () => Promise.resolve(initial),
    write: (_config, snapshot) => {
      written.push(structuredClone(snapshot));
      return Promise.resolve();
    },
  };
}
