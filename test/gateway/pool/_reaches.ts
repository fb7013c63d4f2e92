/**
 * Waits on a pool's own change events (never a timer) until a server is in a state.
 *
 * @module
 */

import type { UpstreamPool, UpstreamStatus } from "../../../src/gateway/pool/upstreams.ts";

/**
 * Resolves at the first change after which `server` is in `state`. Subscribe before the step
 * that causes the change.
 *
 * @param pool The pool.
 * @param server The server.
 * @param state The state waited for.
 * @returns Resolved once it is.
 */
export function poolReaches(
  pool: Pick<UpstreamPool, "onChange" | "statuses">,
  server: string,
  state: UpstreamStatus["state"],
): Promise<void> {
  return new Promise((resolve) => {
    const stop = pool.onChange(() => {
      if (pool.statuses().find((s) => s.server === server)?.state !== state) return;
      stop();
      resolve();
    });
  });
}
