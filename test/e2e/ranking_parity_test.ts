/**
 * One ranker on every face: every query of every development set (route_dev, tasks, everyday,
 * metatool single and multi; 1,630 queries over three catalogues) sent to `deno task start` and to
 * the API Worker in `wrangler dev`, each catalogue sent once and then named by `catalogRef`, gets
 * the same top 10, in the same order, as the Deno default in process (what `deno task eval`,
 * `unfold search` and the gateway rank with), and every answer says `unfold-ranker: deno-default`.
 *
 * @module
 */

import { deepEqual, equal } from "node:assert/strict";
import { type Running, startDenoServer, startWrangler } from "./_processes.ts";
import { defaultDataDir, type EvalData, loadEvalData } from "../../bench/eval/dataset.ts";
import { McpCatalog } from "../../mod.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { denoRankerOptions } from "../../src/ranking/deno_ranker.ts";
import { RANKER_HEADER } from "../../src/ranking/ranking_status.ts";

const LIMIT = 10;
// route_dev's queries keep their agent wrapper (up to 18,686 characters), as the eval sends them.
const SETTINGS = { UNFOLD_MAX_QUERY_CHARS: "20000" };
// Requests in flight per face: enough to keep both busy, few enough for a shared machine.
const IN_FLIGHT = 8;

function datasets(): EvalData[] {
  const dir = defaultDataDir()!;
  return [dir, `${dir}/../real-servers`, `${dir}/../metatool`].map(loadEvalData);
}

async function post(face: Running, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${face.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  equal(response.status, 200, JSON.stringify(json).slice(0, 500));
  equal(response.headers.get(RANKER_HEADER), "deno-default", `${face.url}${path}`);
  return json;
}

// Each query's top ids from one face, the catalogue sent once, then named by reference.
async function topIds(face: Running, data: EvalData, queries: string[]): Promise<string[][]> {
  const injected = await post(face, "/v1/inject", { catalog: data.tools, servers: data.servers });
  const catalogRef = injected.catalogHash as string;
  const out: string[][] = new Array(queries.length);
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < queries.length) {
      const i = next++;
      const found = await post(face, "/v1/route", {
        catalogRef,
        arguments: { action: "search", query: queries[i], limit: LIMIT },
      });
      out[i] = (found.matches as { id: string }[]).map((match) => match.id);
    }
  }));
  return out;
}

Deno.test("deno task start and the API Worker in wrangler dev rank every development query alike", async () => {
  const [deno, worker] = await Promise.all([
    startDenoServer(SETTINGS),
    startWrangler("wrangler.toml", SETTINGS),
  ]);
  try {
    const ranker = createLexicalRanker(denoRankerOptions());
    let compared = 0;
    for (const data of datasets()) {
      const queries = data.sets.flatMap((set) => set.queries.map((q) => q.query));
      const catalog = new McpCatalog(data.tools, { servers: data.servers, ranker });
      const local = queries.map((q) => catalog.search(q, LIMIT).map((match) => match.id));
      const [fromDeno, fromWorker] = await Promise.all([
        topIds(deno, data, queries),
        topIds(worker, data, queries),
      ]);
      deepEqual(fromDeno, local, data.dir);
      deepEqual(fromWorker, local, data.dir);
      compared += queries.length;
    }
    equal(compared, 93 + 94 + 150 + 497 + 796);
    for (const face of [deno, worker]) {
      const health = await (await fetch(`${face.url}/healthz`)).json();
      equal(health.ranker, "deno-default");
      equal((await (await fetch(`${face.url}/status`)).json()).ranker, "deno-default");
    }
  } finally {
    await Promise.all([deno.close(), worker.close()]);
  }
});
