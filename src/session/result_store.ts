/**
 * Where the rest of a cut answer is kept for `more`: the {@linkcode ResultStore} strategy, which
 * the session stores implement (in memory for Deno, in each session's Durable Object on Workers),
 * so what is kept lives and expires with its session. A store keeps an answer's laid-out text
 * and layout, and reads a part of it on request, recording where the next one starts.
 *
 * @module
 */

import type { AnswerLayout } from "../bridge/answer.ts";
import type { Ceiling } from "../bridge/ceiling.ts";
import type { PartRead, PartStart } from "../bridge/part.ts";
import type { SessionKey } from "./store.ts";

/**
 * Whose kept answers: a session of a tenant and, inside it, a scope (the gateway's profile): a
 * ref kept under one key is unknown under any other.
 */
export interface ResultKey extends SessionKey {
  /** A boundary inside the session, such as the gateway's profile; none is `""`. */
  scope?: string;
}

/** What a store keeps of a cut answer: its laid-out text, its layout, where part 2 starts. */
export interface KeptAnswer {
  /** The content's text and blocks, then the structured copy's JSON (`answer.ts`). */
  text: string;
  /** Where each part is in the text. */
  layout: AnswerLayout;
  /** Where the second part starts. */
  next: PartStart;
}

/** Whether a cut answer was kept: its id, or why not. */
export type KeepOutcome =
  | { ok: true; id: string }
  | { ok: false; reason: "too_large"; limit: number };

/** A part read from a kept answer: where it started, the part, and its answer's layout. */
export interface KeptPart {
  /** The answer's layout. */
  layout: AnswerLayout;
  /** Where the part started. */
  start: PartStart;
  /** The part. */
  read: PartRead;
}

/**
 * A store of cut answers. Contract (checked by `test/_contracts/result_store_contract.ts`):
 * `keep` answers an id of 12 of `a-z 0-9` unique in the session, or `too_large` for an answer
 * over the session's bound; `part` answers part `n` of a kept answer once part `n - 1` has been
 * read (part 2 at once), the same every time it is read again, and `undefined` for an id, part,
 * session, tenant or scope it does not keep; a session's kept answers go when it expires or is
 * deleted, the oldest first when a bound is reached.
 */
export interface ResultStore {
  /**
   * Keeps the rest of a cut answer.
   *
   * @param key Whose.
   * @param kept The answer's text, layout and where part 2 starts.
   * @returns Its id, or why it is not kept.
   */
  keep(key: ResultKey, kept: KeptAnswer): KeepOutcome | Promise<KeepOutcome>;
  /**
   * Reads a part of a kept answer, within a ceiling (a store outside the process measures it with
   * the default estimate).
   *
   * @param key Whose.
   * @param id The kept answer's id.
   * @param part The part's number, from 2.
   * @param ceiling The ceilings of the part.
   * @returns The part, or `undefined` when it is not kept.
   */
  part(
    key: ResultKey,
    id: string,
    part: number,
    ceiling: Ceiling,
  ): KeptPart | undefined | Promise<KeptPart | undefined>;
}

/**
 * Whether a session store also keeps cut answers.
 *
 * @param store A session store.
 * @returns Whether it is a {@linkcode ResultStore}.
 *
 * @example Usage
 * ```ts
 * import { isResultStore } from "./result_store.ts";
 * import { MemorySessionStore } from "./memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(isResultStore(new MemorySessionStore()), true);
 * ```
 */
export function isResultStore(store: object): store is ResultStore {
  const candidate = store as Partial<ResultStore>;
  return typeof candidate.keep === "function" && typeof candidate.part === "function";
}

/**
 * The size a kept answer counts against its bounds: two bytes per code unit of its text (what a
 * JavaScript string or a stored chunk takes at most) and a little for its layout.
 *
 * @param kept The kept answer.
 * @returns Its size, in bytes.
 *
 * @example Usage
 * ```ts
 * import { keptBytes } from "./result_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const layout = { shape: "text" as const, items: [], contentTokens: 0, contentBytes: 0, structuredTokens: 0 };
 * equal(keptBytes({ text: "abc", layout, next: { part: 2 } }), 6 + 256);
 * ```
 */
export function keptBytes(kept: KeptAnswer): number {
  return 2 * kept.text.length + 64 * kept.layout.items.length + 256;
}

/** What one recorded part start counts against the bounds, in bytes. */
export const PART_START_BYTES = 64;

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A random id of a kept answer: 12 of `a-z 0-9` (62 bits), so that a ref is never guessed.
 *
 * @returns The id.
 *
 * @example Usage
 * ```ts
 * import { randomId } from "./result_store.ts";
 * import { match } from "node:assert/strict";
 *
 * match(randomId(), /^[a-z0-9]{12}$/);
 * ```
 */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  let id = "";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}
