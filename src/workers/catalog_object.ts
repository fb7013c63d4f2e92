/**
 * The Durable Object that keeps one tenant's catalogue (one per tenant and catalogue hash), so a
 * fresh Worker isolate answers a `catalogRef` without the catalogue in the body: its text, and
 * once a search has built it, its search index. Values are stored in chunks (SQLite-backed storage
 * allows 2 MB a value in production); an alarm deletes a catalogue nobody has loaded for a session
 * time to live.
 *
 * @module
 */

import { DurableObject } from "cloudflare:workers";
import { CATALOG_EXPIRY, expireOrWait, ttlMs } from "./_expiry.ts";

/** What a catalogue object holds, as its store passes it in and gets it back. */
export interface CatalogRecord {
  /** The catalogue's JSON text (`{"tools": [...], "servers": [...]}`), in chunks: all, or a page. */
  text: string[];
  /** How many chunks the whole text has (a load answers a page of them at a time). */
  textChunks?: number;
  /** Its search index, when one was saved: the ranker's format and its bytes, in chunks. */
  index?: { format: string; chunks: Uint8Array[] };
}

// The record's layout: "meta" holds the counts; "text:<i>" and "index:<i>" the chunks.
interface Meta {
  textChunks: number;
  index?: { format: string; chunks: number };
  lastUsed: number;
}

/** Where a part of a catalogue's text goes: the index of its first chunk, and the count of all. */
export interface TextPart {
  /** The index of the part's first chunk. */
  offset: number;
  /** How many chunks the whole text has. */
  total: number;
}

const META = CATALOG_EXPIRY.key;
// The most text chunks one load answers (8 Mi characters: an RPC message holds 32 MiB).
const CHUNKS_PER_LOAD = 16;
// Storage writes at most this many keys at once.
const KEYS_PER_CALL = 128;

/**
 * One catalogue in SQLite-backed Durable Object storage. Its name is the tenant and the hash, so
 * its content never changes once saved (saving again only refreshes it); no tenant can name
 * another's.
 */
export class CatalogObject extends DurableObject<Record<string, unknown>> {
  #ttlMs(): number {
    return ttlMs(this.env);
  }

  /**
   * Saves the catalogue's text, whole or one part at a time (a large text does not fit one RPC
   * message); the first part drops anything an unfinished earlier save left, the last one makes
   * the catalogue loadable.
   *
   * @param text The text, or a part of it, in chunks of at most 1 MiB each.
   * @param part Where the part goes; the whole text when absent.
   * @returns Whether the object already held the whole catalogue (the rest need not be sent).
   */
  async save(text: string[], part?: TextPart): Promise<boolean> {
    const offset = part?.offset ?? 0;
    const total = part?.total ?? text.length;
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta?.textChunks === total) {
      await this.#used(meta, true);
      return true;
    }
    if (offset === 0) await this.ctx.storage.deleteAll();
    await this.#putAll(text.map((chunk, i) => [`text:${offset + i}`, chunk]));
    if (offset + text.length === total) await this.#used({ textChunks: total, lastUsed: 0 }, true);
    return false;
  }

  /**
   * Saves the catalogue's search index, built by a search.
   *
   * @param format The ranker's snapshot format (a load checks it).
   * @param chunks The index's bytes, in chunks of at most 1 MiB each.
   * @returns Whether it was saved (there is a catalogue to index).
   */
  async saveIndex(format: string, chunks: Uint8Array[]): Promise<boolean> {
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta === undefined) return false;
    if (meta.index?.format === format && meta.index.chunks === chunks.length) return true;
    await this.#putAll(chunks.map((chunk, i) => [`index:${i}`, chunk]));
    await this.#used({ ...meta, index: { format, chunks: chunks.length } }, true);
    return true;
  }

  /**
   * Loads the catalogue, a page of its text at a time.
   *
   * @param from The first text chunk to answer; the first page also carries the index.
   * @returns A page of its text (with the count of all its chunks) and, on the first page, its
   * index; `undefined` when none is saved.
   */
  async load(from = 0): Promise<CatalogRecord | undefined> {
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta === undefined) return undefined;
    const count = Math.max(0, Math.min(CHUNKS_PER_LOAD, meta.textChunks - from));
    const keys = [
      ...Array.from({ length: count }, (_, i) => `text:${from + i}`),
      ...Array.from({ length: from === 0 ? meta.index?.chunks ?? 0 : 0 }, (_, i) => `index:${i}`),
    ];
    const values = new Map<string, unknown>();
    for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
      for (const [key, value] of await this.ctx.storage.get(keys.slice(i, i + KEYS_PER_CALL))) {
        values.set(key, value);
      }
    }
    const text = keys.filter((k) => k.startsWith("text:")).map((k) => values.get(k) as string);
    if (text.some((chunk) => typeof chunk !== "string")) {
      // A chunk is missing (two saves in parts crossed): forget it all, so the next save rewrites it.
      await this.ctx.storage.deleteAll();
      return undefined;
    }
    const textChunks = meta.textChunks;
    if (from > 0) return { text, textChunks };
    await this.#used(meta, false);
    if (meta.index === undefined) return { text, textChunks };
    const chunks = keys.filter((k) => k.startsWith("index:")).map((k) => values.get(k));
    if (!chunks.every((chunk) => chunk instanceof Uint8Array)) return { text, textChunks };
    return {
      text,
      textChunks,
      index: { format: meta.index.format, chunks: chunks as Uint8Array[] },
    };
  }

  /** Deletes the catalogue once nobody has loaded it for a time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    await expireOrWait(this.ctx.storage, CATALOG_EXPIRY, this.#ttlMs());
  }

  // Records a use; a load writes only when the last recorded use is a quarter of the TTL old.
  async #used(meta: Meta, changed: boolean): Promise<void> {
    const now = Date.now();
    if (!changed && now - meta.lastUsed < this.#ttlMs() / 4) return;
    await this.ctx.storage.put(META, { ...meta, lastUsed: now });
    await this.ctx.storage.setAlarm(now + this.#ttlMs());
  }

  async #putAll(entries: [string, unknown][]): Promise<void> {
    for (let i = 0; i < entries.length; i += KEYS_PER_CALL) {
      await this.ctx.storage.put(Object.fromEntries(entries.slice(i, i + KEYS_PER_CALL)));
    }
  }
}
