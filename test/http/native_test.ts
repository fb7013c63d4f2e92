// The native tool search routes over HTTP (in-process): both APIs' tools, search and resolve,
// the catalogue by value and by catalogRef, sessions, and hostile inputs as for the other routes.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import type { CatalogStore } from "../../src/http/catalog_cache.ts";
import { httpSchemas } from "../../src/http/schemas.ts";
import { DEFAULT_SETTINGS, type HttpSettings } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { hasInvisible } from "../../src/untrusted.ts";
import { realServerTools } from "../_data.ts";
import { client } from "./_client.ts";

const schemas = httpSchemas(DEFAULT_SETTINGS);
const catalog = realServerTools();

function setup(settings: Partial<HttpSettings> = {}) {
  const errors: unknown[] = [];
  const app = createApp({
    store: new MemorySessionStore(),
    settings,
    onUnexpectedError: (e) => errors.push(e),
  });
  return { errors, api: client((path, init) => Promise.resolve(app.request(path, init))) };
}

const toolUse = (input: unknown, name = "search_tools") => ({
  type: "tool_use",
  id: "toolu_01",
  name,
  input,
});

function conforms(schema: keyof typeof schemas, body: unknown): void {
  const result = schemas[schema].safeParse(body);
  ok(result.success, `${schema}: ${JSON.stringify(result.error?.issues.slice(0, 3))}`);
}

Deno.test("the Claude routes: tools, search by catalogRef, resolve, each matching its schema", async () => {
  const { api, errors } = setup();
  const tools = await api.post("/v1/native/anthropic/tools", {
    catalog,
    pinned: ["memory/read_graph"],
    budget: { availableContextTokens: 32_000 },
  });
  equal(tools.status, 200);
  conforms("NativeClaudeToolsResponse", tools.body);
  equal(tools.body.tools.length, 229);
  const names = new Set(tools.body.tools.map((t: { name: string }) => t.name));
  const ref = tools.body.catalogHash;
  const search = await api.post("/v1/native/anthropic/search", {
    catalogRef: ref,
    pinned: ["memory/read_graph"],
    toolUse: toolUse({ query: "create a github issue", limit: 3 }),
  });
  equal(search.status, 200);
  conforms("NativeClaudeSearchResponse", search.body);
  equal(search.body.toolResult.tool_use_id, "toolu_01");
  equal(search.body.toolResult.content.length, 3);
  for (const block of search.body.toolResult.content) ok(names.has(block.tool_name));
  const resolve = await api.post("/v1/native/anthropic/resolve", {
    catalogRef: ref,
    toolUse: toolUse({ owner: "o", repo: "r", title: "t" }, "github__create_issue"),
  });
  equal(resolve.status, 200);
  conforms("NativeResolveResponse", resolve.body);
  deepEqual([resolve.body.id, resolve.body.arguments.title], ["github/create_issue", "t"]);
  equal(errors.length, 0);
});

Deno.test("the OpenAI routes: namespaces, a tool_search_output under the same namespaces, resolve", async () => {
  const { api } = setup();
  const tools = await api.post("/v1/native/openai/tools", { catalog });
  equal(tools.status, 200);
  conforms("NativeOpenAiToolsResponse", tools.body);
  equal(tools.body.tools.length, 15);
  const search = await api.post("/v1/native/openai/search", {
    catalogRef: tools.body.catalogHash,
    call: {
      type: "tool_search_call",
      call_id: "call_9",
      arguments: '{"query":"take a screenshot"}',
    },
  });
  equal(search.status, 200);
  conforms("NativeOpenAiSearchResponse", search.body);
  equal(search.body.output.call_id, "call_9");
  ok(search.body.output.tools.length > 0);
  const byNamespace = new Map<string, Set<string>>(
    tools.body.tools.filter((t: { type: string }) => t.type === "namespace").map((
      t: { name: string; tools: { name: string }[] },
    ) => [t.name, new Set(t.tools.map((f) => f.name))]),
  );
  for (const namespace of search.body.output.tools) {
    for (const f of namespace.tools) ok(byNamespace.get(namespace.name)!.has(f.name));
  }
  const resolve = await api.post("/v1/native/openai/resolve", {
    catalogRef: tools.body.catalogHash,
    call: {
      type: "function_call",
      name: "memory__read_graph",
      namespace: "memory",
      arguments: "{}",
      call_id: "call_10",
    },
  });
  equal(resolve.status, 200, JSON.stringify(resolve.body));
  equal(resolve.body.id, "memory/read_graph");
});

Deno.test("resolve answers 422 problems with stable codes and pointers into the call", async () => {
  const { api, errors } = setup();
  const unknown = await api.post("/v1/native/anthropic/resolve", {
    catalog,
    toolUse: toolUse({}, "github__nope"),
  });
  equal(unknown.status, 422);
  equal(unknown.body.code, "unknown_tool");
  match(unknown.body.detail, /Cannot resolve github__nope: no tool of this catalogue/);
  deepEqual(unknown.body.errors.map((e: { pointer: string }) => e.pointer), ["/toolUse/name"]);
  const invalid = await api.post("/v1/native/openai/resolve", {
    catalog,
    call: {
      type: "function_call",
      name: "filesystem__read_text_file",
      arguments: '{"path":7}',
      call_id: "c",
    },
  });
  equal(invalid.status, 422);
  equal(invalid.body.code, "invalid_arguments");
  deepEqual(invalid.body.errors.map((e: { pointer: string }) => e.pointer), [
    "/call/arguments/path",
  ]);
  conforms("Problem", invalid.body);
  equal(errors.length, 0);
});

Deno.test("bad native bodies are 400 problems naming the field", async () => {
  const { api } = setup();
  const cases: Array<[string, unknown, string]> = [
    ["/v1/native/anthropic/search", { catalog }, "/toolUse"],
    [
      "/v1/native/anthropic/search",
      { catalog, toolUse: toolUse({}, "github__x") },
      "/toolUse/name",
    ],
    ["/v1/native/anthropic/tools", { catalog, pinned: ["a/b"] }, "/pinned/0"],
    ["/v1/native/openai/search", { catalog, call: { type: "function_call" } }, "/call/type"],
    ["/v1/native/openai/resolve", { catalog, call: { type: "function_call", name: "x" } }, "/call"],
    ["/v1/native/openai/tools", { catalog, catalogRef: "0".repeat(64) }, "/catalogRef"],
    ["/v1/native/openai/tools", { catalog, toolz: 1 }, "/toolz"],
  ];
  for (const [path, body, pointer] of cases) {
    const response = await api.post(path, body);
    equal(response.status, 400, `${path} ${JSON.stringify(response.body)}`);
    equal(response.body.code, "invalid_request");
    ok(
      response.body.errors.some((e: { pointer: string }) => e.pointer.startsWith(pointer)),
      `${pointer} in ${JSON.stringify(response.body.errors)}`,
    );
  }
});

Deno.test("a catalogRef this server does not hold is 409 catalog_unknown on every native route", async () => {
  const { api } = setup();
  for (const api_ of ["anthropic", "openai"]) {
    const response = await api.post(`/v1/native/${api_}/tools`, { catalogRef: "0".repeat(64) });
    equal(response.status, 409);
    equal(response.body.code, "catalog_unknown");
  }
});

Deno.test("a session through HTTP: loaded tools are not loaded again, and the counters move", async () => {
  const { api } = setup();
  const body = { catalog, session: "chat-1", toolUse: toolUse({ query: "read a file", limit: 2 }) };
  const first = await api.post("/v1/native/anthropic/search", body);
  equal(first.body.toolResult.content.length, 2);
  const second = await api.post("/v1/native/anthropic/search", body);
  deepEqual(second.body.toolResult.content.map((b: { type: string }) => b.type), ["text"]);
  match(second.body.toolResult.content[0].text, /Already loaded in this conversation/);
  const info = await api.get("/v1/sessions/chat-1");
  equal(info.body.counters.searches, 2);
  equal(info.body.counters.describes, 4);
  equal(info.body.counters.elidedDescribes, 2);
});

Deno.test("hostile native inputs: size, depth and invisible characters", async () => {
  const { api, errors } = setup({ maxBodyBytes: 200_000 });
  // Size: the body limit of the other routes.
  const big = await api.post("/v1/native/anthropic/tools", { catalog: realServerTools() });
  equal(big.status, 413);
  equal(big.body.code, "payload_too_large");
  // Depth: a deeply nested input is refused as arguments, never a crash.
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
  const small = '[{"server":"s","name":"t","inputSchema":{"type":"object"}}]';
  const resolve = await api.post(
    "/v1/native/anthropic/resolve",
    `{"catalog":${small},"toolUse":{"type":"tool_use","id":"x","name":"s__t","input":${
      deep(20_000)
    }}}`,
  );
  equal(resolve.status, 422);
  equal(resolve.body.code, "invalid_arguments");
  const search = await api.post(
    "/v1/native/anthropic/search",
    `{"catalog":${small},"toolUse":{"type":"tool_use","id":"x","name":"search_tools","input":${
      deep(20_000)
    }}}`,
  );
  equal(search.status, 200);
  equal(search.body.toolResult.is_error, true);
  const deepCatalog = await api.post(
    "/v1/native/openai/tools",
    `{"catalog":[{"server":"s","name":"t","inputSchema":{"type":"object","properties":${
      deep(5_000)
    }}}]}`,
  );
  equal(deepCatalog.status, 422);
  equal(deepCatalog.body.code, "invalid_catalog");
  // Invisible characters: never in what the model reads; names stay valid.
  const hidden = [{
    server: "s\u200B",
    name: "t\u{E0041}",
    description: "Reads\u202E a file",
    inputSchema: { type: "object" },
  }];
  for (const path of ["/v1/native/anthropic/tools", "/v1/native/openai/tools"]) {
    const response = await api.post(path, { catalog: hidden });
    equal(response.status, 200);
    const text = JSON.stringify(response.body.tools);
    ok(!hasInvisible(text), `${path}: ${text}`);
  }
  equal(errors.length, 0);
});

Deno.test("the OpenAPI document lists every native route with its request and problems", async () => {
  const { api } = setup();
  const doc = (await api.get("/openapi.json")).body;
  for (const apiName of ["anthropic", "openai"]) {
    for (const verb of ["tools", "search", "resolve"]) {
      const operation = doc.paths[`/v1/native/${apiName}/${verb}`]?.post;
      ok(operation, `${apiName}/${verb}`);
      match(operation.requestBody.content["application/json"].schema.$ref, /Native.*Request$/);
      ok(operation.responses["409"]);
      if (verb === "resolve") ok(operation.responses["422"].description.includes("unknown_tool"));
    }
  }
  deepEqual(doc.components.schemas.NativeClaudeSearchRequest.oneOf, [
    { required: ["catalog"] },
    { required: ["catalogRef"] },
  ]);
});

Deno.test("a native search keeps the index it built in the catalogue store, as /v1/route does", async () => {
  const saved: string[] = [];
  const store: CatalogStore = {
    save: () => Promise.resolve(),
    saveIndex: (_tenant, hash) => {
      saved.push(hash);
      return Promise.resolve();
    },
    load: () => Promise.resolve(undefined),
  };
  const app = createApp({ store: new MemorySessionStore(), catalogs: { store } });
  const api = client((path, init) => Promise.resolve(app.request(path, init)));
  const claude = await api.post("/v1/native/anthropic/search", {
    catalog,
    toolUse: toolUse({ query: "take a screenshot" }),
  });
  equal(claude.status, 200);
  deepEqual(saved, [claude.body.catalogHash]);
  const small = [{ server: "s", name: "t", inputSchema: { type: "object" } }];
  const openai = await api.post("/v1/native/openai/search", {
    catalog: small,
    call: { type: "tool_search_call", call_id: "c", arguments: { query: "t" } },
  });
  deepEqual(saved, [claude.body.catalogHash, openai.body.catalogHash]);
});
