// A native model's mistakes, told in the words of a native call: never the bridge's actions
// (execute, describe), which a native model does not have; broken JSON is called broken JSON.
import { equal, match, ok } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";
import {
  CLAUDE_SEARCH_TOOL,
  claudeResolve,
  claudeSearch,
  openAiResolve,
  openAiSearch,
} from "../../src/native/mod.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";

const injector = new Injector(
  new McpCatalog([{
    server: "s",
    name: "t",
    description: "Counts things",
    inputSchema: {
      type: "object",
      properties: { n: { type: "integer" } },
      required: ["n"],
      additionalProperties: false,
    },
  }]),
);
const BRIDGE_WORDS = /\b(execute|describe)/i;
const call = (args: string) => ({
  type: "function_call" as const,
  name: "s__t",
  arguments: args,
  call_id: "c",
});

Deno.test("an OpenAI call whose arguments are broken JSON is told they are not valid JSON", async () => {
  for (const args of ['{"n":', "{oops", ""]) {
    const resolved = await openAiResolve(injector, call(args));
    ok(!resolved.ok);
    equal(resolved.code, "invalid_arguments");
    match(resolved.message, /^Cannot call s\/t: the arguments are not valid JSON \(.+\): send/);
  }
  const search = await openAiSearch(injector, {
    type: "tool_search_call",
    call_id: "c",
    arguments: '{"query": ',
  });
  match(search.miss!, /^The search input is not valid JSON/);
});

Deno.test("no native error names the bridge's actions, with or without a session", async () => {
  const session = {
    store: new MemorySessionStore(),
    key: { tenant: "", session: "x" },
    catalogHash: "h",
  };
  for (const withSession of [undefined, session]) {
    const messages: string[] = [];
    for (const args of ['{"n":', "[1]", "5", "{}", '{"n":"x"}', '{"n":1,"z":2}']) {
      const resolved = await openAiResolve(injector, call(args), withSession);
      ok(!resolved.ok, args);
      messages.push(resolved.message);
    }
    for (const input of [{}, { n: "x" }, [1]]) {
      const resolved = await claudeResolve(
        injector,
        { type: "tool_use", id: "u", name: "s__t", input },
        withSession,
      );
      ok(!resolved.ok);
      messages.push(resolved.message);
    }
    for (
      const input of [null, "x", {}, { query: "" }, { query: "a", limit: 0 }, { query: "zzqx" }]
    ) {
      const result = await claudeSearch(
        injector,
        { type: "tool_use", id: "u", name: CLAUDE_SEARCH_TOOL, input },
        withSession === undefined ? {} : { session: withSession },
      );
      for (const block of result.content) if (block.type === "text") messages.push(block.text);
    }
    for (const message of messages) ok(!BRIDGE_WORDS.test(message), message);
  }
  const wrong = await openAiResolve(injector, call('{"n":"x"}'));
  match(!wrong.ok ? wrong.message : "", /do not match its input schema: "\/n" .*call it again$/);
});
