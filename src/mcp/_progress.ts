/**
 * Progress notifications of one call, coalesced: however fast a server sends them, the listener
 * hears at most one per {@linkcode PROGRESS_INTERVAL_MS}, the latest, and the last one before the
 * call's result. A flood costs the listener (and a host behind it) no more than a steady trickle.
 *
 * @module
 */

import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { isRecord } from "../utils/record.ts";
import { rethrow } from "./_settings.ts";
import type { CallProgress } from "./types.ts";

/** One progress notification, as a listener hears it. */
export type Progress = CallProgress;

/** The params of a progress notification: its call's token, and the progress. */
export interface ProgressParams extends Progress {
  /** The token the call sent. */
  progressToken: string | number;
}

/**
 * Whether a value is a progress notification's params, checked by hand: a flood of them costs a
 * few property reads each instead of a schema library's parse.
 *
 * @param params The value.
 * @returns Whether it is.
 *
 * @example Usage
 * ```ts
 * import { isProgressParams } from "./_progress.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isProgressParams({ progressToken: "t", progress: 1, total: 2 }), true);
 * equal(isProgressParams({ progressToken: "t", progress: "1" }), false);
 * ```
 */
export function isProgressParams(params: unknown): params is ProgressParams {
  return isRecord(params) &&
    (typeof params.progressToken === "string" || typeof params.progressToken === "number") &&
    typeof params.progress === "number" &&
    (params.total === undefined || typeof params.total === "number") &&
    (params.message === undefined || typeof params.message === "string");
}

/** The schema the SDK checks a progress notification's params with: {@linkcode isProgressParams}. */
export const PROGRESS_PARAMS: StandardSchemaV1<ProgressParams> = {
  "~standard": {
    version: 1,
    vendor: "unfold",
    validate: (value) =>
      isProgressParams(value)
        ? { value }
        : { issues: [{ message: "not the params of a progress notification" }] },
  },
};

/** The shortest time between two progress notifications handed on for one call, in ms. */
export const PROGRESS_INTERVAL_MS = 100;

/**
 * Hands on a call's progress at a bounded rate.
 *
 * @example Usage
 * ```ts
 * import { ProgressGate } from "./_progress.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const heard: number[] = [];
 * const gate = new ProgressGate(({ progress }) => heard.push(progress));
 * for (let i = 1; i <= 1000; i++) gate.push({ progress: i });
 * gate.flush();
 * deepEqual(heard, [1, 1000]);
 * ```
 */
export class ProgressGate {
  #listener: (progress: Progress) => void;
  #latest: Progress | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * Makes a gate.
   *
   * @param listener Hears the progress that passes.
   */
  constructor(listener: (progress: Progress) => void) {
    this.#listener = listener;
  }

  /**
   * Takes one notification: handed on now when the interval is over, else kept as the latest.
   *
   * @param progress The notification.
   */
  push(progress: Progress): void {
    if (this.#timer !== undefined) {
      this.#latest = progress;
      return;
    }
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const latest = this.#latest;
      this.#latest = undefined;
      if (latest !== undefined) this.push(latest);
    }, PROGRESS_INTERVAL_MS);
    this.#hear(progress);
  }

  /** Hands on the latest notification kept, if any, and stops: the call has its result. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const latest = this.#latest;
    this.#latest = undefined;
    if (latest !== undefined) this.#hear(latest);
  }

  // A listener that throws does not stop the call: its error is rethrown on its own.
  #hear(progress: Progress): void {
    try {
      this.#listener(progress);
    } catch (error) {
      rethrow(error);
    }
  }
}
