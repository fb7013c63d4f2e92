/**
 * When a lazily started upstream is stopped: after a while without a call, never while a call is
 * in flight or waiting for the server to start, and at once when it was started only to be
 * listed.
 *
 * @module
 */

/** The calls of one upstream, as the timer that stops it when idle counts them. */
export interface IdleTimer {
  /**
   * Counts a call from now on (one waiting for the server to start included): the server is not
   * stopped until it ends.
   *
   * @returns Ends the call; the idle time is counted from then.
   */
  begin(): () => void;
  /**
   * Whether the server may be stopped now: no call in flight, and none for the idle timeout. A
   * server that no call has used since it was last stopped may be stopped at once.
   */
  idle(): boolean;
  /** Arms the timer after the server started or a call ended (nothing when a call is on). */
  arm(): void;
  /** Disarms it (the server stopped or failed, or the pool closes). */
  disarm(): void;
}

/** Options of {@linkcode idleTimer}. */
export interface IdleTimerOptions {
  /** How long the server may go without a call, in milliseconds. */
  idleMs: number;
  /** Runs `run` after `ms`, and returns what cancels it. */
  schedule: (run: () => void, ms: number) => () => void;
  /** The clock, in ms since the epoch. */
  now: () => number;
}

/**
 * A timer that stops one upstream when it has been idle long enough.
 *
 * @param stop Stops the server (called only when it is idle).
 * @param options The idle timeout, the scheduler and the clock.
 * @returns The timer.
 *
 * @example Usage
 * ```ts
 * import { idleTimer } from "./idle_timer.ts";
 * import { equal } from "node:assert/strict";
 *
 * let clock = 0;
 * const pending: (() => void)[] = [];
 * let stops = 0;
 * const timer = idleTimer(() => stops++, {
 *   idleMs: 1_000,
 *   now: () => clock,
 *   schedule: (run) => (pending.push(run), () => {}),
 * });
 * const end = timer.begin();
 * clock = 500;
 * end(); // the idle time counts from here
 * clock = 1_200;
 * pending.shift()?.();
 * equal(stops, 0);
 * clock = 1_500;
 * pending.shift()?.();
 * equal(stops, 1);
 * ```
 */
export function idleTimer(stop: () => void, options: IdleTimerOptions): IdleTimer {
  const { idleMs, schedule, now } = options;
  let calls = 0;
  // A server started only to be listed has no last call: it is idle at once.
  let lastCallAt = -Infinity;
  let cancel: (() => void) | undefined;
  const disarm = () => {
    cancel?.();
    cancel = undefined;
  };
  const idle = () => calls === 0 && now() - lastCallAt >= idleMs;
  const arm = () => {
    disarm();
    if (calls > 0) return;
    cancel = schedule(() => {
      cancel = undefined;
      // A late timer, or one whose server was called meanwhile, looks again.
      if (idle()) stop();
      else arm();
    }, Math.max(0, lastCallAt + idleMs - now()));
  };
  return {
    begin() {
      calls += 1;
      disarm();
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        calls -= 1;
        lastCallAt = now();
        arm();
      };
    },
    idle,
    arm,
    disarm,
  };
}
