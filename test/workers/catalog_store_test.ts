import { deepEqual, equal, ok } from "node:assert/strict";
import { startWrangler } from "../e2e/_processes.ts";
import { client } from "../http/_client.ts";
import { realServerTools } from "../_data.ts";

const TOKENS = ["catalog-tenant-a", "catalog-tenant-b"];
const search = { action: "search", query: "take a screenshot of the page" };

// Both catalogues are stored by one workerd and read back by a second on the same storage: a
// wrangler start costs seconds of CPU, and each catalogue only needs a workerd that never saw it.
Deno.test("the Worker keeps catalogues in Durable Objects: a fresh workerd answers a catalogRef", async (t) => {
  const persist = await Deno.makeTempDir({ prefix: "unfold-catalogs-" });
  try {
    const vars = { UNFOLD_API_TOKEN: TOKENS.join(",") };
    const tools = realServerTools();
    // One RPC message holds 32 MiB: the text goes in parts both ways. Such a catalogue, within
    // every limit, used to stay in its isolate's memory only, so a fresh isolate answered 409.
    const big = Array.from({ length: 10_000 }, (_, i) => ({
      ...tools[i % tools.length]!,
      server: `${tools[i % tools.length]!.server}-${Math.floor(i / tools.length)}`,
    }));
    ok(JSON.stringify(big).length > 8 * 1024 * 1024);
    let ref = "";
    let bigRef = "";
    let expected: unknown;
    const first = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${first.url}${path}`, init), TOKENS[0]);
      await t.step(
        "a tenant's catalogue is stored; another tenant cannot use its reference",
        async () => {
          const byValue = await a.post("/v1/route", { catalog: tools, arguments: search });
          equal(byValue.status, 200, JSON.stringify(byValue.body));
          ref = byValue.body.catalogHash;
          expected = byValue.body;
          const b = client((path, init) => fetch(`${first.url}${path}`, init), TOKENS[1]);
          equal((await b.post("/v1/route", { catalogRef: ref, arguments: search })).status, 409);
        },
      );
      await t.step(
        "a catalogue over 8 Mi characters (10,000 tools, 11.5 MiB) is stored",
        async () => {
          const byValue = await a.post("/v1/inject", { catalog: big });
          equal(byValue.status, 200, JSON.stringify(byValue.body).slice(0, 300));
          bigRef = byValue.body.catalogHash;
        },
      );
    } finally {
      await first.close();
    }
    // Another workerd on the same storage: its isolates have never seen the catalogues.
    const second = await startWrangler("wrangler.toml", vars, persist);
    try {
      const a = client((path, init) => fetch(`${second.url}${path}`, init), TOKENS[0]);
      await t.step("a fresh workerd answers the reference, for its tenant only", async () => {
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
      });
      await t.step("a fresh workerd loads the catalogue stored in parts", async () => {
        const byRef = await a.post("/v1/inject", { catalogRef: bigRef });
        equal(byRef.status, 200, JSON.stringify(byRef.body).slice(0, 300));
        equal(byRef.body.injection.inventory.toolCount, 10_000);
        equal(byRef.body.catalogHash, bigRef);
      });
    } finally {
      await second.close();
    }
  } finally {
    await Deno.remove(persist, { recursive: true });
  }
});
