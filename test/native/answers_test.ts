import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Injector, McpCatalog, type McpTool } from "../../mod.ts";
import {
  CLAUDE_SEARCH_TOOL,
  claudeResolve,
  claudeSearch,
  claudeTools,
  openAiResolve,
  openAiSearch,
  openAiTools,
} from "../../src/native/mod.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { MAX_QUERY_CHARS } from "../../src/limits.ts";
import { hasInvisible } from "../../src/untrusted.ts";
import { DATA_DIR, liveMcpBench, realServerTools } from "../_data.ts";

const queries: string[] = Deno.readTextFileSync(`${DATA_DIR}/real-servers/everyday.jsonl`)
  .trim().split("\n").map((line) => JSON.parse(line).query);

const real = () => new Injector(new McpCatalog(realServerTools()));
const use = (input: unknown, id = "toolu_1") => ({
  type: "tool_use" as const,
  id,
  name: CLAUDE_SEARCH_TOOL,
  input,
});
const searchCall = (args: unknown, callId = "call_1") => ({
  type: "tool_search_call" as const,
  call_id: callId,
  arguments: args,
});

Deno.test("every tool_reference names a tool of the request's tools, for every everyday query", async () => {
  for (const injector of [real(), new Injector(new McpCatalog(liveMcpBench().tools))]) {
    const tools = claudeTools(injector);
    ok(tools.ok);
    const names = new Set(tools.value.map((t) => t.name));
    equal(names.size, injector.catalog.size + 1);
    let references = 0;
    for (const query of queries) {
      const result = await claudeSearch(injector, use({ query }));
      equal(result.tool_use_id, "toolu_1");
      ok(result.content.length > 0, `an empty result for ${query}`);
      for (const block of result.content) {
        if (block.type === "tool_reference") {
          references++;
          ok(names.has(block.tool_name), `${block.tool_name} is not in the tools`);
          ok(block.tool_name !== CLAUDE_SEARCH_TOOL);
        } else ok(block.text.length > 0);
      }
    }
    ok(references > queries.length);
  }
});

Deno.test("every loaded OpenAI function is a function of the request's namespaces, under the same namespace", async () => {
  const injector = real();
  const tools = openAiTools(injector);
  ok(tools.ok);
  const where = new Map<string, string>();
  for (const tool of tools.value) {
    if (tool.type === "namespace") { for (const f of tool.tools) where.set(f.name, tool.name); }
  }
  equal(where.size, 228);
  for (const query of queries) {
    const answer = await openAiSearch(injector, searchCall(JSON.stringify({ query })));
    equal(answer.output.call_id, "call_1");
    equal(answer.output.execution, "client");
    if (answer.output.tools.length === 0) ok(answer.miss!.length > 0);
    for (const namespace of answer.output.tools) {
      for (const f of namespace.tools) {
        equal(where.get(f.name), namespace.name, `${f.name} under ${namespace.name}`);
        equal(f.defer_loading, undefined);
        equal(f.parameters.type, "object");
      }
    }
  }
});

Deno.test("pinned tools are not deferred, every other tool is, in both APIs", () => {
  const injector = real();
  const pinned = ["filesystem/read_text_file", "github/create_issue"];
  const claude = claudeTools(injector, { pinned });
  ok(claude.ok);
  const [search, ...tools] = claude.value;
  equal(search!.name, CLAUDE_SEARCH_TOOL);
  equal(search!.defer_loading, undefined);
  deepEqual(
    tools.filter((t) => t.defer_loading !== true).map((t) => t.name),
    ["filesystem__read_text_file", "github__create_issue"],
  );
  const openai = openAiTools(injector, { pinned });
  ok(openai.ok);
  const functions = openai.value.flatMap((t) => t.type === "namespace" ? t.tools : []);
  deepEqual(
    functions.filter((f) => f.defer_loading !== true).map((f) => f.name),
    ["filesystem__read_text_file", "github__create_issue"],
  );
  const last = openai.value.at(-1)!;
  equal(last.type === "tool_search" && last.execution, "client");
  const bad = claudeTools(injector, { pinned: ["nope/x"] });
  equal(bad.ok, false);
  match(!bad.ok ? bad.error : "", /Cannot pin nope\/x: the tool is not in this catalogue/);
});

Deno.test("the overview follows the budget: richer at 200k than at 32k", () => {
  const catalog = new McpCatalog(realServerTools());
  const at = (tokens: number) => {
    const tools = claudeTools(new Injector(catalog, { availableContextTokens: tokens }));
    return tools.ok ? tools.value[0]!.description : "";
  };
  match(at(32_000), /level="names"/);
  match(at(200_000), /level="brief"|level="manifest"/);
  ok(at(200_000).length > at(32_000).length);
});

Deno.test("a miss is text in a tool_result and a miss beside an empty output, never a bare empty list", async () => {
  const injector = real();
  const claude = await claudeSearch(injector, use({ query: "zzqx vvkj" }));
  equal(claude.content.length, 1);
  const block = claude.content[0]!;
  equal(block.type, "text");
  match(block.type === "text" ? block.text : "", /No tool matches the query/);
  equal(claude.is_error, undefined);
  const openai = await openAiSearch(injector, searchCall({ query: "zzqx vvkj" }));
  deepEqual(openai.output.tools, []);
  match(openai.miss!, /No tool matches the query[\s\S]*Next: search again/);
});

Deno.test("a malformed search input is an is_error text saying what to send", async () => {
  const injector = real();
  for (const input of [null, "x", [], {}, { query: "" }, { query: 3 }, { query: "a", limit: 0 }]) {
    const result = await claudeSearch(injector, use(input));
    equal(result.is_error, true, JSON.stringify(input));
    const text = result.content[0]!.type === "text" ? result.content[0]!.text : "";
    match(text, /query|limit/);
  }
  const openai = await openAiSearch(injector, searchCall("{not json"));
  match(openai.miss!, /^The search input is not valid JSON \(.*\): send \{"query"/);
  match(
    (await openAiSearch(injector, searchCall({ query: "x".repeat(MAX_QUERY_CHARS + 1) }))).miss!,
    /longer/,
  );
});

Deno.test("with a session a search does not load again what the conversation loaded, and says so", async () => {
  const injector = real();
  const store = new MemorySessionStore();
  const session = { store, key: { tenant: "", session: "s" }, catalogHash: "h1" };
  const first = await claudeSearch(injector, use({ query: "read a file", limit: 3 }), { session });
  const loaded = first.content.map((b) => b.type === "tool_reference" ? b.tool_name : "");
  equal(loaded.length, 3);
  ok(loaded.every((name) => name !== ""));
  const again = await claudeSearch(injector, use({ query: "read a file", limit: 4 }, "toolu_2"), {
    session,
  });
  const references = again.content.filter((b) => b.type === "tool_reference");
  equal(references.length, 1);
  ok(!loaded.includes(references[0]!.type === "tool_reference" ? references[0]!.tool_name : ""));
  const note = again.content.at(-1)!;
  equal(note.type, "text");
  for (const name of loaded) ok(note.type === "text" && note.text.includes(name));
  // The same session in OpenAI: everything found is already there, so the output loads nothing.
  const openai = await openAiSearch(injector, searchCall({ query: "read a file", limit: 3 }), {
    session,
  });
  deepEqual(openai.output.tools, []);
  deepEqual(openai.alreadyAvailable, loaded);
  match(openai.miss!, /Already loaded in this conversation/);
  // A new catalogue generation forgets what was loaded.
  const fresh = await claudeSearch(injector, use({ query: "read a file", limit: 3 }), {
    session: { ...session, catalogHash: "h2" },
  });
  equal(fresh.content.filter((b) => b.type === "tool_reference").length, 3);
});

Deno.test("session counters count native searches, loads and resolves like bridge calls", async () => {
  const injector = real();
  const store = new MemorySessionStore();
  const session = { store, key: { tenant: "", session: "s" }, catalogHash: "h" };
  await claudeSearch(injector, use({ query: "read a file", limit: 2 }), { session });
  await claudeSearch(injector, use({ query: "zzqx vvkj" }), { session });
  await claudeSearch(injector, use({}), { session });
  const read = { type: "tool_use" as const, id: "t", name: "filesystem__read_text_file" };
  equal((await claudeResolve(injector, { ...read, input: { path: "/a" } }, session)).ok, true);
  equal((await claudeResolve(injector, { ...read, input: { path: 1 } }, session)).ok, false);
  equal((await claudeResolve(injector, { ...read, name: "nope", input: {} }, session)).ok, false);
  const state = await store.get(session.key);
  deepEqual(state!.counters, {
    searches: 2,
    emptySearches: 1,
    describes: 2,
    elidedDescribes: 0,
    executes: 1,
    describeToExecute: 1,
    errors: { invalid_arguments: 2, unknown_tool: 1 },
    upstreamFailures: 0,
    tokensReturned: 0,
    resultsCut: 0,
    moreCalls: 0,
  });
});

Deno.test("resolve checks arguments against the schema as execute does, and names the tool", async () => {
  const injector = real();
  const call = (name: string, args: string, namespace?: string) => ({
    type: "function_call" as const,
    name,
    arguments: args,
    call_id: "c",
    ...(namespace === undefined ? {} : { namespace }),
  });
  const ok1 = await openAiResolve(injector, call("filesystem__read_text_file", '{"path":"/a"}'));
  deepEqual(ok1.ok && [ok1.id, ok1.arguments], ["filesystem/read_text_file", { path: "/a" }]);
  const wrong = await openAiResolve(injector, call("filesystem__read_text_file", '{"path":1}'));
  equal(!wrong.ok && wrong.code, "invalid_arguments");
  deepEqual(!wrong.ok && wrong.problems?.map((p) => p.pointer), ["/path"]);
  const notJson = await openAiResolve(injector, call("filesystem__read_text_file", "{oops"));
  equal(!notJson.ok && notJson.code, "invalid_arguments");
  const elsewhere = await openAiResolve(
    injector,
    call("filesystem__read_text_file", "{}", "github"),
  );
  match(!elsewhere.ok ? elsewhere.message : "", /its namespace is filesystem$/);
  const unknown = await claudeResolve(injector, {
    type: "tool_use",
    id: "t",
    name: CLAUDE_SEARCH_TOOL,
    input: {},
  });
  equal(!unknown.ok && unknown.code, "unknown_tool");
});

Deno.test("descriptions and schema texts reach the APIs without invisible characters; names stay exact", async () => {
  const tool: McpTool = {
    server: "files",
    name: "read",
    description: "Reads\u200B a file\u{E0049}\u{E0047}",
    inputSchema: {
      type: "object",
      properties: {
        "pa\u200Bth": { type: "string", description: "The\u202E path", enum: ["a\u200Bb"] },
      },
    },
  };
  const injector = new Injector(new McpCatalog([tool]));
  const claude = claudeTools(injector);
  ok(claude.ok);
  const [search, read] = claude.value;
  ok(!hasInvisible(search!.description));
  ok(!hasInvisible(read!.description));
  const property = (read!.input_schema.properties as Record<string, Record<string, unknown>>)[
    "pa\u200Bth"
  ]!;
  equal(property.description, "The path");
  deepEqual(property.enum, ["a\u200Bb"]);
  const openai = openAiTools(injector);
  ok(openai.ok);
  for (const t of openai.value) ok(!hasInvisible(t.description));
  const answer = await openAiSearch(injector, searchCall({ query: "read file" }));
  ok(!hasInvisible(answer.output.tools[0]!.tools[0]!.description));
});

Deno.test("a resolve of a name with invisible characters says so with them escaped", async () => {
  const resolved = await claudeResolve(real(), {
    type: "tool_use",
    id: "t",
    name: "github__create\u200B_issue",
    input: {},
  });
  equal(resolved.ok, false);
  const message = !resolved.ok ? resolved.message : "";
  ok(!hasInvisible(message), message);
  match(message, /Cannot resolve "github__create\\u200b_issue": no tool of this catalogue/);
});

Deno.test("a search limit sent as a numeric string or null is taken, as the bridge takes it", async () => {
  const injector = real();
  const two = await claudeSearch(injector, use({ query: "read a file", limit: "2" }));
  equal(two.content.length, 2);
  const none = await claudeSearch(injector, use({ query: "read a file", limit: null }));
  equal(none.content.length, 5);
});
