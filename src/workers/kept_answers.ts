/**
 * The cut answers one session keeps for `more`, in its Durable Object's storage: each answer's
 * text in chunks (SQLite-backed storage allows 2 MB a value; a chunk of 256 Ki code units takes
 * at most 512 KiB), its layout and the start of each part read so far, and an index of the
 * session's answers, oldest first, bounded in bytes (`UNFOLD_MAX_KEPT_BYTES`) and in count. A part
 * is read from the chunks it spans only. The session object's expiry deletes all of it with the
 * session. Pure over a narrow storage interface, so its bounds are tested without workerd too.
 *
 * @module
 */

import type { AnswerLayout } from "../bridge/answer.ts";
import type { Ceiling } from "../bridge/ceiling.ts";
import { type PartStart, readPart } from "../bridge/part.ts";
import { MAX_KEPT_ANSWERS_PER_SESSION } from "../limits.ts";
import { estimateTokens } from "../tokens.ts";
import type { KeepOutcome, KeptPart } from "../session/result_store.ts";
import { PART_START_BYTES } from "../session/result_store.ts";

/** The part of Durable Object storage kept answers use. */
export interface KeptStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  get<T = unknown>(keys: string[]): Promise<Map<string, T>>;
  put<T>(entries: Record<string, T>): Promise<void>;
  delete(keys: string[]): Promise<number>;
}

/** The code units of one stored chunk of an answer's text. */
export const CHUNK_UNITS = 256 * 1024;

/** The most chunks one keep call carries (an RPC message holds 32 MiB; this is at most 8 MiB). */
export const CHUNKS_PER_CALL = 16;

/** One keep call: a batch of an answer's chunks, and on the first call what the answer is. */
export interface KeepCall {
  /** The scope inside the session (the gateway's profile; `""` for none). */
  scope: string;
  /** Which chunks these are: the id the first call answered and the first chunk's index. */
  part?: { id: string; offset: number };
  /** The first call's: the answer's layout, where its part 2 starts, its chunk count and size. */
  answer?: { layout: AnswerLayout; next: PartStart; chunks: number; bytes: number };
  /** The chunks. */
  chunks: string[];
}

// The index: the session's kept answers, oldest first, and their bytes in all.
interface Index {
  bytes: number;
  answers: { id: string; bytes: number }[];
}

// An answer's record: its scope, layout, chunk count, the chunks arrived so far (it is read only
// once all have), and the last part whose start is recorded (from 2).
interface Meta {
  scope: string;
  layout: AnswerLayout;
  chunks: number;
  received: number;
  lastStart: number;
}

const INDEX = "kept";
const KEYS_PER_CALL = 128;
const metaKey = (id: string) => `kept:${id}`;
const chunkKey = (id: string, i: number) => `kept:${id}:c${i}`;
const startKey = (id: string, part: number) => `kept:${id}:s${part}`;

/**
 * Splits an answer's text into chunks of at most {@linkcode CHUNK_UNITS} code units, never
 * between the halves of a surrogate pair.
 *
 * @param text The text.
 * @returns The chunks (one empty chunk for an empty text).
 *
 * @example Usage
 * ```ts
 * import { chunksOf } from "./kept_answers.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(chunksOf("abc").length, 1);
 * ```
 */
export function chunksOf(text: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length || chunks.length === 0) {
    let end = Math.min(text.length, at + CHUNK_UNITS);
    const unit = text.charCodeAt(end - 1);
    if (end < text.length && unit >= 0xd800 && unit <= 0xdbff) end--;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}

/**
 * Keeps one batch of an answer: the first call makes its record and answers its id (or
 * `too_large` for an answer over the session's bound); the call that brings the last chunk
 * makes it readable and lets the session's oldest answers go past its bounds.
 *
 * @param storage The session object's storage.
 * @param call The batch.
 * @param limit The most bytes the session keeps.
 * @param newId Makes an answer's id.
 * @returns The id, or why the answer is not kept.
 */
export async function keepBatch(
  storage: KeptStorage,
  call: KeepCall,
  limit: number,
  newId: () => string,
): Promise<KeepOutcome> {
  let id: string;
  let meta: Meta | undefined;
  if (call.part === undefined) {
    const answer = call.answer;
    if (answer === undefined) {
      throw new TypeError("The first keep call must say what the answer is");
    }
    if (answer.bytes > limit) return { ok: false, reason: "too_large", limit };
    id = newId();
    meta = {
      scope: call.scope,
      layout: answer.layout,
      chunks: answer.chunks,
      received: 0,
      lastStart: 2,
    };
    const index = await storage.get<Index>(INDEX) ?? { bytes: 0, answers: [] };
    index.answers.push({ id, bytes: answer.bytes });
    index.bytes += answer.bytes;
    // Room first: the oldest answers go before the new one's chunks arrive.
    const gone: string[] = [];
    while (index.bytes > limit || index.answers.length > MAX_KEPT_ANSWERS_PER_SESSION) {
      const oldest = index.answers.shift()!;
      index.bytes -= oldest.bytes;
      gone.push(oldest.id);
    }
    await forget(storage, gone);
    await storage.put({ [INDEX]: index, [startKey(id, 2)]: answer.next });
  } else {
    id = call.part.id;
    meta = await storage.get<Meta>(metaKey(id));
    if (meta === undefined || meta.scope !== call.scope) {
      return { ok: false, reason: "too_large", limit };
    }
  }
  const offset = call.part?.offset ?? 0;
  const entries: Record<string, unknown> = {};
  call.chunks.forEach((chunk, i) => entries[chunkKey(id, offset + i)] = chunk);
  meta.received = Math.max(meta.received, offset + call.chunks.length);
  entries[metaKey(id)] = meta;
  await putAll(storage, entries);
  return { ok: true, id };
}

/**
 * Reads a part of a kept answer from the chunks it spans (with the default estimate), and
 * records where the next part starts.
 *
 * @param storage The session object's storage.
 * @param scope The scope it is asked in.
 * @param id The answer's id.
 * @param part The part's number, from 2.
 * @param ceiling The token and byte ceilings.
 * @returns The part, or `undefined` when it is not kept (here, in this scope, or not yet whole).
 */
export async function readKeptPart(
  storage: KeptStorage,
  scope: string,
  id: string,
  part: number,
  ceiling: Pick<Ceiling, "maxResultTokens" | "maxResultBytes">,
): Promise<KeptPart | undefined> {
  const meta = await storage.get<Meta>(metaKey(id));
  if (meta === undefined || meta.scope !== scope || meta.received < meta.chunks) return undefined;
  const start = await storage.get<PartStart>(startKey(id, part));
  if (start === undefined) return undefined;
  const cache = new Map<number, string>();
  const source = async (from: number, to: number): Promise<string> => {
    if (to <= from) return "";
    const first = Math.floor(from / CHUNK_UNITS);
    const last = Math.floor((to - 1) / CHUNK_UNITS);
    const missing: string[] = [];
    for (let i = first; i <= last; i++) if (!cache.has(i)) missing.push(chunkKey(id, i));
    if (missing.length > 0) {
      const got = await storage.get<string>(missing);
      for (let i = first; i <= last; i++) {
        const chunk = got.get(chunkKey(id, i));
        if (chunk !== undefined) cache.set(i, chunk);
      }
    }
    let text = "";
    for (let i = first; i <= last; i++) text += cache.get(i) ?? "";
    return text.slice(from - first * CHUNK_UNITS, to - first * CHUNK_UNITS);
  };
  const read = await readPart(source, meta.layout, start, { ...ceiling, estimateTokens });
  if (read.next !== undefined && part + 1 > meta.lastStart) {
    const index = await storage.get<Index>(INDEX);
    const entry = index?.answers.find((a) => a.id === id);
    if (index !== undefined && entry !== undefined) {
      entry.bytes += PART_START_BYTES;
      index.bytes += PART_START_BYTES;
      meta.lastStart = part + 1;
      await storage.put({
        [startKey(id, part + 1)]: read.next,
        [metaKey(id)]: meta,
        [INDEX]: index,
      });
    }
  }
  return { layout: meta.layout, start, read };
}

/**
 * The bytes of kept answers a session object holds, and how many (for tests and `/status`).
 *
 * @param storage The session object's storage.
 * @returns The bytes and the count.
 */
export async function keptSize(storage: KeptStorage): Promise<{ bytes: number; answers: number }> {
  const index = await storage.get<Index>(INDEX);
  return { bytes: index?.bytes ?? 0, answers: index?.answers.length ?? 0 };
}

// Deletes answers' records, chunks and part starts.
async function forget(storage: KeptStorage, ids: readonly string[]): Promise<void> {
  const keys: string[] = [];
  for (const id of ids) {
    const meta = await storage.get<Meta>(metaKey(id));
    keys.push(metaKey(id));
    for (let i = 0; i < (meta?.chunks ?? 0); i++) keys.push(chunkKey(id, i));
    for (let n = 2; n <= (meta?.lastStart ?? 2); n++) keys.push(startKey(id, n));
  }
  for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
    await storage.delete(keys.slice(i, i + KEYS_PER_CALL));
  }
}

async function putAll(storage: KeptStorage, entries: Record<string, unknown>): Promise<void> {
  const all = Object.entries(entries);
  for (let i = 0; i < all.length; i += KEYS_PER_CALL) {
    await storage.put(Object.fromEntries(all.slice(i, i + KEYS_PER_CALL)));
  }
}
