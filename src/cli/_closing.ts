/**
 * How the command closes: within a fixed budget, whatever its upstreams and connections do, so a
 * host that closes the gateway's stdin sees it gone in time.
 *
 * @module
 */

import { within } from "../utils/deadline.ts";

/**
 * How long closing may take before the process exits anyway: the host expects the gateway gone
 * within 2 s of closing its stdin, upstreams included.
 */
export const CLOSE_BUDGET_MS = 750;

/**
 * Waits for some work, but at most `ms`; a failure of the work ends the wait too.
 *
 * @param work The work.
 * @param ms The most to wait, in milliseconds.
 * @returns Resolves when the work settles or the time is up.
 *
 * @example Usage
 * ```ts
 * import { bounded } from "./_closing.ts";
 *
 * await bounded(new Promise(() => {}), 10); // never settles: the wait ends after 10 ms
 * ```
 */
export async function bounded(work: Promise<unknown>, ms: number): Promise<void> {
  await within(work.catch(() => {}), ms);
}
