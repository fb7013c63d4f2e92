import { deepEqual } from "node:assert/strict";
import { clauses, fuseRanks } from "../../src/ranking/segments.ts";

Deno.test("clauses() splits at sentence ends, line breaks, semicolons and then", () => {
  deepEqual(clauses("Get the weather. Then post it\nto the channel; done"), [
    "Get the weather",
    "post it",
    "to the channel",
    "done",
  ]);
  deepEqual(clauses("v1.2 is out"), ["v1.2 is out"]);
  deepEqual(clauses(""), []);
});

Deno.test("fuseRanks() lets each list's best near the top, ties by number", () => {
  deepEqual(fuseRanks([[5, 6, 7], [8], [9]], 1).map((h) => h.doc), [5, 8, 9, 6, 7]);
  deepEqual(fuseRanks([], 1), []);
});
