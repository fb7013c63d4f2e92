import { deepEqual, equal, match } from "node:assert/strict";
import { tool } from "../_data.ts";
import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { assetRanker, backgroundRanker, RETRY_LOAD_MS } from "../../src/ranking/deno_ranker.ts";
import { lexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { McpCatalog } from "../../mod.ts";
import { RANKER_HEADER } from "../../src/ranking/ranking_status.ts";
import { RANKING_DATA_ASSET } from "../../src/ranking/english_data.ts";

const TOOLS = [
  tool("img", "resize_image", "Resize an image to a width and height"),
  tool("mail", "send_email", "Send an email message"),
];
const BYTES = Deno.readFileSync(new URL(`../../src/page${RANKING_DATA_ASSET}`, import.meta.url));

function appWith(ranker: ReturnType<typeof assetRanker>) {
  const app = createApp({ store: new MemorySessionStore(), catalogs: { ranker } });
  const search = (query: string) =>
    app.request("/v1/route", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ catalog: TOOLS, arguments: { action: "search", query, limit: 2 } }),
    });
  return { app, search };
}

Deno.test("a Worker without its ranking data says so at /healthz, /status and in unfold-ranker, and searches lexically", async () => {
  for (
    const [why, assets] of [
      ["no ASSETS binding", undefined],
      ["a failed fetch", { fetch: () => Promise.resolve(new Response("", { status: 404 })) }],
      ["not the layout", { fetch: () => Promise.resolve(new Response("<html>oops</html>")) }],
    ] as const
  ) {
    const { app, search } = appWith(assetRanker(assets));
    const response = await search("make my photo smaller");
    equal(response.status, 200, why);
    equal(response.headers.get(RANKER_HEADER), "lexical", why);
    const lexical = new McpCatalog(TOOLS, { ranker: lexicalRanker }).search(
      "make my photo smaller",
      2,
    );
    deepEqual(
      (await response.json()).matches.map((m: { id: string }) => m.id),
      lexical.map((m) => m.id),
      why,
    );
    const health = await (await app.request("/healthz")).json();
    equal(health.ranker, "lexical", why);
    match(health.rankerProblem, /did not load/, why);
    const status = await (await app.request("/status")).json();
    equal(status.ranker, "lexical", why);
    equal((await app.request("/healthz")).headers.get(RANKER_HEADER), "lexical", why);
  }
});

Deno.test("a Worker with its ranking data fetches it once, at its first search, and ranks with the Deno default", async () => {
  let fetches = 0;
  const { app, search } = appWith(assetRanker({
    fetch: (request) => {
      fetches++;
      equal(new URL(request.url).pathname, RANKING_DATA_ASSET);
      return Promise.resolve(new Response(BYTES));
    },
  }));
  equal(
    (await (await app.request("/healthz")).json()).rankerProblem,
    "the ranking data is loading",
  );
  equal(fetches, 0);
  for (let i = 0; i < 3; i++) {
    const response = await search("make my photo smaller");
    equal(response.headers.get(RANKER_HEADER), "deno-default");
    equal((await response.json()).matches[0].id, "img/resize_image");
  }
  equal(fetches, 1);
  deepEqual(await (await app.request("/healthz")).json(), {
    ok: true,
    version: (await (await app.request("/status")).json()).version,
    ranker: "deno-default",
  });
});

Deno.test("a failed load is tried again once RETRY_LOAD_MS have passed, not on every search", async () => {
  let t = 0;
  let attempts = 0;
  const ranker = backgroundRanker({
    schedule: "on demand",
    now: () => t,
    load: () => {
      attempts++;
      if (attempts === 1) throw new Error("fetch failed");
      return lexicalRanker;
    },
  });
  await ranker.loaded();
  await ranker.loaded();
  equal(attempts, 1);
  equal(ranker.status().problem, "the ranking data did not load: fetch failed");
  t += RETRY_LOAD_MS;
  await ranker.loaded();
  equal(attempts, 2);
  deepEqual(ranker.status(), { ranker: "deno-default" });
});
