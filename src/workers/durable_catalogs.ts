/**
 * The catalogue store of the Workers deployment: one Durable Object per tenant and catalogue hash
 * (`CatalogObject`), reached through the `CATALOGS` namespace binding. A fresh isolate loads a
 * catalogue named by `catalogRef` from it, and its search index when a search has saved one.
 *
 * Why Durable Objects: they are strongly consistent (a catalogue saved by one request is there for
 * the next, whatever isolate or location serves it; Workers KV may take a minute to show a new
 * key elsewhere), they are the binding this Worker already uses (R2 would add a bucket), and a
 * name per tenant and hash keeps tenants apart by construction. Limits designed for: 2 MB per
 * stored value (SQLite-backed objects, production), so text is cut into 512 Ki-character chunks
 * and indexes into 1 MiB chunks; 32 MiB per RPC message, so text goes in parts of at most
 * {@linkcode RPC_CHARS} each way; at most {@linkcode MAX_STORED_CHARS} of text per catalogue
 * (more than the largest body the API accepts by default): a larger one stays in memory only.
 *
 * @module
 */

import type { McpCatalog } from "../catalog.ts";
import type { CatalogStore, RankerSnapshot, StoredCatalog } from "../http/catalog_cache.ts";
import type { CatalogRecord, TextPart } from "./catalog_object.ts";

/** The most characters of catalogue text saved (a larger catalogue is kept in memory only). */
export const MAX_STORED_CHARS = 32 * 1024 * 1024;
/** The most characters of text one RPC carries (16 MiB even at two bytes a character). */
export const RPC_CHARS = 8 * 1024 * 1024;
const TEXT_CHUNK_CHARS = 512 * 1024;
const CHUNKS_PER_CALL = RPC_CHARS / TEXT_CHUNK_CHARS;
const INDEX_CHUNK_BYTES = 1024 * 1024;

/** The RPC surface of the catalogue Durable Object (see `catalog_object.ts`). */
export interface CatalogObjectStub {
  save(text: string[], part?: TextPart): Promise<boolean | void>;
  saveIndex(format: string, chunks: Uint8Array[]): Promise<boolean>;
  load(from?: number): Promise<CatalogRecord | undefined>;
}

/** The part of a Durable Object namespace binding the store uses. */
export interface CatalogNamespace {
  idFromName(name: string): unknown;
  get(id: unknown): CatalogObjectStub;
}

/**
 * Catalogues in Durable Objects, one per tenant and hash, with their search indexes.
 *
 * @example Usage
 * ```ts
 * import { DurableCatalogStore } from "./durable_catalogs.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * // An in-memory stand-in for the binding; the Worker passes env.CATALOGS.
 * const objects = new Map<string, { text?: string[] }>();
 * const namespace = {
 *   idFromName: (name: string) => name,
 *   get: (id: unknown) => {
 *     const state = objects.get(id as string) ?? {};
 *     objects.set(id as string, state);
 *     return {
 *       save: (text: string[]) => Promise.resolve(void (state.text = text)),
 *       saveIndex: () => Promise.resolve(false),
 *       load: () => Promise.resolve(state.text && { text: state.text }),
 *     };
 *   },
 * };
 * const store = new DurableCatalogStore(namespace);
 * const catalog = new McpCatalog([{ server: "s", name: "t", description: "", inputSchema: { type: "object" } }]);
 * await store.save("tenant", "ab12", catalog);
 * equal((await store.load("tenant", "ab12"))?.catalog.tools[0]?.name, "t");
 * equal(await store.load("other", "ab12"), undefined);
 * ```
 */
export class DurableCatalogStore implements CatalogStore {
  #namespace: CatalogNamespace;

  /**
   * Makes the store.
   *
   * @param namespace The Durable Object namespace binding of `CatalogObject`.
   */
  constructor(namespace: CatalogNamespace) {
    this.#namespace = namespace;
  }

  /**
   * Saves a catalogue's text, unless it is larger than {@linkcode MAX_STORED_CHARS}.
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @param catalog The catalogue.
   */
  async save(tenant: string, hash: string, catalog: McpCatalog): Promise<void> {
    const text = JSON.stringify({ tools: catalog.tools, servers: catalog.servers });
    if (text.length > MAX_STORED_CHARS) return;
    const chunks: string[] = [];
    for (let i = 0; i < text.length; i += TEXT_CHUNK_CHARS) {
      chunks.push(text.slice(i, i + TEXT_CHUNK_CHARS));
    }
    const stub = this.#stub(tenant, hash);
    for (let offset = 0; offset < chunks.length; offset += CHUNKS_PER_CALL) {
      const part = chunks.slice(offset, offset + CHUNKS_PER_CALL);
      // The object already holds this catalogue (its name is its content): nothing more to send.
      if (await stub.save(part, { offset, total: chunks.length }) === true) return;
    }
  }

  /**
   * Loads a catalogue.
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @returns The catalogue and its text's length, or `undefined` when it is not saved.
   */
  async load(
    tenant: string,
    hash: string,
  ): Promise<{ catalog: StoredCatalog; chars: number; index?: RankerSnapshot } | undefined> {
    const stub = this.#stub(tenant, hash);
    const record = await stub.load(0);
    if (record === undefined) return undefined;
    const pages = [...record.text];
    const total = record.textChunks ?? pages.length;
    while (pages.length < total) {
      const more = await stub.load(pages.length);
      if (more === undefined || more.text.length === 0) return undefined;
      pages.push(...more.text);
    }
    const text = pages.join("");
    const catalog = JSON.parse(text) as StoredCatalog;
    if (record.index === undefined) return { catalog, chars: text.length };
    const chunks = record.index.chunks;
    const bytes = chunks.length === 1 ? chunks[0]! : new Uint8Array(
      chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0),
    );
    if (chunks.length > 1) {
      let at = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, at);
        at += chunk.byteLength;
      }
    }
    return { catalog, chars: text.length, index: { format: record.index.format, bytes } };
  }

  /**
   * Saves a catalogue's search index (in 1 MiB chunks), if the catalogue is saved.
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @param index The ranker's snapshot.
   */
  async saveIndex(tenant: string, hash: string, index: RankerSnapshot): Promise<void> {
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < index.bytes.byteLength; i += INDEX_CHUNK_BYTES) {
      chunks.push(index.bytes.slice(i, i + INDEX_CHUNK_BYTES));
    }
    await this.#stub(tenant, hash).saveIndex(index.format, chunks);
  }

  #stub(tenant: string, hash: string): CatalogObjectStub {
    const ns = this.#namespace;
    return ns.get(ns.idFromName(JSON.stringify(["catalog", tenant, hash])));
  }
}
