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
import { settingsFromEnv } from "../http/settings.ts";

/** What a catalogue object holds, as its store passes it in and gets it back. */
export interface CatalogRecord {
  /** The catalogue's JSON text (`{"tools": [...], "servers": [...]}`), in chunks. */
  text: string[];
  /** Its search index, when one was saved: the ranker's format and its bytes, in chunks. */
  index?: { format: string; chunks: Uint8Array[] };
}

// The record's layout: "meta" holds the counts; "text:<i>" and "index:<i>" the chunks.
interface Meta {
  textChunks: number;
  index?: { format: string; chunks: number };
  lastUsed: number;
}

const META = "meta";
// Storage writes at most this many keys at once.
const KEYS_PER_CALL = 128;

/**
 * One catalogue in SQLite-backed Durable Object storage. Its name is the tenant and the hash, so
 * its content never changes once saved (saving again only refreshes it); no tenant can name
 * another's.
 */
export class CatalogObject extends DurableObject<Record<string, unknown>> {
  #ttlMs(): number {
    return settingsFromEnv(this.env).sessionTtlSeconds * 1000;
  }

  /**
   * Saves the catalogue's text (and drops any index of an earlier save).
   *
   * @param text The text, in chunks of at most 1 MiB each.
   */
  async save(text: string[]): Promise<void> {
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta?.textChunks === text.length) return this.#used(meta, true);
    await this.ctx.storage.deleteAll();
    await this.#putAll(text.map((chunk, i) => [`text:${i}`, chunk]));
    await this.#used({ textChunks: text.length, lastUsed: 0 }, true);
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
   * Loads the catalogue.
   *
   * @returns Its text and index, or `undefined` when none is saved.
   */
  async load(): Promise<CatalogRecord | undefined> {
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta === undefined) return undefined;
    const keys = [
      ...Array.from({ length: meta.textChunks }, (_, i) => `text:${i}`),
      ...Array.from({ length: meta.index?.chunks ?? 0 }, (_, i) => `index:${i}`),
    ];
    const values = new Map<string, unknown>();
    for (let i = 0; i < keys.length; i += KEYS_PER_CALL) {
      for (const [key, value] of await this.ctx.storage.get(keys.slice(i, i + KEYS_PER_CALL))) {
        values.set(key, value);
      }
    }
    const text = keys.filter((k) => k.startsWith("text:")).map((k) => values.get(k) as string);
    if (text.some((chunk) => typeof chunk !== "string")) return undefined;
    await this.#used(meta, false);
    if (meta.index === undefined) return { text };
    const chunks = keys.filter((k) => k.startsWith("index:")).map((k) => values.get(k));
    if (!chunks.every((chunk) => chunk instanceof Uint8Array)) return { text };
    return { text, index: { format: meta.index.format, chunks: chunks as Uint8Array[] } };
  }

  /** Deletes the catalogue once nobody has loaded it for a time to live; otherwise waits again. */
  async alarm(): Promise<void> {
    const meta = await this.ctx.storage.get<Meta>(META);
    if (meta === undefined) return;
    const expiry = meta.lastUsed + this.#ttlMs();
    if (Date.now() >= expiry) await this.ctx.storage.deleteAll();
    else await this.ctx.storage.setAlarm(expiry);
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
