/**
 * Tokens of the bridge and of native tool search on the 14 real servers (228 tools), at 32k and
 * 200k tokens of context: what the model holds before its first call (tool definitions and
 * prompt), and what one search adds on average over the 150 everyday requests (the bridge: the
 * search result, then the describe of the top match; Claude: the definitions its 5
 * `tool_reference` blocks load; OpenAI: the `tool_search_output` with 5 definitions). Every
 * figure is the project's estimate, ceil(code points / 4) of the JSON or text the model reads.
 *
 * Run: `deno run --node-modules-dir=auto --allow-read --allow-env bench/native_tokens.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { Injector, McpCatalog } from "../mod.ts";
import {
  CLAUDE_SEARCH_TOOL,
  claudeSearch,
  claudeTools,
  openAiSearch,
  openAiTools,
} from "../src/native/mod.ts";
import { estimateTokens } from "../src/tokens.ts";
import { DATA_DIR, realServerTools } from "../test/_data.ts";

const catalog = new McpCatalog(realServerTools());
const queries: string[] = Deno.readTextFileSync(`${DATA_DIR}/real-servers/everyday.jsonl`)
  .trim().split("\n").map((line) => JSON.parse(line).query);
const tokens = (value: unknown) =>
  estimateTokens(typeof value === "string" ? value : JSON.stringify(value));
const mean = (values: number[]) => Math.round(values.reduce((a, b) => a + b, 0) / values.length);

console.log(`${catalog.size} tools, ${queries.length} everyday requests\n`);
console.log(
  "| context | face | level | upfront tokens | tokens per search (mean) | all definitions upfront |",
);
console.log("| --- | --- | --- | ---: | ---: | ---: |");
// Every definition loaded from the start: what a host without any search would send.
const loadedAll = claudeTools(new Injector(catalog));
if (!loadedAll.ok) throw new Error(loadedAll.error);
const everything = tokens(loadedAll.value.slice(1).map(({ defer_loading: _, ...tool }) => tool));
for (const availableContextTokens of [32_000, 200_000]) {
  const injector = new Injector(catalog, { availableContextTokens });
  const injection = injector.inject()!;
  const bridgeUpfront = tokens(injection.bridgeTool) + tokens(injection.prompt);
  const bridgePerSearch: number[] = [];
  const claudePerSearch: number[] = [];
  const openAiPerSearch: number[] = [];
  const definitions = new Map(
    loadedAll.value.map(({ defer_loading: _, ...tool }) => [tool.name, tool]),
  );
  for (const query of queries) {
    const search = injector.route({ action: "search", query });
    let cost = tokens(search.action === "search" ? search.toolResult : "");
    if (search.action === "search" && search.matches[0] !== undefined) {
      const described = injector.route({ action: "describe", name: search.matches[0].id });
      cost += tokens(described.action === "describe" ? described.toolResult : "");
    }
    bridgePerSearch.push(cost);
    const result = await claudeSearch(injector, {
      type: "tool_use",
      id: "t",
      name: CLAUDE_SEARCH_TOOL,
      input: { query },
    });
    claudePerSearch.push(
      tokens(result) +
        result.content.reduce(
          (sum, block) =>
            sum +
            (block.type === "tool_reference" ? tokens(definitions.get(block.tool_name)) : 0),
          0,
        ),
    );
    const answer = await openAiSearch(injector, {
      type: "tool_search_call",
      call_id: "c",
      arguments: { query },
    });
    openAiPerSearch.push(tokens(answer.output) + (answer.miss ? tokens(answer.miss) : 0));
  }
  const claude = claudeTools(injector);
  const openai = openAiTools(injector);
  if (!claude.ok || !openai.ok) throw new Error("the tools did not build");
  const claudeUpfront = tokens(claude.value.filter((t) => t.defer_loading !== true));
  // OpenAI shows each namespace's name and description, and the tool search, before a search.
  const openAiUpfront = tokens(
    openai.value.map((t) =>
      t.type === "namespace" ? { name: t.name, description: t.description } : t
    ),
  );
  const context = `${availableContextTokens / 1000}k`;
  const rows: Array<[string, string, number, number]> = [
    ["bridge (/v1/inject)", injection.mode, bridgeUpfront, mean(bridgePerSearch)],
    ["Claude native", injection.mode, claudeUpfront, mean(claudePerSearch)],
    ["OpenAI native", injection.mode, openAiUpfront, mean(openAiPerSearch)],
  ];
  for (const [face, level, upfront, perSearch] of rows) {
    console.log(`| ${context} | ${face} | ${level} | ${upfront} | ${perSearch} | ${everything} |`);
  }
}
