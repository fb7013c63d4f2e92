import { deepEqual, equal } from "node:assert/strict";
import { minisearchRanker } from "../../src/ranking/minisearch.ts";
import { plainMinisearchRanker } from "../../src/ranking/minisearch_ranker.ts";
import { tool } from "../_data.ts";
import { rankerContract } from "../_contracts/ranker_contract.ts";

rankerContract("minisearchRanker", minisearchRanker);

Deno.test("plainMinisearchRanker() searches name and description with MiniSearch's defaults", () => {
  const ranker = plainMinisearchRanker([
    tool("github", "create_issue", "Open an issue"),
    tool("slack", "post_message", "Send a message"),
  ], { servers: [] });
  equal(ranker.search("message", 5)[0]?.id, "slack/post_message");
  equal(ranker.search("issue", 5)[0]?.id, "github/create_issue");
  // Defaults: no prefix matching, no server field.
  deepEqual(ranker.search("mess", 5), []);
  deepEqual(ranker.search("slack", 5), []);
});
