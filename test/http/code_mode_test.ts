import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/mod.ts";
import { CONTRACT_TOOLS, replayThroughRoute } from "../_contracts/sandbox_contract.ts";
import { VmSandbox } from "../code_mode/_vm_sandbox.ts";

const schemas = httpSchemas(DEFAULT_SETTINGS);
const app = (sandbox = true) =>
  createApp({
    store: new MemorySessionStore(),
    codeMode: sandbox ? { sandbox: new VmSandbox() } : {},
  });
const post = (api: ReturnType<typeof createApp>, body: unknown) =>
  Promise.resolve(api.request("/v1/route", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));
const RUN = { action: "run", code: `return await call("fs/read", { path: "a" })` };

Deno.test("/v1/route keeps run off unless the request turns code mode on", async () => {
  const response = await post(app(), { catalog: CONTRACT_TOOLS, arguments: RUN });
  const body = await response.json();
  equal(body.action, "error");
  equal(body.error.code, "invalid_arguments");
});

Deno.test("/v1/route replays a run: a call for the host, then the run's answer", async () => {
  const api = app();
  const first = await (await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "read-only" },
  })).json();
  equal(schemas.RouteResult.safeParse(first).success, true, JSON.stringify(first));
  deepEqual([first.action, first.id, first.arguments, first.index], ["call", "fs/read", {
    path: "a",
  }, 0]);
  const answer = await replayThroughRoute((b) => post(api, b), RUN.code, {
    mode: "read-only",
    limits: {},
  });
  equal(answer.result, "read:a");
  deepEqual(answer.calls, [{ id: "fs/read", ok: true }]);
  const last = await (await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "read-only" },
    results: [{ content: [{ type: "text", text: "read:a" }] }],
  })).json();
  equal(schemas.RouteResult.safeParse(last).success, true, JSON.stringify(last));
  equal("code" in last, false);
});

Deno.test("a run ended in a session is counted there", async () => {
  const api = app();
  const body = {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "read-only" },
    session: "chat-1",
    results: [{ content: [{ type: "text", text: "read:a" }] }],
  };
  equal((await (await post(api, body)).json()).action, "run");
  const info = await (await api.request("/v1/sessions/chat-1")).json();
  deepEqual([info.counters.runs, info.counters.scriptCalls, info.counters.executes], [1, 1, 1]);
});

Deno.test("results are refused without a run, and when they do not fit it", async () => {
  const api = app();
  const stray = await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: { action: "search", query: "read" },
    results: [],
  });
  equal(stray.status, 400);
  equal((await stray.json()).errors[0].pointer, "/results");
  const extra = await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "read-only" },
    results: [{ content: [] }, { content: [] }],
  });
  equal(extra.status, 400);
  match((await extra.json()).detail, /the script made 1 calls/);
});

Deno.test("a request may lower a run's bounds, never raise them over the deployment's", async () => {
  const over = await post(app(), {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "all", codeLimits: { timeoutMs: 600_000 } },
  });
  equal(over.status, 422);
  const problem = await over.json();
  equal(problem.code, "invalid_config");
  equal(problem.errors[0].pointer, "/options/codeLimits/timeoutMs");
  const unknown = await post(app(), {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "all", codeLimits: { timeout: 1 } },
  });
  equal(unknown.status, 422);
  match((await unknown.json()).detail, /did you mean "timeoutMs"/);
});

Deno.test("a deployment without a sandbox answers a run that it cannot run here", async () => {
  const body = await (await post(app(false), {
    catalog: CONTRACT_TOOLS,
    arguments: RUN,
    options: { codeMode: "all" },
  })).json();
  equal(body.action, "run");
  equal(body.error.code, "unavailable");
});

Deno.test("/v1/inject's bridge tool offers run when the request turns code mode on", async () => {
  const response = await app().request("/v1/inject", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ catalog: CONTRACT_TOOLS, options: { codeMode: "read-only" } }),
  });
  const { injection } = await response.json();
  ok(injection.bridgeTool.function.description.includes("run:"));
});

Deno.test("a run's long answer is cut at the ceiling, and more gives the rest in the session", async () => {
  const api = app();
  const code = "return Array.from({ length: 400 }, (_, i) => 'line ' + i)";
  const options = { codeMode: "all", maxResultTokens: 200 };
  const first = await (await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: { action: "run", code },
    options,
    session: "long",
  })).json();
  equal(first.action, "run");
  equal(first.result.length, 400);
  ok(first.toolResult.includes("[Cut by unfold:"));
  equal(first.cut.next.action, "more");
  const more = await (await post(api, {
    catalog: CONTRACT_TOOLS,
    arguments: first.cut.next,
    options,
    session: "long",
  })).json();
  equal(more.action, "more");
  // The next part, in the shape of the answer that was cut: an MCP result's text block.
  ok(JSON.stringify(more.toolResult).includes("line 100"), JSON.stringify(more).slice(0, 300));
});
