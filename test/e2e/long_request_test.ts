// Any request an agent writes is ranked: through `deno task start` and through the gateway over
// stdio, a search of MAX_QUERY_CHARS characters (a pasted task: ETOM's long requests run
// together) is ranked whole, and one character more gets the clear error.
import { equal, ok } from "node:assert/strict";
import { startDenoServer } from "./_processes.ts";
import { stdioClient, writeConfig } from "../gateway/_gateway.ts";
import { loadEvalData } from "../../bench/eval/dataset.ts";
import { MAX_QUERY_CHARS } from "../../src/limits.ts";

const etom = loadEvalData(new URL("../../testdata/etom", import.meta.url).pathname);
const TASK = etom.sets[0]!.queries.map((q) => q.query).join(" ").slice(0, MAX_QUERY_CHARS);

Deno.test("deno task start ranks a request of MAX_QUERY_CHARS characters and refuses one more", async () => {
  const server = await startDenoServer();
  try {
    const route = async (query: string) => {
      const response = await fetch(`${server.url}/v1/route`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ catalog: etom.tools, arguments: { action: "search", query } }),
      });
      equal(response.status, 200);
      return await response.json();
    };
    equal(TASK.length, MAX_QUERY_CHARS);
    const ranked = await route(TASK);
    equal(ranked.action, "search");
    equal(ranked.matches.length, 5);
    const refused = await route(`${TASK}x`);
    equal(refused.action, "error");
    ok(String(refused.toolResult).includes(`longer than ${MAX_QUERY_CHARS} characters`));
  } finally {
    await server.close();
  }
});

Deno.test("the gateway over stdio ranks a request of MAX_QUERY_CHARS characters and refuses one more", async () => {
  const { path, dir } = await writeConfig();
  const client = await stdioClient(path);
  try {
    const search = (query: string) =>
      client.callTool({ name: "mcp", arguments: { action: "search", query } });
    const ranked = await search(TASK);
    equal(ranked.isError ?? false, false, JSON.stringify(ranked).slice(0, 300));
    const refused = await search(`${TASK}x`);
    equal(refused.isError, true);
    ok(JSON.stringify(refused.content).includes(`longer than ${MAX_QUERY_CHARS} characters`));
  } finally {
    await client.close();
    await Deno.remove(dir, { recursive: true });
  }
});
