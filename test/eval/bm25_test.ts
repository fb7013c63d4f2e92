import { deepEqual, equal, ok } from "node:assert/strict";
import { bm25Ranker } from "../../bench/eval/bm25.ts";
import { tool } from "../_data.ts";

const TOOLS = [
  tool("a", "read_file", "Read a file from disk"),
  tool("a", "write_file", "Write a file to disk"),
  tool("b", "send_email", "Send an email message to a recipient"),
];

Deno.test("bm25Ranker() ranks by matching words of the name and description", () => {
  const ranker = bm25Ranker(TOOLS);
  equal(ranker.search("send email", 5)[0]?.id, "b/send_email");
  equal(ranker.search("read", 5)[0]?.id, "a/read_file");
  deepEqual(ranker.search("file", 5).map((h) => h.id), ["a/read_file", "a/write_file"]);
});

Deno.test("bm25Ranker() answers [] without known words and respects the limit", () => {
  const ranker = bm25Ranker(TOOLS);
  deepEqual(ranker.search("zebra ???", 5), []);
  equal(ranker.search("file disk email", 1).length, 1);
  for (const hit of ranker.search("file disk email", 5)) ok(hit.score > 0);
});
