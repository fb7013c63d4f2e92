import { equal, ok } from "node:assert/strict";
import { runExample } from "./_run.ts";

const MARK = "\nunfold's answer to a sample search:\n";

async function dryRun(example: string) {
  const out = await runExample(Deno.execPath(), ["run", "-A", "--quiet", example, "--dry-run"]);
  const at = out.indexOf(MARK);
  ok(at > 0, out);
  return { request: JSON.parse(out.slice(0, at)), answer: JSON.parse(out.slice(at + MARK.length)) };
}

Deno.test("examples/anthropic_tool_search.ts --dry-run prints a Messages request of deferred tools and a search answer naming them", async () => {
  const { request, answer } = await dryRun("examples/anthropic_tool_search.ts");
  const [search, ...tools] = request.tools;
  equal(search.name, "search_tools");
  ok(tools.length > 30);
  ok(tools.every((t: { defer_loading?: boolean }) => t.defer_loading === true));
  equal(request.messages[0].role, "user");
  const names = new Set(tools.map((t: { name: string }) => t.name));
  equal(answer.type, "tool_result");
  ok(answer.content.length > 0);
  for (const block of answer.content) {
    equal(block.type, "tool_reference");
    ok(names.has(block.tool_name), block.tool_name);
  }
  ok(names.has("filesystem__read_text_file"));
});

Deno.test("examples/openai_tool_search.ts --dry-run prints a Responses request of namespaces and a client tool_search output", async () => {
  const { request, answer } = await dryRun("examples/openai_tool_search.ts");
  const namespaces = request.tools.filter((t: { type: string }) => t.type === "namespace");
  equal(namespaces.length, 3);
  const search = request.tools.at(-1);
  equal(search.type, "tool_search");
  equal(search.execution, "client");
  const declared = new Map<string, Set<string>>(
    namespaces.map((n: { name: string; tools: { name: string }[] }) => [
      n.name,
      new Set(n.tools.map((f) => f.name)),
    ]),
  );
  equal(answer.output.type, "tool_search_output");
  ok(answer.output.tools.length > 0);
  for (const namespace of answer.output.tools) {
    for (const f of namespace.tools) ok(declared.get(namespace.name)?.has(f.name), f.name);
  }
});
