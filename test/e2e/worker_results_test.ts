import { deepEqual, equal, ok } from "node:assert/strict";
import { startWrangler } from "./_processes.ts";
import { client } from "../http/_client.ts";
import { RESULT_TOKENS, runResultsScenario } from "../http/_results_scenario.ts";
import { CHUNK_UNITS, CHUNKS_PER_CALL } from "../../src/workers/kept_answers.ts";

Deno.test("the API Worker in wrangler dev keeps every answer within its ceiling, the rest in its session objects", async (t) => {
  const worker = await startWrangler("wrangler.toml", {
    UNFOLD_API_TOKEN: RESULT_TOKENS.join(","),
  });
  try {
    const send = (path: string, init?: RequestInit) => fetch(`${worker.url}${path}`, init);
    await t.step(
      "the result-ceiling scenario",
      () => runResultsScenario(send, `worker-results-${Date.now()}`),
    );
    await t.step("a result kept in several RPC batches of chunks reads back whole", async () => {
      const a = client(send, RESULT_TOKENS[0]);
      const session = `worker-big-${Date.now()}`;
      // More code units than one keep call carries: the text goes to the object in batches.
      const line = "a line of a large log, with a few words and a number 0123456789 é\n";
      const text = line.repeat(Math.ceil((CHUNK_UNITS * CHUNKS_PER_CALL * 1.5) / line.length));
      const posted = await a.post("/v1/result", {
        session,
        tool: "fs/read_text_file",
        result: { content: [{ type: "text", text }] },
        options: { maxResultTokens: 25_000 },
      });
      equal(posted.status, 200);
      const pieces = [posted.body.toolResult[0].text as string];
      const catalog = [{ server: "fs", name: "read_text_file", inputSchema: { type: "object" } }];
      for (let cut = posted.body.cut; cut.next !== undefined;) {
        const part = await a.post("/v1/route", {
          catalog,
          session,
          arguments: cut.next,
          options: { maxResultTokens: 25_000 },
        });
        equal(part.status, 200, JSON.stringify(part.body).slice(0, 300));
        const blocks = part.body.toolResult as { text: string }[];
        pieces.push(blocks.slice(0, -1).map((b) => b.text).join(""));
        cut = part.body.cut;
      }
      ok(pieces.length > 60, `${pieces.length} parts`);
      ok(pieces.join("") === text, "the parts join to the original");
      const info = await a.get(`/v1/sessions/${session}`);
      deepEqual([info.body.counters.resultsCut, info.body.counters.moreCalls], [
        1,
        pieces.length - 1,
      ]);
    });
  } finally {
    await worker.close();
  }
});
