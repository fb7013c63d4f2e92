/**
 * Session memory as pure data and transitions: which schemas the model has been sent in this
 * generation of the catalogue, and what it has done. Stores apply {@linkcode transition} atomically.
 *
 * @module
 */

import { MAX_SESSION_BYTES } from "../limits.ts";
import { TextSize } from "../utils/text_size.ts";

/** What a session has counted since it began (counters survive new generations). */
export type SessionCounters = SessionState["counters"];

/** The state of one session. */
export interface SessionState {
  /** The hash of the catalogue of the current generation, `null` before the first. */
  catalogHash: string | null;
  /** The generation number: 1 for the first catalogue, +1 for each new catalogue hash. */
  generation: number;
  /** Ids described in this generation → the hash of the schema sent. */
  described: Record<string, string>;
  /** Hashes of the describe bodies sent in this generation. */
  seen: string[];
  /** What the session has counted since it began (counters survive new generations). */
  counters: {
    /** Searches. */
    searches: number;
    /** Searches that found nothing. */
    emptySearches: number;
    /** Describes, elided ones included. */
    describes: number;
    /** Describes answered with "sent earlier" instead of the schema. */
    elidedDescribes: number;
    /** Executes resolved for the host to run. */
    executes: number;
    /** Executes of a tool whose schema the model had been sent. */
    describeToExecute: number;
    /** Model mistakes, by code. */
    errors: Record<string, number>;
    /** Upstream tool calls that failed, as reported by the host. */
    upstreamFailures: number;
    /** The tokens of every answer handed to the model (its text, markers included). */
    tokensReturned: number;
    /** Answers cut at the result ceiling. */
    resultsCut: number;
    /** Calls of `more`, answered or not. */
    moreCalls: number;
    /** Scripts run (code mode); absent until the first. */
    runs?: number;
    /** Real calls made by scripts (each also counts as an execute); absent until the first. */
    scriptCalls?: number;
  };
  /** When the session began, in ms since the epoch. */
  createdAt: number;
  /** When it last changed, in ms since the epoch. */
  updatedAt: number;
}

/** What happened, as the stateless front saw it; small, and never the catalogue itself. */
export type SessionEvent = SessionInput["event"];

/** One transition's input. */
export interface SessionInput {
  /** The catalogue hash of the request; absent for events without a catalogue (results). */
  catalogHash?: string;
  /** What happened, as the stateless front saw it; small, and never the catalogue itself. */
  event:
    | { kind: "inject" }
    | { kind: "search"; empty: boolean }
    | { kind: "describe"; id: string; schemaHash: string; bodyHash: string; resend: boolean }
    | {
      kind: "execute";
      id: string;
      schemaHash: string;
      bodyHash: string;
      enforce: boolean;
      valid: boolean;
    }
    | { kind: "error"; code: string }
    | { kind: "result"; isError: boolean; tokens?: number; cut?: boolean }
    | { kind: "answer"; tokens: number; cut: boolean; more: boolean; error?: string }
    | {
      kind: "run";
      /**
       * Where the calls came from: a script, never the model's own execute, so that what learns
       * from the model's choices (search's prior) can tell them apart.
       */
      origin: "script";
      /** Each real call the script made, in order. */
      calls: readonly { id: string; ok: boolean }[];
    };
}

/** The session's decision about the event. */
export type SessionDecision =
  | { kind: "recorded" }
  | { kind: "describe"; elided: boolean }
  | { kind: "execute"; verdict: "execute" | "describe_first" | "invalid_arguments" }
  | { kind: "full"; bytes: number; limit: number };

/**
 * The most body hashes kept per generation; the oldest are forgotten first (their schemas are then
 * sent again). 2,000 hashes take about 38 KB, within `MAX_SESSION_BYTES` (64 KiB).
 */
export const MAX_SEEN = 2_000;

/**
 * The size of a session's state: the UTF-8 bytes of its JSON, as a store keeps it.
 *
 * @param state The state.
 * @returns Its size in bytes.
 *
 * @example Usage
 * ```ts
 * import { emptySession, sessionBytes } from "./state.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(sessionBytes(emptySession(0)) < 300);
 * ```
 */
export function sessionBytes(state: SessionState): number {
  return textBytes(state);
}

/**
 * A new, empty session.
 *
 * @param now The time, in ms since the epoch.
 * @returns The state.
 *
 * @example Usage
 * ```ts
 * import { emptySession } from "./state.ts";
 * import { equal } from "node:assert/strict";
 *
 * const state = emptySession(1_000);
 * equal(state.generation, 0);
 * equal(state.counters.searches, 0);
 * ```
 */
export function emptySession(now: number): SessionState {
  return {
    catalogHash: null,
    generation: 0,
    described: {},
    seen: [],
    counters: {
      searches: 0,
      emptySearches: 0,
      describes: 0,
      elidedDescribes: 0,
      executes: 0,
      describeToExecute: 0,
      errors: {},
      upstreamFailures: 0,
      tokensReturned: 0,
      resultsCut: 0,
      moreCalls: 0,
    },
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Applies one event to a session: a new catalogue hash starts a new generation (described and seen
 * cleared, counters kept); a describe of a body already sent is elided unless `resend`; an execute
 * of a tool not described (when enforced) is refused with `describe_first` and marks the tool
 * described, since the refusal carries its schema. An event that would grow the state past
 * {@linkcode MAX_SESSION_BYTES} makes the session forget its least recently sent schemas (they are
 * sent again when asked for) until it fits, so a session never dead-ends; `full` is answered only
 * if even an empty memory could not hold the event, which no event kind can reach.
 *
 * @param previous The state, or `undefined` for a new session.
 * @param input The event and its catalogue hash.
 * @param now The time, in ms since the epoch.
 * @returns The new state (a fresh object that may share with `previous` the records the event
 * left as they were; `previous` is not modified) and the decision; for `full`, the state before
 * the event.
 *
 * @example Usage
 * ```ts
 * import { transition } from "./state.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const execute = { kind: "execute", id: "a/b", schemaHash: "s1", bodyHash: "b1", enforce: true, valid: true } as const;
 * const first = transition(undefined, { catalogHash: "c1", event: execute }, 0);
 * deepEqual(first.decision, { kind: "execute", verdict: "describe_first" });
 * const second = transition(first.state, { catalogHash: "c1", event: execute }, 1);
 * deepEqual(second.decision, { kind: "execute", verdict: "execute" });
 * equal(second.state.counters.describeToExecute, 1);
 * ```
 */
export function transition(
  previous: SessionState | undefined,
  input: SessionInput,
  now: number,
): { state: SessionState; decision: SessionDecision } {
  const base = previous ?? emptySession(now);
  const next = apply(base, input, now);
  const bytes = sizeOf(next.state, base);
  if (bytes <= MAX_SESSION_BYTES || bytes <= sizeOf(base)) return next;
  // Full: forget the oldest records (the model may be sent those schemas again) rather than refuse,
  // so no session ever reaches a state where every describe fails. The records are the new
  // state's own from here: forgetting must not touch `previous`.
  next.state.described = { ...next.state.described };
  next.state.seen = [...next.state.seen];
  SIZES.delete(next.state);
  if (forget(next.state, bytes - MAX_SESSION_BYTES)) return next;
  return { state: base, decision: { kind: "full", bytes, limit: MAX_SESSION_BYTES } };
}

// The size of each state made here, so that an event that moves only counters (most of them: a
// search, a result, an execute of a described tool) costs the counters' text, not a copy and a
// serialisation of every record: with 300 tools described, an execute took 119 µs in process
// against 11 µs with one.
const SIZES = new WeakMap<SessionState, number>();

// Exact: JSON.stringify writes the members in the same order, so a state whose records are its
// base's differs only in the text of its counters and of its times.
function sizeOf(state: SessionState, base?: SessionState): number {
  let bytes = SIZES.get(state);
  if (bytes !== undefined) return bytes;
  const known = base === undefined ? undefined : SIZES.get(base);
  bytes = known !== undefined && state.described === base!.described &&
      state.seen === base!.seen && state.catalogHash === base!.catalogHash &&
      state.generation === base!.generation && state.createdAt === base!.createdAt
    ? known + countersBytes(state.counters) - countersBytes(base!.counters) +
      textBytes(state.updatedAt) - textBytes(base!.updatedAt)
    : sessionBytes(state);
  SIZES.set(state, bytes);
  return bytes;
}

// The counters' text size, kept with them: each state's counters are sized once, as the new
// state's, and read back as the next event's base's.
const COUNTER_SIZES = new WeakMap<SessionCounters, number>();

function countersBytes(counters: SessionCounters): number {
  let bytes = COUNTER_SIZES.get(counters);
  if (bytes === undefined) COUNTER_SIZES.set(counters, bytes = textBytes(counters));
  return bytes;
}

// Counted, not encoded: an encoding allocates the bytes only to read their length.
function textBytes(value: unknown): number {
  const size = new TextSize();
  size.add(JSON.stringify(value));
  return size.bytes;
}

// Drops the oldest described ids and sent-body hashes until the state is at least `excess` bytes
// smaller, then checks the real size. Each record's size is counted from its own JSON text, so
// the work is linear in the records dropped plus one serialisation. False when even an empty
// memory would not fit (counters alone over the limit: never with the event kinds there are).
function forget(state: SessionState, excess: number): boolean {
  const ids = Object.keys(state.described);
  let dropIds = 0;
  let dropSeen = 0;
  let freed = 0;
  while (freed < excess) {
    // Keep the two lists about the same length, oldest first from each.
    const moreSeen = state.seen.length - dropSeen > ids.length - dropIds;
    if (moreSeen && dropSeen < state.seen.length) {
      freed += utf8Bytes(state.seen[dropSeen++]!) + 1;
    } else if (dropIds < ids.length) {
      const id = ids[dropIds++]!;
      freed += utf8Bytes(id) + utf8Bytes(state.described[id]!) + 2;
    } else if (dropSeen < state.seen.length) {
      freed += utf8Bytes(state.seen[dropSeen++]!) + 1;
    } else break;
  }
  for (const id of ids.slice(0, dropIds)) delete state.described[id];
  state.seen.splice(0, dropSeen);
  return sessionBytes(state) <= MAX_SESSION_BYTES;
}

function utf8Bytes(text: string): number {
  return textBytes(text);
}

const ZERO_COUNTERS: Readonly<SessionCounters> = emptySession(0).counters;

function answered(c: SessionCounters, tokens: number, cut: boolean): void {
  c.tokensReturned += Number.isSafeInteger(tokens) && tokens > 0 ? tokens : 0;
  if (cut) c.resultsCut += 1;
}

function apply(
  base: SessionState,
  input: SessionInput,
  now: number,
): { state: SessionState; decision: SessionDecision } {
  // The records are copied only by an event that changes them (copy on write).
  const state: SessionState = {
    ...base,
    // A state kept before a counter existed reads it as 0.
    counters: { ...ZERO_COUNTERS, ...base.counters, errors: { ...base.counters.errors } },
    updatedAt: now,
  };
  if (input.catalogHash !== undefined && input.catalogHash !== state.catalogHash) {
    state.catalogHash = input.catalogHash;
    state.generation += 1;
    state.described = {};
    state.seen = [];
  }
  const c = state.counters;
  const event = input.event;
  const error = (code: string) => c.errors[code] = (c.errors[code] ?? 0) + 1;
  const send = (id: string, schemaHash: string, bodyHash: string) => {
    if (state.described === base.described) state.described = { ...base.described };
    if (state.seen === base.seen) state.seen = [...base.seen];
    // Re-inserted, so the keys stay in the order of last use and a full session forgets the
    // schemas sent longest ago first.
    delete state.described[id];
    state.described[id] = schemaHash;
    const at = state.seen.indexOf(bodyHash);
    if (at !== -1) state.seen.splice(at, 1);
    state.seen.push(bodyHash);
    if (state.seen.length > MAX_SEEN) state.seen.splice(0, state.seen.length - MAX_SEEN);
  };
  switch (event.kind) {
    case "inject":
      return { state, decision: { kind: "recorded" } };
    case "search":
      c.searches += 1;
      if (event.empty) c.emptySearches += 1;
      return { state, decision: { kind: "recorded" } };
    case "describe": {
      c.describes += 1;
      const elided = !event.resend && state.seen.includes(event.bodyHash);
      if (elided) c.elidedDescribes += 1;
      send(event.id, event.schemaHash, event.bodyHash);
      return { state, decision: { kind: "describe", elided } };
    }
    case "execute": {
      const described = state.described[event.id] === event.schemaHash;
      if (event.enforce && !described) {
        error("describe_first");
        send(event.id, event.schemaHash, event.bodyHash);
        return { state, decision: { kind: "execute", verdict: "describe_first" } };
      }
      if (!event.valid) {
        error("invalid_arguments");
        return { state, decision: { kind: "execute", verdict: "invalid_arguments" } };
      }
      c.executes += 1;
      if (described) c.describeToExecute += 1;
      return { state, decision: { kind: "execute", verdict: "execute" } };
    }
    case "error":
      error(event.code);
      return { state, decision: { kind: "recorded" } };
    case "result":
      if (event.isError) c.upstreamFailures += 1;
      answered(c, event.tokens ?? 0, event.cut === true);
      return { state, decision: { kind: "recorded" } };
    case "answer":
      answered(c, event.tokens, event.cut);
      if (event.more) c.moreCalls += 1;
      if (event.error !== undefined) error(event.error);
      return { state, decision: { kind: "recorded" } };
    case "run": {
      c.runs = (c.runs ?? 0) + 1;
      c.scriptCalls = (c.scriptCalls ?? 0) + event.calls.length;
      c.executes += event.calls.length;
      for (const call of event.calls) if (!call.ok) c.upstreamFailures += 1;
      return { state, decision: { kind: "recorded" } };
    }
  }
}
