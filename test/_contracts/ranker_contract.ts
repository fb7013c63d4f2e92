/**
 * The contract every {@linkcode Ranker} implementation runs: limits, order, determinism,
 * input-order independence, empty queries, and finding a tool by each indexed field.
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import type { McpTool, RankerFactory } from "../../mod.ts";
import { toolId } from "../../mod.ts";
import { realServerTools, shuffled, tool } from "../_data.ts";

const TOOLS: McpTool[] = [
  tool("github", "create_issue", "Create a new issue in a repository", {
    title: { type: "string", description: "Issue title" },
  }),
  tool("github", "list_issues", "List issues of a repository"),
  tool("slack", "post_message", "Post a message to a channel", {
    channel_id: { type: "string", description: "The channel to post in" },
  }),
  tool("maps", "geocode", "Turn an address into coordinates", {
    address: { type: "string", description: "Street address" },
  }),
  tool("files", "readTextFile", "Read a file", {
    path: { type: "string", description: "Absolute path on disk" },
  }),
  tool("files", "move_file", "Move or rename a file"),
  tool("weather", "forecast", "天气预报：查询城市未来几天的天气", {
    city: { type: "string", description: "城市名称" },
  }),
];

/**
 * Registers the contract tests for one ranker.
 *
 * @param name The implementation's name, shown in test names.
 * @param factory The implementation.
 */
export function rankerContract(name: string, factory: RankerFactory): void {
  const sorted = [...TOOLS].sort((a, b) => toolId(a) < toolId(b) ? -1 : 1);
  const ranker = () => factory(sorted, { servers: [] });

  Deno.test(`${name}: returns at most limit results, best first, ties broken by id`, () => {
    const r = factory(realServerTools().sort((a, b) => toolId(a) < toolId(b) ? -1 : 1), {
      servers: [],
    });
    for (const limit of [1, 3, 20]) {
      const hits = r.search("list files in a directory", limit);
      ok(hits.length <= limit && hits.length > 0);
      for (let i = 1; i < hits.length; i++) {
        const [a, b] = [hits[i - 1]!, hits[i]!];
        ok(a.score > b.score || (a.score === b.score && a.id < b.id), `${a.id} before ${b.id}`);
      }
    }
  });

  Deno.test(`${name}: scores are finite and positive`, () => {
    for (const hit of ranker().search("issue message file", 10)) {
      ok(Number.isFinite(hit.score) && hit.score > 0, `${hit.id}: ${hit.score}`);
    }
  });

  Deno.test(`${name}: gives the same ranking whatever order the tools were indexed in`, () => {
    const all = realServerTools();
    const base = factory(all, { servers: [] });
    for (const seed of [1, 2, 3]) {
      const other = factory(shuffled(all, seed), { servers: [] });
      for (const query of ["take a screenshot", "create issue", "search", "query database"]) {
        deepEqual(other.search(query, 10), base.search(query, 10), `${query} (seed ${seed})`);
      }
    }
  });

  Deno.test(`${name}: answers [] to a query without searchable terms`, () => {
    for (const query of ["", "   ", "!!! ??? ...", "\u0000\u200b"]) {
      deepEqual(ranker().search(query, 5), [], JSON.stringify(query));
    }
  });

  Deno.test(`${name}: never throws on odd queries`, () => {
    for (
      const query of ["a".repeat(5000), "🙂 emoji", "((", "*", "\\", "constructor", "__proto__"]
    ) {
      ok(Array.isArray(ranker().search(query, 5)));
    }
  });

  Deno.test(`${name}: finds a tool by a word of its name, split on _ - and camelCase`, () => {
    equal(ranker().search("geocode", 3)[0]?.id, "maps/geocode");
    equal(ranker().search("text", 3)[0]?.id, "files/readTextFile");
    equal(ranker().search("move", 3)[0]?.id, "files/move_file");
  });

  Deno.test(`${name}: finds a tool by its description`, () => {
    equal(ranker().search("coordinates", 3)[0]?.id, "maps/geocode");
  });

  Deno.test(`${name}: finds a tool by a property name or property description`, () => {
    equal(ranker().search("channel", 3)[0]?.id, "slack/post_message");
    equal(ranker().search("street", 3)[0]?.id, "maps/geocode");
    equal(ranker().search("absolute disk", 3)[0]?.id, "files/readTextFile");
  });

  Deno.test(`${name}: finds a tool by Chinese text`, () => {
    equal(ranker().search("天气", 3)[0]?.id, "weather/forecast");
    equal(ranker().search("城市", 3)[0]?.id, "weather/forecast");
  });

  Deno.test(`${name}: names only indexed tools`, () => {
    const ids = new Set(TOOLS.map(toolId));
    for (const hit of ranker().search("issue message file address", 50)) ok(ids.has(hit.id));
  });
}
