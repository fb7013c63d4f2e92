/**
 * The in-memory session store (Deno, Node, tests): a map with a time to live and a cap on sessions,
 * evicting the least recently used. It also keeps the rest of each session's cut answers for
 * `more` ({@linkcode ResultStore}), bounded per session and in total, gone with the session.
 *
 * @module
 */

import type { Ceiling } from "../bridge/ceiling.ts";
import { type PartStart, readPart } from "../bridge/part.ts";
import {
  MAX_KEPT_ANSWERS_PER_SESSION,
  MAX_KEPT_BYTES,
  MAX_KEPT_BYTES_PER_SESSION,
} from "../limits.ts";
import {
  type KeepOutcome,
  type KeptAnswer,
  keptBytes,
  type KeptPart,
  PART_START_BYTES,
  randomId,
  type ResultKey,
  type ResultStore,
} from "./result_store.ts";
import { type SessionDecision, type SessionInput, type SessionState, transition } from "./state.ts";
import { DEFAULT_SESSION_TTL_SECONDS, type SessionKey, type SessionStore } from "./store.ts";

// An event that changes nothing but the session's last use.
const TOUCH: SessionInput = { event: { kind: "answer", tokens: 0, cut: false, more: false } };

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
  /**
   * The most bytes of cut answers one session keeps.
   * @default {MAX_KEPT_BYTES_PER_SESSION}
   */
  maxKeptBytesPerSession?: number;
  /**
   * The most cut answers one session keeps.
   * @default {MAX_KEPT_ANSWERS_PER_SESSION}
   */
  maxKeptAnswers?: number;
  /**
   * The most bytes of cut answers kept across all sessions.
   * @default {MAX_KEPT_BYTES}
   */
  maxKeptBytes?: number;
  /**
   * Makes the id of a kept answer: 12 of `a-z 0-9`.
   * @default {12 random characters from `crypto.getRandomValues`}
   */
  randomId?: () => string;
}

// A session, and the cut answers it keeps (by id, oldest first).
interface Entry {
  state: SessionState;
  kept: Map<string, Kept>;
  keptBytes: number;
}

interface Kept {
  answer: KeptAnswer;
  scope: string;
  starts: Map<number, PartStart>;
  bytes: number;
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
export class MemorySessionStore implements SessionStore, ResultStore {
  #sessions = new Map<string, Entry>();
  // Every kept answer across sessions, oldest first: `${session key}\0${id}`.
  #keptOrder = new Map<string, { session: string; id: string }>();
  #keptTotal = 0;
  #ttlMs: number;
  #max: number;
  #now: () => number;
  #maxKeptPerSession: number;
  #maxKeptAnswers: number;
  #maxKept: number;
  #randomId: () => string;

  /**
   * Makes an empty store.
   *
   * @param options Time to live, caps, clock and ids.
   * @throws {RangeError} When `ttlSeconds` or a cap is not a positive number.
   */
  constructor(options: MemorySessionStoreOptions = {}) {
    const ttl = options.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    const max = options.maxSessions ?? 10_000;
    if (!(ttl > 0)) throw new RangeError(`Invalid ttlSeconds: must be positive, got ${ttl}`);
    const caps = {
      maxSessions: max,
      maxKeptBytesPerSession: options.maxKeptBytesPerSession ?? MAX_KEPT_BYTES_PER_SESSION,
      maxKeptAnswers: options.maxKeptAnswers ?? MAX_KEPT_ANSWERS_PER_SESSION,
      maxKeptBytes: options.maxKeptBytes ?? MAX_KEPT_BYTES,
    };
    for (const [name, value] of Object.entries(caps)) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`Invalid ${name}: must be a positive integer, got ${value}`);
      }
    }
    this.#ttlMs = ttl * 1000;
    this.#max = max;
    this.#now = options.now ?? Date.now;
    this.#maxKeptPerSession = caps.maxKeptBytesPerSession;
    this.#maxKeptAnswers = caps.maxKeptAnswers;
    this.#maxKept = caps.maxKeptBytes;
    this.#randomId = options.randomId ?? randomId;
  }

  /** The number of live sessions. */
  get size(): number {
    this.#sweep();
    return this.#sessions.size;
  }

  /** The bytes of cut answers kept across all sessions (as `keptBytes` counts them). */
  get keptBytes(): number {
    return this.#keptTotal;
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
    const live = this.#live(id);
    const { state, decision } = transition(live?.state, input, this.#now());
    this.#touch(id, live ?? { state, kept: new Map(), keptBytes: 0 }).state = state;
    return decision;
  }

  /**
   * Reads a session.
   *
   * @param key The session.
   * @returns The state, or `undefined` when there is none or it expired.
   */
  get(key: SessionKey): SessionState | undefined {
    return this.#live(keyOf(key))?.state;
  }

  /**
   * Deletes a session, and the cut answers it keeps.
   *
   * @param key The session.
   * @returns Whether there was a live one.
   */
  delete(key: SessionKey): boolean {
    const id = keyOf(key);
    const live = this.#live(id) !== undefined;
    this.#drop(id);
    return live;
  }

  /**
   * Keeps the rest of a cut answer in its session (created when absent), letting the session's
   * oldest kept answers go past its bounds, and any session's oldest past the store's.
   *
   * @param key Whose.
   * @param kept The answer's text, layout and where part 2 starts.
   * @returns Its id, or `too_large` for an answer over the session's bound.
   */
  keep(key: ResultKey, kept: KeptAnswer): KeepOutcome {
    const bytes = keptBytes(kept) + PART_START_BYTES;
    const limit = Math.min(this.#maxKeptPerSession, this.#maxKept);
    if (bytes > limit) return { ok: false, reason: "too_large", limit };
    // Keeping is a use of the session (one that was not there begins): what is kept lives as
    // long as the session.
    this.apply(key, TOUCH);
    const session = keyOf(key);
    const entry = this.#sessions.get(session)!;
    let id = this.#randomId();
    while (entry.kept.has(id)) id = this.#randomId();
    entry.kept.set(id, {
      answer: kept,
      scope: key.scope ?? "",
      starts: new Map([[2, kept.next]]),
      bytes,
    });
    entry.keptBytes += bytes;
    this.#keptOrder.set(`${session}\u0000${id}`, { session, id });
    this.#keptTotal += bytes;
    while (entry.keptBytes > this.#maxKeptPerSession || entry.kept.size > this.#maxKeptAnswers) {
      this.#letGo(session, entry.kept.keys().next().value!);
    }
    while (this.#keptTotal > this.#maxKept) {
      const oldest = this.#keptOrder.values().next().value!;
      this.#letGo(oldest.session, oldest.id);
    }
    return { ok: true, id };
  }

  /**
   * Reads a part of a kept answer and records where the next one starts.
   *
   * @param key Whose.
   * @param id The kept answer's id.
   * @param part The part's number, from 2.
   * @param ceiling The ceilings of the part.
   * @returns The part, or `undefined` when it is not kept (here, in this scope).
   */
  async part(
    key: ResultKey,
    id: string,
    part: number,
    ceiling: Ceiling,
  ): Promise<KeptPart | undefined> {
    const session = keyOf(key);
    const kept = this.#live(session)?.kept.get(id);
    if (kept === undefined || kept.scope !== (key.scope ?? "")) return undefined;
    const start = kept.starts.get(part);
    if (start === undefined) return undefined;
    const { text, layout } = kept.answer;
    const read = await readPart((from, to) => text.slice(from, to), layout, start, ceiling);
    // The entry may have gone while the part was read (another call let it go): then it stays gone.
    const entry = this.#sessions.get(session);
    if (read.next !== undefined && entry?.kept.get(id) === kept && !kept.starts.has(part + 1)) {
      kept.starts.set(part + 1, read.next);
      kept.bytes += PART_START_BYTES;
      entry.keptBytes += PART_START_BYTES;
      this.#keptTotal += PART_START_BYTES;
    }
    return { layout, start, read };
  }

  #touch(id: string, entry: Entry): Entry {
    this.#sessions.delete(id); // re-insert: the map's order is least recently used first
    this.#sessions.set(id, entry);
    this.#sweep();
    while (this.#sessions.size > this.#max) this.#drop(this.#sessions.keys().next().value!);
    return entry;
  }

  #live(id: string): Entry | undefined {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return undefined;
    if (this.#now() - entry.state.updatedAt >= this.#ttlMs) {
      this.#drop(id);
      return undefined;
    }
    return entry;
  }

  // Least recently used first is also oldest update first: expired sessions sit at the front.
  #sweep(): void {
    const now = this.#now();
    for (const [id, entry] of this.#sessions) {
      if (now - entry.state.updatedAt < this.#ttlMs) break;
      this.#drop(id);
    }
  }

  #drop(id: string): void {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return;
    for (const kept of [...entry.kept.keys()]) this.#letGo(id, kept);
    this.#sessions.delete(id);
  }

  #letGo(session: string, id: string): void {
    const entry = this.#sessions.get(session);
    const kept = entry?.kept.get(id);
    if (entry === undefined || kept === undefined) return;
    entry.kept.delete(id);
    entry.keptBytes -= kept.bytes;
    this.#keptTotal -= kept.bytes;
    this.#keptOrder.delete(`${session}\u0000${id}`);
  }
}

function keyOf(key: SessionKey): string {
  return `${key.tenant}\u0000${key.session}`;
}
