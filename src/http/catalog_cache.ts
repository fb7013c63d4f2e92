/**
 * A small cache of validated catalogues and their injectors, keyed by content hash, so that a
 * stateless API does not re-validate a catalogue or rebuild its search index on every request.
 *
 * @module
 */

import { canonicalJson, type Hasher } from "../canonical_json.ts";
import { McpCatalog } from "../catalog.ts";
import type { ProgressiveConfig } from "../config.ts";
import { Injector } from "../injector.ts";
import type { McpTool, ServerInfo } from "../tool.ts";

/** A cached catalogue. */
export interface CachedCatalog {
  /** The validated catalogue. */
  catalog: McpCatalog;
  /** The hash of its tools, independent of their order: the session generation. */
  catalogHash: string;
  /** Injectors over it, by configuration. */
  injectors: Map<string, Injector>;
}

/** Options of {@linkcode CatalogCache}. */
export interface CatalogCacheOptions {
  /** Hashes canonical JSON. */
  hash: Hasher;
  /**
   * The most catalogues kept.
   * @default {16}
   */
  maxCatalogs?: number;
  /**
   * The most tools kept across catalogues (bounds memory).
   * @default {50000}
   */
  maxTools?: number;
}

const INJECTORS_PER_CATALOG = 8;

/**
 * Catalogues by content, least recently used evicted first.
 *
 * @example Usage
 * ```ts
 * import { CatalogCache } from "./catalog_cache.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * const cache = new CatalogCache({ hash: sha256Hex });
 * const a = { server: "s", name: "a", description: "", inputSchema: { type: "object" } };
 * const b = { server: "s", name: "b", description: "", inputSchema: { type: "object" } };
 * const first = await cache.catalog([a, b], []);
 * const second = await cache.catalog([b, a], []);
 * equal(second.catalog, first.catalog);
 * equal(second.catalogHash, first.catalogHash);
 * ```
 */
export class CatalogCache {
  #entries = new Map<string, CachedCatalog>();
  #tools = 0;
  #hash: Hasher;
  #maxCatalogs: number;
  #maxTools: number;

  /**
   * Makes an empty cache.
   *
   * @param options The hash function and the bounds.
   */
  constructor(options: CatalogCacheOptions) {
    this.#hash = options.hash;
    this.#maxCatalogs = options.maxCatalogs ?? 16;
    this.#maxTools = options.maxTools ?? 50_000;
  }

  /**
   * The validated catalogue for these tools and servers, from the cache or built now.
   *
   * @param tools The tools, in any order.
   * @param servers Server information, in any order.
   * @returns The cached catalogue and its hash.
   * @throws {InvalidCatalogError} When an entry breaks a catalogue rule.
   */
  async catalog(tools: readonly McpTool[], servers: readonly ServerInfo[]): Promise<CachedCatalog> {
    // The lookup key skips canonicalisation (the costly part): tools sorted as sent. The same
    // catalogue serialised with other key orders only misses the cache; its catalogHash, computed
    // canonically on a miss, is the same.
    let text: string;
    try {
      text = `${tools.map((t) => JSON.stringify(t)).sort().join("\n")}\n\n${
        servers.map((s) => JSON.stringify(s)).sort().join("\n")
      }`;
    } catch (e) {
      // JSON.stringify throws a RangeError on nesting deeper than the stack allows: the catalogue
      // says which tool and field are too deep (MAX_JSON_DEPTH); it throws before recursing.
      if (e instanceof RangeError) new McpCatalog(tools, { servers });
      throw e;
    }
    const key = await this.#hash(text);
    const hit = this.#entries.get(key);
    if (hit !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const catalog = new McpCatalog(tools, { servers });
    const entry: CachedCatalog = {
      catalog,
      catalogHash: await this.#hash(`[${catalog.tools.map(canonicalJson).join(",")}]`),
      injectors: new Map(),
    };
    this.#entries.set(key, entry);
    this.#tools += entry.catalog.size;
    while (
      this.#entries.size > 1 &&
      (this.#entries.size > this.#maxCatalogs || this.#tools > this.#maxTools)
    ) {
      const [oldest, evicted] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.#tools -= evicted.catalog.size;
    }
    return entry;
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
}
