import { deepEqual, equal, ok } from "node:assert/strict";
import { startWrangler } from "../e2e/_processes.ts";
import { client } from "../http/_client.ts";
import { realServerTools } from "../_data.ts";

const TOKENS = ["catalog-tenant-a", "catalog-tenant-b"];
const search = { action: "search", query: "take a screenshot of the page" };

Deno.test("the Worker keeps catalogues in Durable Objects: a fresh workerd answers a catalogRef, per tenant", async () => {
  const persist = await Deno.makeTempDir({ prefix: "unfold-catalogs-" });
  try {
    const vars = { UNFOLD_API_TOKEN: TOKENS.join(",") };
    const tools = realServerTools();
    let ref: string;
    let expected: unknown;
    const first = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${first.url}${path}`, init), TOKENS[0]);
      const byValue = await a.post("/v1/route", { catalog: tools, arguments: search });
      equal(byValue.status, 200, JSON.stringify(byValue.body));
      ref = byValue.body.catalogHash;
      expected = byValue.body;
      const b = client((path, init) => fetch(`${first.url}${path}`, init), TOKENS[1]);
      equal((await b.post("/v1/route", { catalogRef: ref, arguments: search })).status, 409);
    } finally {
      await first.close();
    }
    // Another workerd on the same storage: its isolates have never seen the catalogue.
    const second = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${second.url}${path}`, init), TOKENS[0]);
      const byRef = await a.post("/v1/route", { catalogRef: ref, arguments: search });
      equal(byRef.status, 200, JSON.stringify(byRef.body));
      deepEqual(byRef.body, expected);
      const inject = await a.post("/v1/inject", { catalogRef: ref, session: "w1" });
      equal(inject.body.injection.inventory.toolCount, tools.length);
      const b = client((path, init) => fetch(`${second.url}${path}`, init), TOKENS[1]);
      const stranger = await b.post("/v1/route", { catalogRef: ref, arguments: search });
      equal(stranger.status, 409);
      equal(stranger.body.code, "catalog_unknown");
      const unknown = await a.post("/v1/inject", { catalogRef: "0f".repeat(32) });
      equal(unknown.status, 409);
      ok(unknown.body.detail.includes("send it again"));
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(persist, { recursive: true });
  }
});

Deno.test("a catalogue over 8 Mi characters (10,000 tools, 11.5 MiB) is stored in parts and loaded by a fresh workerd", async () => {
  // One RPC message holds 32 MiB: the text goes in parts both ways. Such a catalogue, within
  // every limit, used to stay in its isolate's memory only, so a fresh isolate answered 409.
  const persist = await Deno.makeTempDir({ prefix: "unfold-catalogs-" });
  try {
    const vars = { UNFOLD_API_TOKEN: TOKENS[0]! };
    const real = realServerTools();
    const tools = Array.from({ length: 10_000 }, (_, i) => ({
      ...real[i % real.length]!,
      server: `${real[i % real.length]!.server}-${Math.floor(i / real.length)}`,
    }));
    ok(JSON.stringify(tools).length > 8 * 1024 * 1024);
    let ref: string;
    const first = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${first.url}${path}`, init), TOKENS[0]);
      const byValue = await a.post("/v1/inject", { catalog: tools });
      equal(byValue.status, 200, JSON.stringify(byValue.body).slice(0, 300));
      ref = byValue.body.catalogHash;
    } finally {
      await first.close();
    }
    const second = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${second.url}${path}`, init), TOKENS[0]);
      const byRef = await a.post("/v1/inject", { catalogRef: ref });
      equal(byRef.status, 200, JSON.stringify(byRef.body).slice(0, 300));
      equal(byRef.body.injection.inventory.toolCount, 10_000);
      equal(byRef.body.catalogHash, ref);
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(persist, { recursive: true });
  }
});
