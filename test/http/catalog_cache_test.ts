import { equal, notEqual, throws } from "node:assert/strict";
import { sha256Hex } from "../../src/canonical_json.ts";
import { InvalidCatalogError } from "../../mod.ts";
import { CatalogCache } from "../../src/http/catalog_cache.ts";
import { realServerTools, shuffled, tool } from "../_data.ts";

Deno.test("CatalogCache returns the same validated catalogue for the same tools in any order", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const tools = realServerTools();
  const a = await cache.catalog(tools, []);
  const b = await cache.catalog(shuffled(tools, 9), []);
  equal(b.catalog, a.catalog);
  equal(b.catalogHash, a.catalogHash);
});

Deno.test("CatalogCache keys by content: a changed schema is another catalogue with another hash", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const a = await cache.catalog([tool("s", "t", "", { x: { type: "string" } })], []);
  const b = await cache.catalog([tool("s", "t", "", { x: { type: "number" } })], []);
  notEqual(b.catalogHash, a.catalogHash);
  const withServers = await cache.catalog([tool("s", "t", "", { x: { type: "string" } })], [{
    server: "s",
    title: "S",
  }]);
  equal(withServers.catalogHash, a.catalogHash); // same tools: same session generation
  notEqual(withServers.catalog, a.catalog); // but the listing differs
});

Deno.test("CatalogCache evicts the least recently used catalogue beyond its bounds", async () => {
  const cache = new CatalogCache({ hash: sha256Hex, maxCatalogs: 2 });
  const one = await cache.catalog([tool("a", "1")], []);
  await cache.catalog([tool("a", "2")], []);
  await cache.catalog([tool("a", "1")], []); // touch one
  await cache.catalog([tool("a", "3")], []);
  equal((await cache.catalog([tool("a", "1")], [])).catalog, one.catalog);
});

Deno.test("CatalogCache reuses an injector per configuration and rejects an invalid one", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  const entry = await cache.catalog([tool("a", "1")], []);
  equal(
    cache.injector(entry, { availableContextTokens: 5000 }),
    cache.injector(entry, { availableContextTokens: 5000 }),
  );
  notEqual(cache.injector(entry, { availableContextTokens: 5000 }), cache.injector(entry, {}));
  throws(() => cache.injector(entry, { availableContextTokens: -1 }), RangeError);
});

Deno.test("CatalogCache propagates catalogue errors and caches nothing for them", async () => {
  const cache = new CatalogCache({ hash: sha256Hex });
  for (let i = 0; i < 2; i++) {
    let caught: unknown;
    try {
      await cache.catalog([tool("a/b", "x")], []);
    } catch (e) {
      caught = e;
    }
    equal(caught instanceof InvalidCatalogError, true);
  }
});
