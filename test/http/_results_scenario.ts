/**
 * The result-ceiling scenario every HTTP deployment passes (in-process app, the Worker in
 * `wrangler dev`): `/v1/route` and `/v1/result` answers within `maxResultTokens` plus the marker,
 * in the text and in the structured copy; `more` returns the rest in order and the parts join to
 * the original byte for byte (text, JSON, multi-byte text); refs do not cross sessions or
 * tenants; without a session nothing is kept; the session counts what was handed over.
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { estimateTokens } from "../../src/tokens.ts";
import { withoutMarker } from "../_contracts/result_store_contract.ts";
import { client, type JsonResponse, type Send } from "./_client.ts";

/** The tokens the deployment under test must accept. */
export const RESULT_TOKENS = ["results-tenant-a", "results-tenant-b"] as const;

const schemas = httpSchemas(DEFAULT_SETTINGS);

const wide = {
  server: "fs",
  name: "wide",
  description: "A tool with a large schema",
  inputSchema: {
    type: "object",
    properties: Object.fromEntries(
      Array.from(
        { length: 300 },
        (_, i) => [`field_${i}`, { type: "string", description: `Field ${i}` }],
      ),
    ),
  },
};
const read = {
  server: "fs",
  name: "read_text_file",
  description: "Reads a text file",
  inputSchema: { type: "object", properties: { path: { type: "string" } } },
};
const catalog = [wide, read];

/** The texts of a result's blocks but the last (its marker), and its structured piece. */
function pieces(toolResult: unknown): { text: string; json: string } {
  type Block = { type: string; text?: string };
  const { content, structuredContent } = Array.isArray(toolResult)
    ? { content: toolResult as Block[], structuredContent: undefined }
    : toolResult as { content: Block[]; structuredContent?: { json?: string } };
  return {
    text: content.slice(0, -1).map((b) => b.text ?? "").join(""),
    json: structuredContent?.json ?? "",
  };
}

/**
 * Runs the scenario.
 *
 * @param send Sends a request to the deployment.
 * @param session A session name unique to this run.
 */
export async function runResultsScenario(send: Send, session: string): Promise<void> {
  const a = client(send, RESULT_TOKENS[0]);
  const b = client(send, RESULT_TOKENS[1]);
  const ok200 = (response: JsonResponse) => {
    equal(response.status, 200, JSON.stringify(response.body).slice(0, 400));
    return response.body;
  };
  const route = async (args: unknown, extra: Record<string, unknown> = {}, as = a) => {
    const body = ok200(await as.post("/v1/route", { catalog, session, arguments: args, ...extra }));
    schemas.RouteResult.parse(body);
    return body;
  };

  // A describe over the ceiling: cut at a clean boundary, the rest in order through `more`.
  const options = { maxResultTokens: 400 };
  const whole = await route({ action: "describe", name: "fs/wide" }, {
    session: `${session}-whole`,
    options: { maxResultTokens: 0 },
  });
  equal(whole.cut, undefined);
  const first = await route({ action: "describe", name: "fs/wide" }, { options });
  ok(estimateTokens(withoutMarker(first.toolResult)) <= 400);
  match(
    first.toolResult,
    /\n\[Cut by unfold: [\d,]+ of [\d,]+ tokens shown \([\d.]+ %\)\. Next part: \{"action":"more","ref":"[a-z0-9]{12}\.2"\}\]$/,
  );
  const describeParts = [first];
  for (let part = first; part.cut?.next !== undefined;) {
    part = await route(part.cut.next, { options });
    equal(part.action, "more");
    ok(estimateTokens(withoutMarker(part.toolResult)) <= 400);
    describeParts.push(part);
  }
  equal(describeParts.map((p) => withoutMarker(p.toolResult)).join(""), whole.toolResult);

  // Another tenant, another session: the ref is unknown there; without a session, nothing kept.
  const ref = first.cut.next;
  const elsewhere = await route(ref, { options }, b);
  equal(elsewhere.error.code, "unknown_ref");
  const otherSession = await route(ref, { options, session: `${session}-other` });
  equal(otherSession.error.code, "unknown_ref");
  match(otherSession.toolResult, /is not kept in this session: it expired/);
  const { session: _, ...stateless } = {
    session,
    catalog,
    arguments: { action: "describe", name: "fs/wide" },
    options,
  };
  const unkept = ok200(await a.post("/v1/route", stateless));
  equal(unkept.cut.notKept, "no_session");
  match(unkept.toolResult, /The rest is not kept without a session/);

  // An upstream result: its text and its structured copy cut alike, each joining to its original.
  const text = Array.from(
    { length: 2_000 },
    (_, i) => `${i}: línea de un registro 🙂 ${"ß".repeat(i % 9)}`,
  )
    .join("\n");
  const structuredContent = { content: text };
  const result = { content: [{ type: "text", text }], structuredContent };
  const posted = ok200(
    await a.post("/v1/result", { session, tool: "fs/read_text_file", result, options }),
  );
  schemas.ResultResponse.parse(posted);
  equal(posted.isError, false);
  equal(posted.cut.part, 1);
  ok(posted.cut.text.totalTokens > 10_000);
  const note = posted.toolResult.structuredContent.cut;
  deepEqual(note.next, posted.cut.next);
  match(note.note, /^\[Cut by unfold: /);
  const texts = [pieces(posted.toolResult)];
  for (let cut = posted.cut; cut.next !== undefined;) {
    const part = await route(cut.next, { options });
    texts.push(pieces(part.toolResult));
    // The structured copy as a host shows it: the ceiling, and its marker's facts.
    ok(estimateTokens(JSON.stringify(part.toolResult.structuredContent)) <= 400 + 100);
    ok(estimateTokens(texts.at(-1)!.text) <= 400 && estimateTokens(texts.at(-1)!.json) <= 400);
    cut = part.cut;
  }
  const joined = texts.map((t) => t.text).join("");
  deepEqual(new TextEncoder().encode(joined), new TextEncoder().encode(text));
  equal(texts.map((t) => t.json).join(""), JSON.stringify(structuredContent));

  // A JSON text: cut after elements and members; joined, the same JSON.
  const graph = JSON.stringify({
    entities: Array.from(
      { length: 400 },
      (_, i) => ({ name: `entity ${i}`, observations: ["a", "b"] }),
    ),
  });
  const jsonResult = ok200(
    await a.post("/v1/result", {
      session,
      tool: "fs/read_text_file",
      result: { content: [{ type: "text", text: graph }] },
      options,
    }),
  );
  const jsonParts = [pieces(jsonResult.toolResult).text];
  for (let cut = jsonResult.cut; cut.next !== undefined;) {
    const part = await route(cut.next, { options });
    const piece = pieces(part.toolResult).text;
    jsonParts.push(piece);
    cut = part.cut;
  }
  for (const piece of jsonParts.slice(0, -1)) ok(piece.endsWith(","), piece.slice(-40));
  deepEqual(JSON.parse(jsonParts.join("")), JSON.parse(graph));

  // The default ceiling derives from the budget: 10 % of 20,000 tokens is 2,000.
  const derived = ok200(
    await a.post("/v1/result", {
      tool: "fs/read_text_file",
      budget: { availableContextTokens: 20_000 },
      result: { content: [{ type: "text", text: "word ".repeat(2_000) }] },
    }),
  );
  equal(derived.cut.text.totalTokens, 2_500);
  ok(derived.cut.text.shownTokens <= 2_000);
  equal(
    ok200(
      await a.post("/v1/result", {
        tool: "fs/read_text_file",
        result: { content: [{ type: "text", text: "word ".repeat(2_000) }] },
      }),
    ).cut,
    undefined,
  );

  // A ceiling out of range is the caller's mistake, at its pointer.
  const tooSmall = await a.post("/v1/result", {
    tool: "fs/read_text_file",
    result,
    options: { maxResultTokens: 50 },
  });
  deepEqual([tooSmall.status, tooSmall.body.code, tooSmall.body.errors[0].pointer], [
    422,
    "invalid_config",
    "/options/maxResultTokens",
  ]);
  const routeTooSmall = await a.post("/v1/route", {
    catalog,
    arguments: ref,
    options: { maxResultTokens: 50 },
  });
  deepEqual([routeTooSmall.status, routeTooSmall.body.code], [422, "invalid_config"]);

  // The session counted what it handed over.
  const info = schemas.SessionInfo.parse(ok200(await a.get(`/v1/sessions/${session}`)));
  equal(info.counters.resultsCut, 3);
  equal(info.counters.moreCalls, describeParts.length + texts.length + jsonParts.length - 3);
  ok(info.counters.tokensReturned > 10_000);
  equal(info.counters.errors.unknown_ref, undefined);

  // Deleting the session lets its kept parts go.
  equal((await a.delete(`/v1/sessions/${session}`)).status, 204);
  equal((await route(ref, { options })).error.code, "unknown_ref");
}
