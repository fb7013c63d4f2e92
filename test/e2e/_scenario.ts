/**
 * The whole-session scenario every deployment passes (in-process app, `deno task start`, the Worker
 * in `wrangler dev`): inject, search, describe-first, execute, invalid arguments, elided describe,
 * upstream results, stats, tenant isolation, new generation, 50 concurrent describes, delete.
 *
 * @module
 */

import { deepEqual, equal, match, ok } from "node:assert/strict";
import { toolId } from "../../mod.ts";
import { realServerTools } from "../_data.ts";
import { client, type Send } from "../http/_client.ts";

/** The tokens the deployment under test must accept (`UNFOLD_API_TOKEN=tenant-a-token,tenant-b-token`). */
export const TOKENS = ["tenant-a-token", "tenant-b-token"] as const;

/**
 * Runs the scenario.
 *
 * @param send Sends a request to the deployment.
 * @param session A session name unique to this run.
 */
export async function runScenario(send: Send, session: string): Promise<void> {
  const a = client(send, TOKENS[0]);
  const b = client(send, TOKENS[1]);
  const anonymous = client(send);
  const catalog = realServerTools();
  const base = { catalog, session };

  // Auth: /v1 needs a token, /healthz does not.
  equal((await anonymous.get("/healthz")).status, 200);
  const denied = await anonymous.post("/v1/inject", { catalog });
  equal(denied.status, 401);
  equal(denied.body.code, "unauthorized");

  // Browsers: a body not declared JSON, or a foreign Origin, never reaches a session.
  const plain = await a.post("/v1/inject", { catalog }, { "content-type": "text/plain" });
  deepEqual([plain.status, plain.body.code], [415, "unsupported_media_type"]);
  const crossSite = await a.post("/v1/inject", { catalog }, { origin: "https://evil.example" });
  deepEqual([crossSite.status, crossSite.body.code], [403, "origin_not_allowed"]);

  // Inject: 228 tools at 32k context fit the names level.
  const injected = await a.post("/v1/inject", {
    ...base,
    budget: { availableContextTokens: 32_000 },
  });
  equal(injected.status, 200);
  equal(injected.body.injection.mode, "names");
  equal(injected.body.injection.bridgeTool.function.name, "mcp");

  // Search.
  const found = await a.post("/v1/route", {
    ...base,
    arguments: { action: "search", query: "post a message to a slack channel" },
  });
  equal(found.body.action, "search");
  equal(found.body.matches[0].id, "slack/slack_post_message");
  match(found.body.toolResult, /slack\/slack_post_message/);

  // Execute before describe: refused with the schema, and the tool now counts as described.
  const execute = {
    action: "execute",
    name: "slack/slack_post_message",
    arguments: { channel_id: "C1", text: "hello" },
  };
  const early = await a.post("/v1/route", { ...base, arguments: execute });
  equal(early.body.action, "error");
  equal(early.body.error.code, "describe_first");
  match(early.body.toolResult, /Input schema: \{/);

  // Execute again: resolved for the host to run.
  const run = await a.post("/v1/route", { ...base, arguments: JSON.stringify(execute) });
  equal(run.body.action, "execute");
  equal(run.body.id, "slack/slack_post_message");
  equal(run.body.tool.server, "slack");
  deepEqual(run.body.arguments, { channel_id: "C1", text: "hello" });

  // The host ran it; the upstream result is mapped for the model, failures counted.
  const ok1 = await a.post("/v1/result", {
    session,
    tool: run.body.id,
    result: { content: [{ type: "text", text: "posted" }] },
  });
  deepEqual(ok1.body, { toolResult: "posted", isError: false });
  const failed = await a.post("/v1/result", {
    session,
    tool: run.body.id,
    result: { content: [{ type: "text", text: "channel_not_found" }], isError: true },
  });
  equal(failed.body.isError, true);
  match(failed.body.toolResult, /slack\/slack_post_message failed: channel_not_found/);

  // Invalid arguments: each problem with its JSON pointer.
  const invalid = await a.post("/v1/route", {
    ...base,
    arguments: { ...execute, arguments: { channel_id: 5 } },
  });
  equal(invalid.body.action, "error");
  equal(invalid.body.error.code, "invalid_arguments");
  ok(invalid.body.error.problems.some((p: { pointer: string }) => p.pointer === "/channel_id"));
  ok(invalid.body.error.problems.some((p: { pointer: string }) => p.pointer === ""));

  // Describe twice: the second is elided; resend sends it again.
  const describe = { action: "describe", name: "github/create_issue" };
  const first = await a.post("/v1/route", { ...base, arguments: describe });
  equal(first.body.elided, false);
  match(first.body.toolResult, /Input schema/);
  const second = await a.post("/v1/route", { ...base, arguments: describe });
  equal(second.body.elided, true);
  match(second.body.toolResult, /sent earlier/);
  const resent = await a.post("/v1/route", {
    ...base,
    arguments: describe,
    options: { resend: true },
  });
  equal(resent.body.elided, false);

  // Stats.
  const stats = await a.get(`/v1/sessions/${session}`);
  equal(stats.status, 200);
  ok(stats.body.counters.tokensReturned > 0);
  equal(stats.body.generation, 1);
  deepEqual(stats.body.described, ["github/create_issue", "slack/slack_post_message"]);
  deepEqual(stats.body.counters, {
    searches: 1,
    emptySearches: 0,
    describes: 3,
    elidedDescribes: 1,
    executes: 1,
    describeToExecute: 1,
    errors: { describe_first: 1, invalid_arguments: 1 },
    upstreamFailures: 1,
    // Every answer's tokens (a sum of texts, checked apart), and nothing cut at the default.
    tokensReturned: stats.body.counters.tokensReturned,
    resultsCut: 0,
    moreCalls: 0,
  });

  // Another tenant sees nothing of it, even with the same session name.
  equal((await b.get(`/v1/sessions/${session}`)).status, 404);
  const foreign = await b.post("/v1/route", { ...base, arguments: execute });
  equal(foreign.body.error?.code, "describe_first");
  equal((await a.get(`/v1/sessions/${session}`)).body.counters.errors.describe_first, 1);

  // A new catalogue starts a new generation: described cleared, counters kept.
  const smaller = catalog.filter((t) => t.server !== "azure");
  const renewed = await a.post("/v1/route", { catalog: smaller, session, arguments: describe });
  equal(renewed.body.elided, false);
  const generation2 = await a.get(`/v1/sessions/${session}`);
  equal(generation2.body.generation, 2);
  deepEqual(generation2.body.described, ["github/create_issue"]);
  equal(generation2.body.counters.describes, 4);
  ok(generation2.body.catalogHash !== stats.body.catalogHash);

  // 50 concurrent describes on one session: 50 described.
  const many = `${session}-many`;
  const ids = smaller.map(toolId).slice(0, 50);
  const results = await Promise.all(
    ids.map((id) =>
      a.post("/v1/route", {
        catalog: smaller,
        session: many,
        arguments: { action: "describe", name: id },
      })
    ),
  );
  ok(
    results.every((r) =>
      r.status === 200 && r.body.action === "describe" && r.body.elided === false
    ),
  );
  const crowded = await a.get(`/v1/sessions/${many}`);
  equal(crowded.body.described.length, 50);
  equal(crowded.body.counters.describes, 50);

  // Delete.
  equal((await a.delete(`/v1/sessions/${session}`)).status, 204);
  equal((await a.get(`/v1/sessions/${session}`)).status, 404);
  equal((await a.delete(`/v1/sessions/${many}`)).status, 204);
  equal((await b.delete(`/v1/sessions/${session}`)).status, 204);
}
