/**
 * Writes an upstream's listings to its snapshot store one at a time, the newest last, so
 * that a storm of list changes costs at most one write in flight and one waiting, never one per
 * change, and an older listing is never written over a newer one.
 *
 * @module
 */

import type { Snapshot } from "./upstreams.ts";

/**
 * A writer of one upstream's snapshots.
 *
 * @param write Writes one snapshot (the store's `write`, bound to the upstream's config).
 * @param stopped Whether the pool has closed: no more writes then.
 * @returns Call it with a function giving the current listing whenever the listing changes.
 *
 * @example Usage
 * ```ts
 * import { snapshotKeeper } from "./snapshot_keeper.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const written: number[] = [];
 * let gate = Promise.withResolvers<void>();
 * const keep = snapshotKeeper(async (s) => { written.push(s.tools.length); await gate.promise; }, () => false);
 * let current = 1;
 * keep(() => ({ tools: new Array(current) }));
 * current = 2; keep(() => ({ tools: new Array(current) }));
 * current = 3; keep(() => ({ tools: new Array(current) }));
 * gate.resolve();
 * await new Promise((resolve) => setTimeout(resolve, 0));
 * deepEqual(written, [1, 3]);
 * ```
 */
export function snapshotKeeper(
  write: (snapshot: Snapshot) => Promise<void>,
  stopped: () => boolean,
): (current: () => Snapshot) => void {
  let saving = false;
  let latest: (() => Snapshot) | undefined;
  return (current) => {
    latest = current;
    if (saving) return;
    saving = true;
    void (async () => {
      while (latest !== undefined && !stopped()) {
        const snapshot = latest();
        latest = undefined;
        await write(snapshot).catch(() => {});
      }
    })().finally(() => saving = false);
  };
}
