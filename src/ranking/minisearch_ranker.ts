/**
 * A ranker on MiniSearch (BM25) over a tool's name, title, server, description and the
 * property names and descriptions of its input schema, with identifier-aware terms. The only module
 * that imports MiniSearch.
 *
 * @module
 */

import { compareStrings } from "../utils/compare.ts";
import MiniSearch from "minisearch";
import type { McpTool } from "../tool.ts";
import { toolId } from "../tool.ts";
import type { RankedTool, Ranker, RankerFactory, RankerOptions } from "./ranker.ts";
import {
  MAX_TERM_CHARS,
  schemaText,
  splitIdentifiers,
  STOP_WORDS,
  stripMarkup,
  tokenize,
} from "./terms.ts";

interface Document {
  id: string;
  name: string;
  title: string;
  server: string;
  description: string;
  params: string;
}

const FIELDS = ["name", "title", "server", "description", "params"] as const;
const BOOST: Record<typeof FIELDS[number], number> = {
  name: 3,
  title: 2,
  server: 1.5,
  description: 1,
  params: 0.5,
};

/**
 * Builds a MiniSearch ranker: the alternative to the default `lexicalRanker`, for hosts that want
 * MiniSearch's own prefix and fuzzy search. The default scores fields the way MiniSearch does but
 * computes the scores when it builds its index, which makes a search several times faster.
 *
 * @param tools The tools to index.
 * @param options Server information (its titles and descriptions are indexed with the server name).
 * @returns A ranker over the tools.
 *
 * @example Usage
 * ```ts
 * import { minisearchRanker } from "./minisearch_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = minisearchRanker([
 *   { server: "github", name: "create_issue", description: "Open an issue", inputSchema: { type: "object" } },
 *   { server: "slack", name: "post_message", description: "Send a message", inputSchema: { type: "object" } },
 * ], { servers: [] });
 * equal(ranker.search("send a slack message", 5)[0]?.id, "slack/post_message");
 * ```
 */
export const minisearchRanker: RankerFactory = (
  tools: readonly McpTool[],
  options: RankerOptions,
): Ranker => {
  const servers = new Map(options.servers.map((info) => [info.server, info]));
  const index = new MiniSearch<Document>({
    fields: [...FIELDS],
    storeFields: [],
    tokenize: (text) => tokenize(text),
    processTerm: (term) => STOP_WORDS.has(term) || term.length > MAX_TERM_CHARS ? null : term,
    searchOptions: {
      boost: BOOST,
      combineWith: "OR",
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => term.length >= 5 ? 0.2 : false,
      maxFuzzy: 3,
    },
  });
  const documents = [...tools].sort((a, b) => compareStrings(toolId(a), toolId(b))).map(
    (tool): Document => {
      const info = servers.get(tool.server);
      const schema = schemaText(tool.inputSchema);
      return {
        id: toolId(tool),
        name: splitIdentifiers(tool.name),
        title: tool.title ?? "",
        server: [splitIdentifiers(tool.server), info?.title ?? "", info?.description ?? ""].join(
          " ",
        ),
        description: tool.description,
        params: [...schema.names.map(splitIdentifiers), ...schema.descriptions].join(" "),
      };
    },
  );
  index.addAll(documents);
  return {
    search(rawQuery: string, limit: number): RankedTool[] {
      const query = stripMarkup(rawQuery);
      if (!tokenize(query).some((t) => !STOP_WORDS.has(t) && t.length <= MAX_TERM_CHARS)) return [];
      return index.search(query)
        .map((hit) => ({ id: String(hit.id), score: hit.score }))
        .filter((hit) => Number.isFinite(hit.score) && hit.score > 0)
        .sort((a, b) => b.score - a.score || compareStrings(a.id, b.id))
        .slice(0, limit);
    },
  };
};

/**
 * MiniSearch exactly as it comes, over each tool's name and description: default tokenizer,
 * default term processing, default search options. Not for production: the reference point the
 * retrieval evaluation (`deno task eval`) compares {@linkcode minisearchRanker} with.
 *
 * @param tools The tools to index.
 * @returns A ranker over the tools.
 *
 * @example Usage
 * ```ts
 * import { plainMinisearchRanker } from "./minisearch_ranker.ts";
 * import { equal } from "node:assert/strict";
 *
 * const ranker = plainMinisearchRanker([
 *   { server: "github", name: "create_issue", description: "Open an issue", inputSchema: { type: "object" } },
 *   { server: "slack", name: "post_message", description: "Send a message", inputSchema: { type: "object" } },
 * ], { servers: [] });
 * equal(ranker.search("send a message", 5)[0]?.id, "slack/post_message");
 * ```
 */
export const plainMinisearchRanker: RankerFactory = (tools: readonly McpTool[]): Ranker => {
  const index = new MiniSearch<{ id: string; name: string; description: string }>({
    fields: ["name", "description"],
  });
  index.addAll(
    tools.map((tool) => ({ id: toolId(tool), name: tool.name, description: tool.description })),
  );
  return {
    search(query: string, limit: number): RankedTool[] {
      return index.search(query)
        .map((hit) => ({ id: String(hit.id), score: hit.score }))
        .filter((hit) => Number.isFinite(hit.score) && hit.score > 0)
        .sort((a, b) => b.score - a.score || compareStrings(a.id, b.id))
        .slice(0, limit);
    },
  };
};
