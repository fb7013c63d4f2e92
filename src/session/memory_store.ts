/**
 * The in-memory session store (Deno, Node, tests): a map with a time to live and a cap on sessions,
 * evicting the least recently used.
 *
 * @module
 */

import { type SessionDecision, type SessionInput, type SessionState, transition } from "./state.ts";
import { DEFAULT_SESSION_TTL_SECONDS, type SessionKey, type SessionStore } from "./store.ts";

/** Options of {@linkcode MemorySessionStore}. */
export interface MemorySessionStoreOptions {
  /**
   * Seconds an idle session lives.
   * @default {86400}
   */
  ttlSeconds?: number;
  /**
   * The most sessions kept; beyond it the least recently used is evicted.
   * @default {10000}
   */
  maxSessions?: number;
  /**
   * The clock, in ms since the epoch.
   * @default {Date.now}
   */
  now?: () => number;
}

/**
 * Sessions in memory. Transitions are synchronous, so each `apply` is atomic: concurrent requests
 * on one session lose no update.
 *
 * @example Usage
 * ```ts
 * import { MemorySessionStore } from "./memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = new MemorySessionStore({ ttlSeconds: 60 });
 * const key = { tenant: "", session: "chat-1" };
 * store.apply(key, { catalogHash: "c1", event: { kind: "search", empty: false } });
 * equal(store.get(key)?.counters.searches, 1);
 * ```
 */
export class MemorySessionStore implements SessionStore {
  #sessions = new Map<string, SessionState>();
  #ttlMs: number;
  #max: number;
  #now: () => number;

  /**
   * Makes an empty store.
   *
   * @param options Time to live, cap and clock.
   * @throws {RangeError} When `ttlSeconds` or `maxSessions` is not a positive number.
   */
  constructor(options: MemorySessionStoreOptions = {}) {
    const ttl = options.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    const max = options.maxSessions ?? 10_000;
    if (!(ttl > 0)) throw new RangeError(`Invalid ttlSeconds: must be positive, got ${ttl}`);
    if (!Number.isSafeInteger(max) || max < 1) {
      throw new RangeError(`Invalid maxSessions: must be a positive integer, got ${max}`);
    }
    this.#ttlMs = ttl * 1000;
    this.#max = max;
    this.#now = options.now ?? Date.now;
  }

  /** The number of live sessions. */
  get size(): number {
    this.#sweep();
    return this.#sessions.size;
  }

  /**
   * Applies one event to a session, creating it when absent.
   *
   * @param key The session.
   * @param input The event and its catalogue hash.
   * @returns The session's decision.
   */
  apply(key: SessionKey, input: SessionInput): SessionDecision {
    const id = keyOf(key);
    const { state, decision } = transition(this.#live(id), input, this.#now());
    this.#sessions.delete(id); // re-insert: the map's order is least recently used first
    this.#sessions.set(id, state);
    this.#sweep();
    while (this.#sessions.size > this.#max) {
      this.#sessions.delete(this.#sessions.keys().next().value!);
    }
    return decision;
  }

  /**
   * Reads a session.
   *
   * @param key The session.
   * @returns The state, or `undefined` when there is none or it expired.
   */
  get(key: SessionKey): SessionState | undefined {
    return this.#live(keyOf(key));
  }

  /**
   * Deletes a session.
   *
   * @param key The session.
   * @returns Whether there was a live one.
   */
  delete(key: SessionKey): boolean {
    const id = keyOf(key);
    const live = this.#live(id) !== undefined;
    this.#sessions.delete(id);
    return live;
  }

  #live(id: string): SessionState | undefined {
    const state = this.#sessions.get(id);
    if (state === undefined) return undefined;
    if (this.#now() - state.updatedAt >= this.#ttlMs) {
      this.#sessions.delete(id);
      return undefined;
    }
    return state;
  }

  // Least recently used first is also oldest update first: expired sessions sit at the front.
  #sweep(): void {
    const now = this.#now();
    for (const [id, state] of this.#sessions) {
      if (now - state.updatedAt < this.#ttlMs) break;
      this.#sessions.delete(id);
    }
  }
}

function keyOf(key: SessionKey): string {
  return `${key.tenant}\u0000${key.session}`;
}
