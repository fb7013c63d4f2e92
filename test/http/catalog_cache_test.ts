import { deepEqual, equal, notEqual, ok, throws } from "node:assert/strict";
import { canonicalJson, sha256Hex } from "../../src/canonical_json.ts";
import type { RankerSnapshot } from "../../src/http/catalog_cache.ts";
import { InvalidCatalogError, McpCatalog } from "../../mod.ts";
import {
  CatalogCache,
  type CatalogStore,
  type StoredCatalog,
} from "../../src/http/catalog_cache.ts";
import { realServerTools, shuffled, tool } from "../_data.ts";

// The entry of a catalogue the cache accepts.
async function add(cache: CatalogCache, ...args: Parameters<CatalogCache["add"]>) {
  const added = await cache.add(...args);
  if (!added.ok) throw added.error;
  return added.value;
}

Deno.test("CatalogCache gives the same catalogue and hash for the same tools in any order", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const tools = realServerTools();
  const a = await add(cache, "", JSON.stringify(tools), tools, []);
  const reordered = shuffled(tools, 9);
  const b = await add(cache, "", JSON.stringify(reordered), reordered, []);
  equal(b, a);
  equal(cache.byText("", JSON.stringify(reordered)), a, "the second text finds it too");
});

Deno.test("CatalogCache keys by content: a changed schema or server information is another catalogue", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const a = await add(cache, "", undefined, [tool("s", "t", "", { x: { type: "string" } })], []);
  const b = await add(cache, "", undefined, [tool("s", "t", "", { x: { type: "number" } })], []);
  notEqual(b.catalogHash, a.catalogHash);
  const withServers = await add(cache, "", undefined, [
    tool("s", "t", "", { x: { type: "string" } }),
  ], [
    { server: "s", title: "S" },
  ]);
  notEqual(withServers.catalogHash, a.catalogHash, "a reference names the servers too");
  equal(withServers.catalog.servers[0]?.title, "S");
});

Deno.test("CatalogCache keeps the hash of a catalogue without server information: its canonical tools", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const entry = await add(cache, "", undefined, [tool("s", "b"), tool("s", "a")], []);
  const canonical = `[${[tool("s", "a"), tool("s", "b")].map(canonicalJson).join(",")}]`;
  equal(entry.catalogHash, await sha256Hex(canonical));
});

Deno.test("CatalogCache keys every lookup by tenant: one tenant never finds another's catalogue", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const text = JSON.stringify([tool("s", "t")]);
  const a = await add(cache, "tenant-a", text, [tool("s", "t")], []);
  equal(cache.byText("tenant-b", text), undefined);
  equal(await cache.byHash("tenant-b", a.catalogHash), undefined);
  const b = await add(cache, "tenant-b", text, [tool("s", "t")], []);
  notEqual(b, a, "tenant B's copy is built for tenant B");
  equal(b.catalogHash, a.catalogHash);
  equal(cache.byText("tenant-a", text), a);
  equal(cache.byText("tenant-b", text), b);
});

Deno.test("CatalogCache evicts the least recently used catalogue beyond its bounds", async () => {
  const cache = new CatalogCache({ hash: sha256Hex, maxTools: 2 });
  const one = await add(cache, "", "1", [tool("a", "1")], []);
  await add(cache, "", "2", [tool("a", "2")], []);
  equal(cache.byText("", "1"), one); // touch one
  await add(cache, "", "3", [tool("a", "3")], []);
  equal(cache.byText("", "1"), one);
  equal(cache.byText("", "2"), undefined);
  equal(
    await cache.byHash("", (await add(cache, "", "3", [tool("a", "3")], [])).catalogHash) !==
      undefined,
    true,
  );
});

Deno.test("CatalogCache bounds the bytes it keeps, texts included", async () => {
  const cache = new CatalogCache({ hash: sha256Hex, maxBytes: 50_000 });
  const big = (i: number) => [tool("a", `t${i}`, "d".repeat(5000))];
  for (let i = 0; i < 10; i++) await add(cache, "", `text ${i}`.padEnd(2000), big(i), []);
  equal(cache.byText("", "text 0".padEnd(2000)), undefined);
  notEqual(cache.byText("", "text 9".padEnd(2000)), undefined);
});

Deno.test("CatalogCache reuses an injector per configuration and rejects an invalid one", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const entry = await add(cache, "", undefined, [tool("a", "1")], []);
  equal(
    cache.injector(entry, { availableContextTokens: 5000 }),
    cache.injector(entry, { availableContextTokens: 5000 }),
  );
  notEqual(cache.injector(entry, { availableContextTokens: 5000 }), cache.injector(entry, {}));
  throws(() => cache.injector(entry, { availableContextTokens: -1 }), RangeError);
});

Deno.test("CatalogCache returns catalogue errors as values and caches nothing for them", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  for (let i = 0; i < 2; i++) {
    const refused = await cache.add("", "x", [tool("a/b", "x")], []);
    ok(!refused.ok && refused.error instanceof InvalidCatalogError);
    equal(cache.byText("", "x"), undefined);
  }
});

Deno.test("CatalogCache saves new catalogues in its store and loads unknown references from it", async () => {
  const saved = new Map<string, StoredCatalog>();
  const store: CatalogStore = {
    save: (tenant, hash, catalog) => {
      saved.set(`${tenant} ${hash}`, { tools: catalog.tools, servers: catalog.servers });
      return Promise.resolve();
    },
    load: (tenant, hash) => {
      const catalog = saved.get(`${tenant} ${hash}`);
      return Promise.resolve(catalog && { catalog, chars: 100 });
    },
  };
  const first = new CatalogCache({ hash: sha256Hex, store });
  const entry = await add(first, "t", undefined, [tool("s", "x", "X")], [{
    server: "s",
    title: "S",
  }]);
  const cold = new CatalogCache({ hash: sha256Hex, store });
  const loaded = await cold.byHash("t", entry.catalogHash);
  equal(loaded?.catalogHash, entry.catalogHash);
  equal(loaded?.catalog.get("s/x")?.description, "X");
  equal(loaded?.catalog.servers[0]?.title, "S");
  equal(await cold.byHash("other", entry.catalogHash), undefined);
});

Deno.test("CatalogCache reports a store that fails to save and goes on", async () => {
  const errors: unknown[] = [];
  const store: CatalogStore = {
    save: () => Promise.reject(new Error("down")),
    load: () => Promise.resolve(undefined),
  };
  const cache = new CatalogCache({ hash: sha256Hex, store, onStoreError: (e) => errors.push(e) });
  const entry = await add(cache, "", "x", [tool("s", "x")], []);
  equal(cache.byText("", "x"), entry);
  equal(errors.length, 1);
  equal(new McpCatalog([tool("s", "x")]).size, entry.catalog.size);
});

Deno.test("CatalogCache reports a store that fails to load and treats the reference as unknown", async () => {
  const errors: unknown[] = [];
  const store: CatalogStore = {
    save: () => Promise.resolve(),
    load: () => Promise.reject(new Error("down")),
  };
  const cache = new CatalogCache({ hash: sha256Hex, store, onStoreError: (e) => errors.push(e) });
  equal(await cache.byHash("", "ab".repeat(32)), undefined);
  equal(errors.length, 1);
});

Deno.test("CatalogCache saves the index a search built, once, and a cold cache restores it", async () => {
  const saved = new Map<string, StoredCatalog>();
  const indexes = new Map<string, RankerSnapshot>();
  let saves = 0;
  const store: CatalogStore = {
    save: (tenant, hash, catalog) => {
      saved.set(`${tenant} ${hash}`, { tools: catalog.tools, servers: catalog.servers });
      return Promise.resolve();
    },
    saveIndex: (tenant, hash, index) => {
      saves++;
      indexes.set(`${tenant} ${hash}`, index);
      return Promise.resolve();
    },
    load: (tenant, hash) => {
      const catalog = saved.get(`${tenant} ${hash}`);
      const index = indexes.get(`${tenant} ${hash}`);
      return Promise.resolve(
        catalog && { catalog: structuredClone(catalog), chars: 100, ...(index ? { index } : {}) },
      );
    },
  };
  const tools = realServerTools();
  const warm = new CatalogCache({ hash: sha256Hex, store });
  const entry = await add(warm, "t", undefined, tools, []);
  equal(warm.saveIndex(entry), undefined, "no search yet: nothing to save");
  const expected = entry.catalog.search("take a screenshot", 5);
  await warm.saveIndex(entry);
  equal(warm.saveIndex(entry), undefined, "saved once");
  equal(saves, 1);
  const cold = new CatalogCache({ hash: sha256Hex, store });
  const loaded = (await cold.byHash("t", entry.catalogHash))!;
  deepEqual(loaded.catalog.search("take a screenshot", 5), expected);
  equal(cold.saveIndex(loaded), undefined, "restored from the store: not saved again");
  equal(loaded.catalog.size, tools.length);
});

Deno.test("CatalogCache evicts from the tenant holding the most bytes: a small catalogue never evicts a large one", async () => {
  const cache = new CatalogCache({ hash: sha256Hex, maxBytes: 200_000 });
  // Tenant A's one catalogue takes most of the bound.
  const large = await add(cache, "a", undefined, [tool("s", "big", "d".repeat(30_000))], []);
  // Tenant B sends 50 small ones while A is idle: least recently used alone would evict A's.
  for (let i = 0; i < 50; i++) {
    await add(cache, "b", `text ${i}`, [tool("s", `t${i}`, "d".repeat(500))], []);
  }
  equal(await cache.byHash("a", large.catalogHash), large);
  // Tenant B's oldest went instead, its newest stayed.
  equal(cache.byText("b", "text 0"), undefined);
  notEqual(cache.byText("b", "text 49"), undefined);
});

Deno.test("createApp's cache holds a catalogue as large as the body limit allows, beside other tenants", async () => {
  const { createApp } = await import("../../src/http/app.ts");
  const { MemorySessionStore } = await import("../../src/session/memory_store.ts");
  const app = createApp({
    store: new MemorySessionStore(),
    settings: { tokens: ["token-a", "token-b"] },
  });
  const post = (token: string, body: unknown) =>
    app.request("/v1/route", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  // 10,000 tools, 11.5 MiB: within every limit, once estimated above the whole cache.
  const real = realServerTools();
  const tools = Array.from({ length: 10_000 }, (_, i) => ({
    ...real[i % real.length]!,
    server: `${real[i % real.length]!.server}-${Math.floor(i / real.length)}`,
  }));
  const search = { action: "search", query: "read a file" };
  const first = await post("token-a", { catalog: tools, arguments: search });
  equal(first.status, 200);
  const { catalogHash } = await first.json();
  for (let i = 0; i < 20; i++) {
    const other = await post("token-b", { catalog: [tool("s", `t${i}`)], arguments: search });
    equal(other.status, 200);
  }
  const again = await post("token-a", { catalogRef: catalogHash, arguments: search });
  equal(again.status, 200, await again.clone().text());
});
