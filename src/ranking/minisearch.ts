/**
 * The MiniSearch ranker (`@unfold/unfold/minisearch`): the alternative to the core's default
 * `lexicalRanker`, for hosts that want MiniSearch's own prefix and fuzzy search. It is its own
 * export so that the core never loads MiniSearch.
 *
 * ```ts
 * import { minisearchRanker } from "./minisearch.ts";
 * import { McpCatalog } from "../../mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([
 *   { server: "slack", name: "post_message", description: "Send a message", inputSchema: { type: "object" } },
 * ], { ranker: minisearchRanker });
 * equal(catalog.search("slack message")[0]?.id, "slack/post_message");
 * ```
 *
 * Why this one name: the ranker factory is all a host passes to `McpCatalog`.
 *
 * @module
 */

export { minisearchRanker } from "./minisearch_ranker.ts";
