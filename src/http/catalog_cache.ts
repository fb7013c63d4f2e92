/**
 * Catalogues a stateless API has already validated, per tenant: looked up by the JSON text that
 * arrived (a warm request neither parses nor validates its catalogue again) or by the catalogue's
 * hash (`catalogRef`); bounded in bytes and tools, least recently used evicted first. An optional
 * durable store keeps them beyond this process (Workers: a Durable Object per catalogue).
 *
 * @module
 */

import { canonicalJson, type Hasher } from "../canonical_json.ts";
import { type InvalidCatalogError, McpCatalog } from "../catalog.ts";
import type { ProgressiveConfig } from "../config.ts";
import { Injector } from "../injector.ts";
import { lexicalRanker } from "../ranking/lexical_ranker.ts";
import type { Ranker, RankerFactory } from "../ranking/ranker.ts";
import type { McpTool, ServerInfo } from "../tool.ts";
import type { Result } from "../result.ts";

/** A cached catalogue. */
export interface CachedCatalog {
  /** The tenant it belongs to (`""` when auth is off). */
  readonly tenant: string;
  /** The validated catalogue. */
  readonly catalog: McpCatalog;
  /** The hash of its canonical form (tools and servers, in any order): `catalogRef`, the session generation. */
  readonly catalogHash: string;
  /** Injectors over it, by configuration. */
  readonly injectors: Map<string, Injector>;
  /** The texts it arrived as (at most a few), which find it again. */
  readonly texts: string[];
  /** The bytes it counts against the cache's bound. */
  bytes: number;
  /** Its ranker once a search has built (or restored) it, and whether the store has its index. */
  readonly index: { ranker?: Ranker; stored: boolean };
}

/** A catalogue as a durable store keeps it. */
export interface StoredCatalog {
  /** The tools, validated and sorted by id. */
  tools: readonly McpTool[];
  /** The server information, sorted by server. */
  servers: readonly ServerInfo[];
}

/** Durable storage of catalogues by tenant and hash (the Workers deployment's Durable Objects). */
export interface CatalogStore {
  /**
   * Reads a catalogue.
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @returns The catalogue (as saved: validated, sorted), the length of its text and, when one
   * was saved, its search index; `undefined` when unknown.
   */
  load(
    tenant: string,
    hash: string,
  ): Promise<{ catalog: StoredCatalog; chars: number; index?: RankerSnapshot } | undefined>;
  /**
   * Saves a catalogue (idempotent: the hash names its content).
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @param catalog The catalogue.
   */
  save(tenant: string, hash: string, catalog: McpCatalog): Promise<void>;
  /**
   * Saves a catalogue's search index, once a search has built it (optional).
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash.
   * @param index The ranker's snapshot of it.
   */
  saveIndex?(tenant: string, hash: string, index: RankerSnapshot): Promise<void>;
}

/** A ranker's built index as bytes (see `Ranker.snapshot`). */
export interface RankerSnapshot {
  /** The ranker, version and settings that built it. */
  format: string;
  /** The index. */
  bytes: Uint8Array;
}

/** Options of {@linkcode CatalogCache}. */
export interface CatalogCacheOptions {
  /** Hashes canonical JSON. */
  hash: Hasher;
  /**
   * The most bytes kept, estimated: each catalogue counts {@linkcode catalogBytes} (four bytes per
   * character of its canonical JSON for the parsed tools, two per character of each text it
   * arrived as). The catalogue just used is kept even when it alone is over the bound.
   * @default {64 MiB}
   */
  maxBytes?: number;
  /**
   * The most tools kept across catalogues.
   * @default {DEFAULT_CACHE_TOOLS}
   */
  maxTools?: number;
  /** Where catalogues also live beyond this process, if anywhere. */
  store?: CatalogStore;
  /**
   * Ranks `search` (`deno task start` passes the one with word vectors).
   * @default {lexicalRanker}
   */
  ranker?: RankerFactory;
  /**
   * Reports a failure of the store (the request goes on: a catalogue it failed to save or load is
   * answered `catalog_unknown` when referenced, and the host sends it again).
   * @default {console.error}
   */
  onStoreError?: (error: unknown) => void;
}

/** What a `catalogRef` looks like: a catalogue hash, lower-case hex. */
export const CATALOG_REF: RegExp = /^[0-9a-f]{16,128}$/;

const INJECTORS_PER_CATALOG = 8;
// The texts that find one catalogue: its serialisations seen last.
const TEXTS_PER_CATALOG = 4;

/**
 * The bytes a catalogue of this many characters counts against a cache's bound: the parsed tools
 * (measured at 2.8 bytes a character for 10,000 real tools, counted as 4) and one text it arrived
 * as (two bytes a character at most). An app sizes its cache from its body limit with it, so
 * that the largest catalogue it accepts fits.
 *
 * @param chars The characters of the catalogue's JSON.
 * @returns The estimated bytes.
 *
 * @example Usage
 * ```ts
 * import { catalogBytes } from "./catalog_cache.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(catalogBytes(1_000), 6_000);
 * ```
 */
export function catalogBytes(chars: number): number {
  return (PARSED_BYTES_PER_CHAR + TEXT_BYTES_PER_CHAR) * chars;
}
const PARSED_BYTES_PER_CHAR = 4;
/** The default bound of a {@linkcode CatalogCache}, in estimated bytes. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * The default bound of a {@linkcode CatalogCache}, in tools across catalogues: what the largest
 * catalogue the body limit lets in holds, with room to spare.
 */
export const DEFAULT_CACHE_TOOLS = 50_000;
const TEXT_BYTES_PER_CHAR = 2;

/**
 * Catalogues by tenant and content. Past a bound, the tenant holding the most bytes loses its
 * least recently used catalogue first, and every tenant keeps its latest while any tenant holds
 * more than one: a tenant that sends many catalogues evicts its own, never another's only one.
 * A tenant finds only what it sent itself (by text or by hash): neither a reference nor the time a
 * request takes says whether another tenant sent a catalogue.
 *
 * @example Usage
 * ```ts
 * import { CatalogCache } from "./catalog_cache.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * const cache = new CatalogCache({ hash: sha256Hex });
 * const text = '[{"server":"s","name":"a","description":"","inputSchema":{"type":"object"}}]';
 * const added = await cache.add("tenant-a", text, JSON.parse(text), []);
 * if (!added.ok) throw added.error;
 * const entry = added.value;
 * equal(cache.byText("tenant-a", text), entry);
 * equal(await cache.byHash("tenant-a", entry.catalogHash), entry);
 * equal(cache.byText("tenant-b", text), undefined);
 * equal(await cache.byHash("tenant-b", entry.catalogHash), undefined);
 * ```
 */
export class CatalogCache {
  // Per tenant: its catalogues by text and hash, in recency order (the first is its oldest), and
  // the bytes and tools they count.
  #tenants = new Map<
    string,
    {
      byText: Map<string, CachedCatalog>;
      byHash: Map<string, CachedCatalog>;
      entries: Set<CachedCatalog>;
      bytes: number;
      tools: number;
    }
  >();
  #bytes = 0;
  #tools = 0;
  #hash: Hasher;
  #maxBytes: number;
  #maxTools: number;
  #store: CatalogStore | undefined;
  #ranker: RankerFactory;
  #onStoreError: (error: unknown) => void;

  /**
   * Makes an empty cache.
   *
   * @param options The hash function, the bounds and the durable store.
   */
  constructor(options: CatalogCacheOptions) {
    this.#hash = options.hash;
    this.#maxBytes = options.maxBytes ?? DEFAULT_CACHE_BYTES;
    this.#maxTools = options.maxTools ?? DEFAULT_CACHE_TOOLS;
    this.#store = options.store;
    this.#ranker = options.ranker ?? lexicalRanker;
    // deno-lint-ignore no-console
    this.#onStoreError = options.onStoreError ?? ((e) => console.error(e));
  }

  /**
   * The catalogue a tenant sent as this very text (one map lookup: nothing is parsed).
   *
   * @param tenant The tenant.
   * @param text The catalogue's text as it arrived (with its servers' text, see {@linkcode catalogText}).
   * @returns The cached catalogue, or `undefined`.
   */
  byText(tenant: string, text: string): CachedCatalog | undefined {
    const entry = this.#tenants.get(tenant)?.byText.get(text);
    if (entry !== undefined) this.#touch(entry);
    return entry;
  }

  /**
   * The catalogue a tenant sent with this hash: from memory, else from the durable store.
   *
   * @param tenant The tenant.
   * @param hash The catalogue's hash (`catalogRef`).
   * @returns The cached catalogue, or `undefined` when neither holds it.
   */
  async byHash(tenant: string, hash: string): Promise<CachedCatalog | undefined> {
    const entry = this.#tenants.get(tenant)?.byHash.get(hash);
    if (entry !== undefined) {
      this.#touch(entry);
      return entry;
    }
    let stored: Awaited<ReturnType<CatalogStore["load"]>>;
    try {
      stored = await this.#store?.load(tenant, hash);
    } catch (e) {
      // Unknown for now: the host sends the catalogue again.
      this.#onStoreError(e);
      return undefined;
    }
    if (stored === undefined) return undefined;
    const index: CachedCatalog["index"] = { stored: stored.index !== undefined };
    // A catalogue's tools, validated before they were saved and kept as they were: not again.
    const catalog = McpCatalog.restore(stored.catalog.tools as McpCatalog["tools"], {
      servers: stored.catalog.servers,
      ranker: capture(index, stored.index, this.#ranker),
    });
    return this.#insert(tenant, hash, catalog, stored.chars, undefined, index);
  }

  /**
   * Saves a catalogue's search index in the store, when a search has built it here and the store
   * does not have it yet (a fresh isolate then restores it instead of indexing the catalogue).
   *
   * @param entry The cached catalogue.
   * @returns The saving (failures are reported, never thrown), or `undefined` when there is
   * nothing to save.
   */
  saveIndex(entry: CachedCatalog): Promise<void> | undefined {
    const ranker = entry.index.ranker;
    if (entry.index.stored || ranker?.snapshot === undefined || !this.#store?.saveIndex) {
      return undefined;
    }
    entry.index.stored = true;
    return this.#store.saveIndex(entry.tenant, entry.catalogHash, ranker.snapshot())
      .catch(this.#onStoreError);
  }

  /**
   * Validates a catalogue a tenant sent, caches it under its text and hash, and saves it in the
   * durable store.
   *
   * @param tenant The tenant.
   * @param text The text it arrived as, or `undefined` when it came already parsed.
   * @param tools The tools, in any order.
   * @param servers Server information, in any order.
   * @returns The cached catalogue, or the {@linkcode InvalidCatalogError} of the first rule an
   * entry breaks (a request's catalogue is input, so a broken rule is a value).
   */
  async add(
    tenant: string,
    text: string | undefined,
    tools: readonly McpTool[],
    servers: readonly ServerInfo[],
  ): Promise<Result<CachedCatalog, InvalidCatalogError>> {
    const index: CachedCatalog["index"] = { stored: false };
    const created = McpCatalog.create(tools, {
      servers,
      ranker: capture(index, undefined, this.#ranker),
    });
    if (!created.ok) return created;
    const catalog = created.value;
    const canonical = canonicalCatalog(catalog);
    const hash = await this.#hash(canonical);
    const known = this.#tenants.get(tenant)?.byHash.get(hash);
    if (known !== undefined) {
      this.#touch(known);
      if (text !== undefined) this.#alias(known, text);
      return { ok: true, value: known };
    }
    await this.#store?.save(tenant, hash, catalog).catch(this.#onStoreError);
    return { ok: true, value: this.#insert(tenant, hash, catalog, canonical.length, text, index) };
  }

  /**
   * An injector over a cached catalogue for a configuration, reused while the catalogue is cached.
   *
   * @param entry The cached catalogue.
   * @param config The configuration changes.
   * @returns The injector.
   * @throws {RangeError} When the configuration is invalid.
   */
  injector(entry: CachedCatalog, config: Partial<ProgressiveConfig>): Injector {
    const key = canonicalJson(config);
    let injector = entry.injectors.get(key);
    if (injector === undefined) {
      injector = new Injector(entry.catalog, config);
      if (entry.injectors.size >= INJECTORS_PER_CATALOG) {
        entry.injectors.delete(entry.injectors.keys().next().value!);
      }
      entry.injectors.set(key, injector);
    }
    return injector;
  }

  #insert(
    tenant: string,
    hash: string,
    catalog: McpCatalog,
    canonicalChars: number,
    text: string | undefined,
    index: CachedCatalog["index"],
  ): CachedCatalog {
    let maps = this.#tenants.get(tenant);
    if (maps === undefined) {
      maps = { byText: new Map(), byHash: new Map(), entries: new Set(), bytes: 0, tools: 0 };
      this.#tenants.set(tenant, maps);
    }
    const entry: CachedCatalog = {
      tenant,
      catalog,
      catalogHash: hash,
      injectors: new Map(),
      texts: [],
      index,
      bytes: 0,
    };
    maps.byHash.set(hash, entry);
    maps.entries.add(entry);
    this.#count(entry, PARSED_BYTES_PER_CHAR * canonicalChars, catalog.size);
    if (text !== undefined) this.#alias(entry, text);
    this.#evict(entry);
    return entry;
  }

  #alias(entry: CachedCatalog, text: string): void {
    const byText = this.#tenants.get(entry.tenant)!.byText;
    if (byText.get(text) === entry) return;
    if (entry.texts.length >= TEXTS_PER_CATALOG) {
      const oldest = entry.texts.shift()!;
      byText.delete(oldest);
      this.#count(entry, -TEXT_BYTES_PER_CHAR * oldest.length, 0);
    }
    entry.texts.push(text);
    byText.set(text, entry);
    this.#count(entry, TEXT_BYTES_PER_CHAR * text.length, 0);
    this.#evict(entry);
  }

  #count(entry: CachedCatalog, bytes: number, tools: number): void {
    const maps = this.#tenants.get(entry.tenant)!;
    entry.bytes += bytes;
    maps.bytes += bytes;
    maps.tools += tools;
    this.#bytes += bytes;
    this.#tools += tools;
  }

  #touch(entry: CachedCatalog): void {
    const entries = this.#tenants.get(entry.tenant)!.entries;
    entries.delete(entry);
    entries.add(entry);
  }

  // While over a bound: the oldest catalogue of the tenant holding the most bytes, among tenants
  // with more than one (so a tenant's flood evicts its own, and every tenant keeps its latest);
  // when each holds only its latest, the heaviest tenant's. Never the catalogue just used.
  #evict(keep: CachedCatalog): void {
    while (this.#bytes > this.#maxBytes || this.#tools > this.#maxTools) {
      const victim = this.#victim(keep, 2) ?? this.#victim(keep, 1);
      if (victim === undefined) return;
      this.#drop(victim);
    }
  }

  #victim(keep: CachedCatalog, minEntries: number): CachedCatalog | undefined {
    let victim: CachedCatalog | undefined;
    let most = -1;
    for (const maps of this.#tenants.values()) {
      if (maps.bytes <= most || maps.entries.size < minEntries) continue;
      const [oldest, second] = maps.entries;
      const candidate = oldest === keep ? second : oldest;
      if (candidate === undefined) continue;
      victim = candidate;
      most = maps.bytes;
    }
    return victim;
  }

  #drop(entry: CachedCatalog): void {
    const maps = this.#tenants.get(entry.tenant)!;
    maps.entries.delete(entry);
    maps.byHash.delete(entry.catalogHash);
    for (const text of entry.texts) maps.byText.delete(text);
    maps.bytes -= entry.bytes;
    maps.tools -= entry.catalog.size;
    this.#bytes -= entry.bytes;
    this.#tools -= entry.catalog.size;
    if (maps.entries.size === 0) this.#tenants.delete(entry.tenant);
  }
}

// The cache's ranker, restored from a stored index when there is one in its format, and kept where
// the cache can save its index.
function capture(
  index: CachedCatalog["index"],
  stored: RankerSnapshot | undefined,
  ranker: RankerFactory,
): RankerFactory {
  return (tools, options) => {
    const restored = stored === undefined ? undefined : ranker.restore?.(tools, options, stored);
    // A stored index of another format (an older build) is replaced by this one.
    if (restored === undefined) index.stored = false;
    return index.ranker = restored ?? ranker(tools, options);
  };
}

/**
 * The key {@linkcode CatalogCache.prototype.byText} takes: a catalogue's text and its servers'
 * text as they arrived (NUL cannot occur in JSON text, so the join is unambiguous).
 *
 * @param catalog The `catalog` member's text.
 * @param servers The `servers` member's text, if any.
 * @returns The key.
 *
 * @example Usage
 * ```ts
 * import { catalogText } from "./catalog_cache.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(catalogText("[]", undefined), "[]");
 * equal(catalogText("[]", "[]"), "[]\u0000[]");
 * ```
 */
export function catalogText(catalog: string, servers: string | undefined): string {
  return servers === undefined ? catalog : `${catalog}\u0000${servers}`;
}

/**
 * The canonical text a catalogue's hash is taken over: its tools as a canonical JSON array (the
 * form hashes had before server information counted, so those stay the same), or with server
 * information `{"servers": [...], "tools": [...]}`.
 *
 * @param catalog The catalogue.
 * @returns The canonical text.
 *
 * @example Usage
 * ```ts
 * import { canonicalCatalog } from "./catalog_cache.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const tool = { server: "s", name: "a", inputSchema: { type: "object" }, description: "" };
 * equal(canonicalCatalog(new McpCatalog([tool])), '[{"description":"","inputSchema":{"type":"object"},"name":"a","server":"s"}]');
 * ```
 */
export function canonicalCatalog(catalog: McpCatalog): string {
  const tools = `[${catalog.tools.map(canonicalJson).join(",")}]`;
  if (catalog.servers.length === 0) return tools;
  return `{"servers":[${catalog.servers.map(canonicalJson).join(",")}],"tools":${tools}}`;
}
