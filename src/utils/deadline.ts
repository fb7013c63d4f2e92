/**
 * The one way unfold waits for work within a time and a caller's cancellation: on the platform's
 * `AbortSignal.timeout` and `AbortSignal.any`, so no wait leaves a timer to clear by hand, or on
 * a {@linkcode Scheduler} the caller passes (a test's clock, moved by hand).
 *
 * @module
 */

// The longest timer the platform keeps (a longer one would fire at once): about 24.8 days.
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Runs `run` once after `ms` and returns what cancels it: the platform's `setTimeout` by default,
 * a clock a test moves by hand where the code takes one.
 */
export type Scheduler = (run: () => void, ms: number) => () => void;

/** How a bounded wait ended: the work's value, or why it was not waited for longer. */
export type Waited<T> = { ok: true; value: T } | { ok: false; reason: "timeout" | "aborted" };

/**
 * A signal that aborts after `ms` (none when `null`) or with `signal`, whichever comes first.
 *
 * @param ms The time, in milliseconds, or `null` for none.
 * @param signal The caller's cancellation, if any.
 * @param schedule What times `ms` (the platform's timer when not given).
 * @returns The combined signal, or `undefined` when there is neither.
 */
export function deadline(
  ms: number | null,
  signal?: AbortSignal,
  schedule?: Scheduler,
): AbortSignal | undefined {
  const bounded = Math.min(Math.max(0, ms ?? 0), MAX_TIMER_MS);
  const signals = [
    ...(ms === null
      ? []
      : [schedule === undefined ? AbortSignal.timeout(bounded) : scheduled(bounded, schedule)]),
    ...(signal === undefined ? [] : [signal]),
  ];
  return signals.length <= 1 ? signals[0] : AbortSignal.any(signals);
}

// A signal that aborts as `AbortSignal.timeout` does, timed by the given scheduler.
function scheduled(ms: number, schedule: Scheduler): AbortSignal {
  const controller = new AbortController();
  schedule(() => controller.abort(new DOMException("The wait timed out", "TimeoutError")), ms);
  return controller.signal;
}

/**
 * Waits for `work`, at most `ms` (none when `null`), and no longer than `signal` allows. The work
 * itself goes on; only the wait ends. A rejection of the work within the time is rethrown.
 *
 * @param work What to wait for.
 * @param ms The longest wait, in milliseconds, or `null` for none.
 * @param signal The caller's cancellation, if any.
 * @param schedule What times `ms` (the platform's timer when not given).
 * @returns The work's value, or why the wait ended first.
 *
 * @example Usage
 * ```ts
 * import { within } from "./deadline.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(await within(Promise.resolve(1), 1_000), { ok: true, value: 1 });
 * deepEqual(await within(new Promise(() => {}), 1), { ok: false, reason: "timeout" });
 * deepEqual(await within(new Promise(() => {}), null, AbortSignal.abort()), {
 *   ok: false,
 *   reason: "aborted",
 * });
 * ```
 */
export async function within<T>(
  work: Promise<T>,
  ms: number | null,
  signal?: AbortSignal,
  schedule?: Scheduler,
): Promise<Waited<T>> {
  const stop = deadline(ms, signal, schedule);
  const reason = () => signal?.aborted === true ? "aborted" as const : "timeout" as const;
  if (stop === undefined) return { ok: true, value: await work };
  if (stop.aborted) return { ok: false, reason: reason() };
  const { promise, resolve } = Promise.withResolvers<Waited<T>>();
  const onStop = () => resolve({ ok: false, reason: reason() });
  stop.addEventListener("abort", onStop, { once: true });
  try {
    return await Promise.race([work.then((value) => ({ ok: true as const, value })), promise]);
  } finally {
    stop.removeEventListener("abort", onStop);
  }
}
