import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { sha256Hex } from "../../src/canonical_json.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS, type HttpSettings } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { type SessionStore, SessionStoreError } from "../../src/session/store.ts";
import { tool } from "../_data.ts";
import { client } from "./_client.ts";

const schemas = httpSchemas(DEFAULT_SETTINGS);
const catalog = [
  tool("github", "create_issue", "Create an issue", {
    title: { type: "string" },
  }),
  tool("slack", "post_message", "Post a message to a channel", {
    channel: { type: "string" },
  }),
];
catalog[1]!.inputSchema.required = ["channel"];

function setup(
  settings: Partial<HttpSettings> = {},
  store: SessionStore = new MemorySessionStore(),
) {
  const errors: unknown[] = [];
  const app = createApp({ store, settings, onUnexpectedError: (e) => errors.push(e) });
  return { app, errors, api: client((path, init) => Promise.resolve(app.request(path, init))) };
}

function isProblem(
  response: { status: number; headers: Headers; body: unknown },
  status: number,
  code: string,
) {
  equal(response.status, status, JSON.stringify(response.body));
  equal(response.headers.get("content-type"), "application/problem+json");
  const body = schemas.Problem.parse(response.body);
  equal(body.code, code);
  equal(body.status, status);
  equal(body.type, `urn:unfold:problem:${code}`);
  return body;
}

Deno.test("GET /healthz answers ok and the version", async () => {
  const { api } = setup();
  const health = await api.get("/healthz");
  deepEqual(schemas.Health.parse(health.body), { ok: true, version: "0.1.0" });
});

Deno.test("unknown routes are not_found and wrong methods method_not_allowed with Allow", async () => {
  const { api } = setup();
  isProblem(await api.get("/v2/nothing"), 404, "not_found");
  const wrong = await api.get("/v1/route");
  isProblem(wrong, 405, "method_not_allowed");
  equal(wrong.headers.get("allow"), "POST");
  const put = await api.call("PUT", "/v1/sessions/abc", {});
  isProblem(put, 405, "method_not_allowed");
  equal(put.headers.get("allow"), "GET, DELETE");
});

Deno.test("POST /v1/inject returns the injection, or null for an empty catalogue", async () => {
  const { api } = setup();
  const response = await api.post("/v1/inject", {
    catalog,
    budget: { availableContextTokens: 50_000 },
  });
  equal(response.status, 200);
  const body = schemas.InjectResponse.parse(response.body);
  equal(body.injection?.mode, "manifest");
  equal(body.injection?.inventoryBudgetTokens, 3000);
  const empty = schemas.InjectResponse.parse((await api.post("/v1/inject", { catalog: [] })).body);
  equal(empty.injection, null);
  equal(empty.catalogHash, await sha256Hex("[]"));
});

Deno.test("POST /v1/inject applies options: format, bridge name, disclosure, server information", async () => {
  const { api } = setup();
  const response = await api.post("/v1/inject", {
    catalog,
    servers: [{ server: "slack", title: "Slack", description: "Team chat." }],
    options: { toolFormat: "anthropic", bridgeName: "tools", disclosure: ["names", "inventory"] },
  });
  const injection = response.body.injection;
  equal(injection.bridgeTool.name, "tools");
  ok("input_schema" in injection.bridgeTool);
  equal(injection.mode, "names");
  match(injection.prompt, /slack \(1 tool, "Slack: Team chat\."\): post_message/);
});

type RouteResult = ReturnType<typeof schemas.RouteResult.parse>;

// The body as a RouteResult of one action (the schema's discriminated union, narrowed).
function routed<A extends RouteResult["action"]>(
  body: unknown,
  action: A,
): Extract<RouteResult, { action: A }> {
  const result = schemas.RouteResult.parse(body);
  equal(result.action, action, JSON.stringify(body));
  return result as Extract<RouteResult, { action: A }>;
}

// POSTs the arguments to /v1/route with the catalogue, no session, and narrows the body as routed.
async function route<A extends RouteResult["action"]>(
  api: ReturnType<typeof setup>["api"],
  args: unknown,
  action: A,
): Promise<Extract<RouteResult, { action: A }>> {
  return routed((await api.post("/v1/route", { catalog, arguments: args })).body, action);
}

Deno.test("POST /v1/route searches, describes and executes, with toolResult for the model", async () => {
  const { api } = setup();
  const search = await route(api, { action: "search", query: "send a message" }, "search");
  equal(search.matches[0]?.id, "slack/post_message");
  match(search.toolResult, /^Top 1 of 2 tools/);
  const describe = await route(
    api,
    '{"action":"describe","name":"slack/post_message"}',
    "describe",
  );
  equal(describe.id, "slack/post_message");
  deepEqual(describe.tool.inputSchema, catalog[1]!.inputSchema);
  match(describe.toolResult, /Input schema: \{"type":"object"/);
  const execute = await route(
    api,
    { action: "execute", name: "slack/post_message", arguments: { channel: "x" } },
    "execute",
  );
  deepEqual([execute.id, execute.arguments], ["slack/post_message", { channel: "x" }]);
  equal("toolResult" in execute, false);
});

Deno.test("POST /v1/route returns model mistakes as 200 action error with a toolResult", async () => {
  const { api } = setup();
  for (
    const [args, code] of [
      ['{"action":', "invalid_json"],
      [{ action: "fly" }, "invalid_arguments"],
      [{ action: "describe", name: "post_message" }, "unknown_tool"],
      [{ action: "execute", name: "slack/post_message", arguments: {} }, "invalid_arguments"],
    ] as const
  ) {
    const response = await api.post("/v1/route", { catalog, arguments: args });
    equal(response.status, 200);
    const body = routed(response.body, "error");
    equal(body.error.code, code);
    match(body.toolResult, new RegExp(`^Error ${code}: `));
  }
  const missing = await route(
    api,
    { action: "execute", name: "slack/post_message" },
    "error",
  );
  deepEqual(missing.error.problems, [{
    pointer: "",
    message: 'Instance does not have required property "channel".',
  }]);
  equal(missing.id, "slack/post_message");
});

Deno.test("without a session, route neither enforces describe-first nor elides", async () => {
  const { api } = setup();
  const args = { action: "execute", name: "slack/post_message", arguments: { channel: "c" } };
  equal((await api.post("/v1/route", { catalog, arguments: args })).body.action, "execute");
  const describe = { action: "describe", name: "slack/post_message" };
  await api.post("/v1/route", { catalog, arguments: describe });
  equal((await api.post("/v1/route", { catalog, arguments: describe })).body.elided, undefined);
});

Deno.test("sessions: describe-first can be turned off, and resend forces the schema", async () => {
  const { api } = setup();
  const base = { catalog, session: "s-1" };
  const execute = { action: "execute", name: "slack/post_message", arguments: { channel: "c" } };
  const off = await api.post("/v1/route", {
    ...base,
    arguments: execute,
    options: { describeFirst: "off" },
  });
  equal(off.body.action, "execute");
  const enforced = await api.post("/v1/route", { ...base, arguments: execute });
  equal(enforced.body.error.code, "describe_first");
  const describe = { action: "describe", name: "slack/post_message" };
  equal((await api.post("/v1/route", { ...base, arguments: describe })).body.elided, true);
  const resent = await api.post("/v1/route", {
    ...base,
    arguments: describe,
    options: { resend: true },
  });
  equal(resent.body.elided, false);
  match(resent.body.toolResult, /Input schema/);
});

Deno.test("sessions: the catalogue hash ignores tool order, so the generation stays", async () => {
  const { api } = setup();
  await api.post("/v1/inject", { catalog, session: "order" });
  await api.post("/v1/route", {
    catalog: [...catalog].reverse(),
    session: "order",
    arguments: { action: "search", query: "issue" },
  });
  const info = schemas.SessionInfo.parse((await api.get("/v1/sessions/order")).body);
  equal(info.generation, 1);
  equal(info.counters.searches, 1);
  match(info.catalogHash!, /^[0-9a-f]{64}$/);
  ok(!Number.isNaN(Date.parse(info.createdAt)));
});

Deno.test("sessions: unknown ones are not_found, bad names invalid_request, delete is idempotent", async () => {
  const { api } = setup();
  isProblem(await api.get("/v1/sessions/none"), 404, "not_found");
  isProblem(await api.get(`/v1/sessions/${"x".repeat(129)}`), 400, "invalid_request");
  isProblem(await api.get("/v1/sessions/bad%20name"), 400, "invalid_request");
  equal((await api.delete("/v1/sessions/none")).status, 204);
  isProblem(
    await api.post("/v1/inject", { catalog, session: "no spaces" }),
    400,
    "invalid_request",
  );
});

Deno.test("bad bodies: invalid_json and invalid_request name the problem", async () => {
  const { api } = setup();
  match(
    isProblem(await api.post("/v1/inject", "{nope"), 400, "invalid_json").detail,
    /not valid JSON/,
  );
  match(isProblem(await api.post("/v1/inject", ""), 400, "invalid_json").detail, /empty/);
  isProblem(await api.post("/v1/inject", [1, 2]), 400, "invalid_request");
  const session = isProblem(
    await api.post("/v1/inject", { catalog, session: 7 }),
    400,
    "invalid_request",
  );
  equal(session.detail, "/session: must be a string, got an integer");
});

Deno.test("a missing required field is invalid_request at the body, invalid_catalog in an entry", async () => {
  const { api } = setup();
  for (
    const [route, body, pointer] of [
      ["/v1/route", { catalog }, "/arguments"],
      ["/v1/route", { arguments: {} }, "/catalog"],
      ["/v1/inject", {}, "/catalog"],
      ["/v1/result", { tool: "a/b" }, "/result"],
    ] as const
  ) {
    const missing = isProblem(await api.post(route, body), 400, "invalid_request");
    deepEqual(missing.errors, [{ pointer, message: "is required" }]);
    equal(missing.detail, `${pointer}: is required`);
  }
  const { server: _, ...nameless } = catalog[0]!;
  const entry = isProblem(
    await api.post("/v1/inject", { catalog: [nameless] }),
    422,
    "invalid_catalog",
  );
  deepEqual(entry.errors, [{ pointer: "/catalog/0/server", message: "is required" }]);
});

Deno.test("an unknown key is named once, at its pointer, with the closest known key", async () => {
  const { api } = setup();
  const root = isProblem(
    await api.post("/v1/inject", { catalog, bugdet: {} }),
    400,
    "invalid_request",
  );
  equal(root.detail, '/bugdet: unknown field; did you mean "budget"?');
  deepEqual(root.errors, [{
    pointer: "/bugdet",
    message: 'unknown field; did you mean "budget"?',
  }]);
  const nested = isProblem(
    await api.post("/v1/inject", { catalog, options: { toolformat: "mcp" } }),
    422,
    "invalid_config",
  );
  equal(nested.detail, '/options/toolformat: unknown field; did you mean "toolFormat"?');
  const server = isProblem(
    await api.post("/v1/inject", { catalog, servers: [{ server: "slack", titel: "Slack" }] }),
    422,
    "invalid_catalog",
  );
  equal(server.detail, '/servers/0/titel: unknown field; did you mean "title"?');
  const far = isProblem(
    await api.post("/v1/route", { catalog, arguments: {}, zzz: 1, "a/b": 2 }),
    400,
    "invalid_request",
  );
  deepEqual(far.errors?.map((e) => e.pointer), ["/zzz", "/a~1b"]);
  match(far.errors![0]!.message, /^unknown field; the fields here are "catalog", "servers", /);
  match(far.detail, /\(and 1 more\)$/);
});

Deno.test("many problems list at most 20 and count the rest", async () => {
  const { api } = setup();
  const keys = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
  const many = isProblem(
    await api.post("/v1/inject", { catalog, ...keys }),
    400,
    "invalid_request",
  );
  equal(many.errors?.length, 20);
  match(many.detail, /^\/k0: unknown field.*\(and 4999 more\)$/);
});

Deno.test("bad catalogues are invalid_catalog naming the entry, field and rule", async () => {
  const { api } = setup({ maxTools: 3 });
  const shape = isProblem(
    await api.post("/v1/inject", {
      catalog: [catalog[0], { ...catalog[1], inputSchema: "object" }],
    }),
    422,
    "invalid_catalog",
  );
  deepEqual(shape.errors?.[0]?.pointer, "/catalog/1/inputSchema");
  match(shape.detail, /^\/catalog\/1\/inputSchema \("slack\/post_message"\)/);
  const rule = isProblem(
    await api.post("/v1/inject", { catalog: [{ ...catalog[0], server: "a/b" }] }),
    422,
    "invalid_catalog",
  );
  deepEqual(rule.errors, [{ pointer: "/catalog/0/server", message: 'must not contain "/"' }]);
  const duplicate = isProblem(
    await api.post("/v1/inject", { catalog: [catalog[0], catalog[0]] }),
    422,
    "invalid_catalog",
  );
  match(duplicate.detail, /catalog\[1\] \("github\/create_issue"\).*repeats/);
  const many = isProblem(
    await api.post("/v1/inject", { catalog: [1, 2, 3, 4].map((i) => tool("s", `t${i}`)) }),
    422,
    "invalid_catalog",
  );
  equal(many.detail, "/catalog: must hold at most 3 tools (UNFOLD_MAX_TOOLS)");
  const servers = isProblem(
    await api.post("/v1/inject", { catalog, servers: [{ server: "nowhere" }] }),
    422,
    "invalid_catalog",
  );
  deepEqual(servers.errors?.[0]?.pointer, "/servers/0/server");
});

Deno.test("bad budgets and options are invalid_config", async () => {
  const { api } = setup();
  for (
    const [body, pointer] of [
      [{ budget: { availableContextTokens: 0 } }, "/budget/availableContextTokens"],
      [{ budget: { inventoryThresholdPercent: 150 } }, "/budget/inventoryThresholdPercent"],
      [{ options: { toolFormat: "gemini" } }, "/options/toolFormat"],
      [{ options: { searchDefaultLimit: 30 } }, "/options/searchDefaultLimit"],
    ] as const
  ) {
    const problem = isProblem(
      await api.post("/v1/inject", { catalog, ...body }),
      422,
      "invalid_config",
    );
    equal(problem.errors?.[0]?.pointer, pointer, JSON.stringify(problem));
  }
});

Deno.test("bodies over the limit are payload_too_large, also when streamed without a length", async () => {
  const { app, api } = setup({ maxBodyBytes: 1000 });
  const big = { catalog: [tool("s", "t", "x".repeat(2000))] };
  equal(
    isProblem(await api.post("/v1/inject", big), 413, "payload_too_large").detail,
    "The body exceeds 1000 bytes: send less, or raise UNFOLD_MAX_BODY_BYTES",
  );
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(new TextEncoder().encode("x".repeat(100)));
      controller.close();
    },
  });
  const response = await app.request(
    "/v1/inject",
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit,
  );
  equal(response.status, 413);
  equal((await response.json()).code, "payload_too_large");
});

Deno.test("auth: /v1 needs a valid bearer token; /healthz and /openapi.json stay open", async () => {
  const { app } = setup({ tokens: ["t1", "t2"] });
  const send = (token?: string) => client((p, i) => Promise.resolve(app.request(p, i)), token);
  isProblem(await send().post("/v1/inject", { catalog }), 401, "unauthorized");
  const wrong = await send("t3").post("/v1/inject", { catalog });
  isProblem(wrong, 401, "unauthorized");
  equal(wrong.headers.get("www-authenticate"), 'Bearer realm="unfold"');
  isProblem(
    await send().post("/v1/inject", { catalog }, { authorization: "Basic dDE6" }),
    401,
    "unauthorized",
  );
  equal((await send("t2").post("/v1/inject", { catalog })).status, 200);
  equal((await send().get("/healthz")).status, 200);
  equal((await send().get("/openapi.json")).status, 200);
  isProblem(await send().get("/v1/sessions/x"), 401, "unauthorized");
});

Deno.test("auth: each token is a tenant of its own", async () => {
  const { app } = setup({ tokens: ["t1", "t2"] });
  const one = client((p, i) => Promise.resolve(app.request(p, i)), "t1");
  const two = client((p, i) => Promise.resolve(app.request(p, i)), "t2");
  await one.post("/v1/inject", { catalog, session: "shared-name" });
  equal((await one.get("/v1/sessions/shared-name")).status, 200);
  equal((await two.get("/v1/sessions/shared-name")).status, 404);
  await two.delete("/v1/sessions/shared-name");
  equal((await one.get("/v1/sessions/shared-name")).status, 200);
});

Deno.test("a failing session store is a 503 without details; an unexpected error a 500 without a stack", async () => {
  const failing = (error: Error): SessionStore => ({
    apply: () => Promise.reject(error),
    get: () => Promise.reject(error),
    delete: () => Promise.reject(error),
  });
  const down = setup({}, failing(new SessionStoreError("connection refused to secret-host")));
  const unavailable = isProblem(
    await down.api.get("/v1/sessions/x"),
    503,
    "session_store_unavailable",
  );
  ok(!JSON.stringify(unavailable).includes("secret-host"));
  equal(down.errors.length, 1);
  const broken = setup({}, failing(new TypeError("boom at internal/file.ts:12")));
  const internal = isProblem(
    await broken.api.post("/v1/route", {
      catalog,
      session: "s",
      arguments: { action: "search", query: "x" },
    }),
    500,
    "internal_error",
  );
  ok(!JSON.stringify(internal).includes("boom") && !JSON.stringify(internal).includes("file.ts"));
});

Deno.test("POST /v1/result maps the upstream content for the model", async () => {
  const { api } = setup();
  const text = await api.post("/v1/result", {
    tool: "everything/echo",
    result: { content: [{ type: "text", text: "Echo: hi" }] },
  });
  deepEqual(schemas.ResultResponse.parse(text.body), { toolResult: "Echo: hi", isError: false });
  const mixed = await api.post("/v1/result", {
    tool: "everything/get-tiny-image",
    result: {
      content: [{ type: "text", text: "A tiny image:" }, {
        type: "image",
        mimeType: "image/png",
        data: "iVBO",
      }],
      structuredContent: { ok: true },
      _meta: { ignored: true },
    },
  });
  deepEqual(schemas.ResultResponse.parse(mixed.body), {
    toolResult: {
      content: [{ type: "text", text: "A tiny image:" }, {
        type: "image",
        mimeType: "image/png",
        data: "iVBO",
      }],
      structuredContent: { ok: true },
    },
    isError: false,
  });
});

Deno.test("POST /v1/result turns an error result into isError text and counts it in the session", async () => {
  const { api } = setup();
  const failed = await api.post("/v1/result", {
    session: "r1",
    tool: "fs/read_file",
    result: { content: [{ type: "text", text: "ENOENT: no such file" }], isError: true },
  });
  deepEqual(schemas.ResultResponse.parse(failed.body), {
    toolResult: "Error tool_error: the tool fs/read_file failed: ENOENT: no such file",
    isError: true,
    error: { code: "tool_error", message: "ENOENT: no such file" },
  });
  await api.post("/v1/result", { session: "r1", tool: "fs/read_file", result: { content: [] } });
  equal(
    schemas.SessionInfo.parse((await api.get("/v1/sessions/r1")).body).counters.upstreamFailures,
    1,
  );
});

Deno.test("POST /v1/result passes audio within the byte ceiling, names it in a line past it, and refuses a malformed block", async () => {
  const { api } = setup();
  const audio = { type: "audio", mimeType: "audio/wav", data: "UklGRg==" };
  const passed = await api.post("/v1/result", {
    session: "r2",
    tool: "tts/speak",
    result: { content: [audio] },
  });
  equal(passed.status, 200);
  equal(passed.body.isError, false);
  deepEqual(passed.body.toolResult, [audio]);
  const big = { ...audio, data: "A".repeat(4 * 1024) }; // 3 KiB decoded
  const named = await api.post("/v1/result", {
    tool: "tts/speak",
    options: { maxResultBytes: 1024 },
    result: { content: [big] },
  });
  equal(
    named.body.toolResult,
    "[audio (audio/wav, 3.0 KiB) not shown: over the 1.0 KiB unfold passes on in one answer]",
  );
  equal(named.body.cut, undefined);
  const malformed = await api.post("/v1/result", {
    session: "r2",
    tool: "tts/speak",
    result: { content: [{ type: "audio", mimeType: "audio/wav" }] },
  });
  equal(malformed.body.isError, true);
  equal(malformed.body.error.code, "unsupported_content");
  match(malformed.body.toolResult, /^Error unsupported_content: .*audio/);
  equal((await api.get("/v1/sessions/r2")).body.counters.upstreamFailures, 0);
});

Deno.test("POST /v1/result rejects a body without a tool id or a result", async () => {
  const { api } = setup();
  isProblem(
    await api.post("/v1/result", { tool: "echo", result: { content: [] } }),
    400,
    "invalid_request",
  );
  isProblem(await api.post("/v1/result", { tool: "a/b" }), 400, "invalid_request");
  isProblem(
    await api.post("/v1/result", { tool: "a/b", result: { content: "text" } }),
    400,
    "invalid_request",
  );
});

Deno.test("a POST body must be declared JSON: unsupported_media_type otherwise", async () => {
  const { app, api } = setup();
  const body = JSON.stringify({ catalog });
  for (
    const type of [
      undefined,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonp",
      "json",
    ]
  ) {
    const response = await app.request("/v1/inject", {
      method: "POST",
      body,
      headers: type === undefined ? {} : { "content-type": type },
    });
    // A Request built from a string body gets text/plain unless told otherwise.
    const problem = isProblem(
      { status: response.status, headers: response.headers, body: await response.json() },
      415,
      "unsupported_media_type",
    );
    match(problem.detail, /^Send the body as JSON with Content-Type: application\/json \(got "/);
    equal(response.headers.get("accept-post"), "application/json");
  }
  for (
    const type of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/vnd.api+json",
    ]
  ) {
    equal((await api.post("/v1/inject", { catalog }, { "content-type": type })).status, 200, type);
  }
  isProblem(
    await api.post("/v1/result", { tool: "a/b", result: {} }, { "content-type": "text/plain" }),
    415,
    "unsupported_media_type",
  );
});

Deno.test("a request from a browser origin is refused unless the origin is allowed", async () => {
  const { api } = setup();
  const evil = { origin: "https://evil.example" };
  const refused = isProblem(
    await api.post("/v1/route", { catalog, arguments: {} }, evil),
    403,
    "origin_not_allowed",
  );
  equal(
    refused.detail,
    'The origin "https://evil.example" may not call this API: list it in UNFOLD_ALLOWED_ORIGINS',
  );
  isProblem(await api.delete("/v1/sessions/s", evil), 403, "origin_not_allowed");
  isProblem(await api.get("/v1/sessions/s", { origin: "null" }), 403, "origin_not_allowed");
  equal((await api.get("/healthz", evil)).status, 200);
  equal((await api.post("/v1/inject", { catalog })).status, 200);
});

Deno.test("allowed origins get CORS headers and preflights, before the bearer token is checked", async () => {
  const { app } = setup({ tokens: ["t1"], allowedOrigins: ["https://app.example"] });
  const preflight = await app.request("/v1/route", {
    method: "OPTIONS",
    headers: {
      origin: "https://app.example",
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type",
    },
  });
  equal(preflight.status, 204);
  equal(preflight.headers.get("access-control-allow-origin"), "https://app.example");
  equal(preflight.headers.get("access-control-allow-headers"), "authorization,content-type");
  match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
  const api = client((p, i) => Promise.resolve(app.request(p, i)), "t1");
  const call = await api.post("/v1/inject", { catalog }, { origin: "https://app.example" });
  equal(call.status, 200);
  equal(call.headers.get("access-control-allow-origin"), "https://app.example");
  isProblem(
    await api.post("/v1/inject", { catalog }, { origin: "https://other.example" }),
    403,
    "origin_not_allowed",
  );
  const any = setup({ allowedOrigins: ["*"] });
  equal(
    (await any.api.post("/v1/inject", { catalog }, { origin: "https://x.example" })).status,
    200,
  );
});

Deno.test("a session that cannot record is 409 session_full, on /v1/route and on a native resolve", async () => {
  // No event reaches this through the real stores (a full session forgets its oldest schemas): a
  // store answering "full" stands for one that could not hold even one event.
  const full: SessionStore = {
    apply: () => ({ kind: "full", bytes: 70_000, limit: 65_536 }),
    get: () => undefined,
    delete: () => false,
  };
  const { api, errors } = setup({}, full);
  const text = 'Cannot record in session "s": its state would take 70000 bytes, more than 65536 ' +
    "(MAX_SESSION_BYTES); delete the session or start a new one";
  const routed = await api.post("/v1/route", {
    catalog,
    session: "s",
    arguments: { action: "describe", name: "github/create_issue" },
  });
  equal(isProblem(routed, 409, "session_full").detail, text);
  const resolved = await api.post("/v1/native/anthropic/resolve", {
    catalog,
    session: "s",
    toolUse: { type: "tool_use", id: "t1", name: "github__create_issue", input: { title: "x" } },
  });
  const problem = isProblem(resolved, 409, "session_full");
  equal(problem.detail, text);
  equal(problem.errors, undefined);
  deepEqual(errors, []);
});
