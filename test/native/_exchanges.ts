/**
 * The native routes' answers for the 14 real servers, asked in-process: what the typed fixtures
 * hold (scripts/build_native_fixtures.ts) and what the SDK type test compares them with.
 *
 * @module
 */

import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { realServerTools } from "../_data.ts";

/** The query of the recorded searches. */
export const QUERY = "create an issue on github";
/** The tool loaded from the start. */
export const PINNED = "memory/read_graph";

/**
 * Asks every native route once.
 *
 * @returns The answers, by API.
 */
// deno-lint-ignore explicit-module-boundary-types
export async function nativeExchanges() {
  const app = createApp({ store: new MemorySessionStore() });
  const post = async (path: string, body: unknown) => {
    const response = await app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (response.status !== 200) throw new Error(`${path}: ${await response.text()}`);
    return await response.json();
  };
  const common = {
    catalog: realServerTools(),
    budget: { availableContextTokens: 32_000 },
    pinned: [PINNED],
  };
  const claudeTools = await post("/v1/native/anthropic/tools", common);
  const use = (query: string) => ({
    type: "tool_use",
    id: "toolu_01",
    name: "search_tools",
    input: { query },
  });
  const call = (query: string) => ({
    type: "tool_search_call",
    call_id: "call_01",
    arguments: { query },
  });
  const openaiTools = await post("/v1/native/openai/tools", common);
  const openaiMiss = await post("/v1/native/openai/search", { ...common, call: call("zzqx vvkj") });
  return {
    query: QUERY,
    claude: {
      tools: claudeTools.tools,
      search: (await post("/v1/native/anthropic/search", { ...common, toolUse: use(QUERY) }))
        .toolResult,
      miss: (await post("/v1/native/anthropic/search", { ...common, toolUse: use("zzqx vvkj") }))
        .toolResult,
    },
    openai: {
      tools: openaiTools.tools,
      search: (await post("/v1/native/openai/search", { ...common, call: call(QUERY) })).output,
      miss: { output: openaiMiss.output, miss: openaiMiss.miss },
    },
  };
}
