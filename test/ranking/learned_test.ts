import { deepEqual, equal, ok } from "node:assert/strict";
import {
  LEARNED_WEIGHT,
  LearnedRuns,
  learnedWords,
  liftRanking,
  MAX_LEARNED_BYTES,
  MAX_LEARNED_COUNT,
  MAX_LEARNED_TOOLS_PER_WORD,
  MAX_LEARNED_WORDS,
} from "../../src/ranking/learned.ts";
import { McpCatalog } from "../../mod.ts";
import { explainSearch } from "../../src/ranking/explain.ts";
import { tool } from "../_data.ts";

const catalog = new McpCatalog([
  tool("repo", "publish", "Publish a version of the project"),
  tool("repo", "list_notes", "List the notes"),
  tool("chat", "post_message", "Post a message to a channel"),
  tool("maps", "geocode", "Find the coordinates of an address"),
  tool("files", "read_file", "Read a file from disk"),
]);
const ids = (matches: { id: string }[]) => matches.map((m) => m.id);

Deno.test("a tool run for 'ship the release notes' rises for 'release notes', in its words only", () => {
  const runs = new LearnedRuns();
  runs.record(learnedWords("ship the release notes"), "repo/publish");
  deepEqual(ids(catalog.search("release notes", 5)), ["repo/list_notes"]);
  deepEqual(ids(catalog.search("release notes", 5, { learned: runs })), [
    "repo/list_notes",
    "repo/publish",
  ]);
  // Words it was not run for lift nothing.
  deepEqual(
    catalog.search("post a message", 5, { learned: runs }),
    catalog.search("post a message", 5),
  );
});

Deno.test("a learned tool never rises above an exact id or name", () => {
  const runs = new LearnedRuns();
  for (let i = 0; i < 100; i++) runs.record(["read_file", "read", "file"], "chat/post_message");
  equal(catalog.search("files/read_file", 5, { learned: runs })[0]?.id, "files/read_file");
  equal(catalog.search("read_file", 5, { learned: runs })[0]?.id, "files/read_file");
});

Deno.test("poisoning is bounded: one tool executed 1,000 times for unrelated words", () => {
  const runs = new LearnedRuns();
  const words = learnedWords("quarterly budget spreadsheet review meeting agenda");
  for (let i = 0; i < 1000; i++) runs.record(words, "maps/geocode");
  // Requests without those words rank exactly as without the prior.
  for (const query of ["read a file", "post a message to the team", "release notes"]) {
    deepEqual(catalog.search(query, 5, { learned: runs }), catalog.search(query, 5), query);
  }
  // A request sharing one of its six words: the gain is at most LEARNED_WEIGHT × 1/3 of the
  // request's words × 64/65 of the best score.
  const query = "read the file of the budget";
  const before = catalog.search(query, 5);
  const after = catalog.search(query, 5, { learned: runs });
  const best = before[0]!.score;
  const lifted = after.find((m) => m.id === "maps/geocode")!;
  const share = 1 / learnedWords(query).length;
  ok(
    lifted.score <=
      LEARNED_WEIGHT * share * (MAX_LEARNED_COUNT / (MAX_LEARNED_COUNT + 1)) * best + 1e-6,
  );
  equal(after[0]?.id, before[0]?.id);
  // 1,000 runs lift no more than MAX_LEARNED_COUNT runs.
  const capped = new LearnedRuns();
  for (let i = 0; i < MAX_LEARNED_COUNT; i++) capped.record(words, "maps/geocode");
  deepEqual(runs.lift(learnedWords(query)), capped.lift(learnedWords(query)));
});

Deno.test("a prior stays within its bounds whatever it is fed, and words from outside are data", () => {
  const runs = new LearnedRuns();
  for (let i = 0; i < 5_000; i++) {
    runs.record([`w${i}`, "__proto__", "constructor"], `server/${"t".repeat(200)}${i % 50}`);
  }
  ok(runs.size <= MAX_LEARNED_WORDS);
  const lift = runs.lift(["__proto__"]);
  equal(lift.size, MAX_LEARNED_TOOLS_PER_WORD);
  const text = JSON.stringify(runs);
  ok(new TextEncoder().encode(text).length <= MAX_LEARNED_BYTES, `${text.length}`);
  const back = LearnedRuns.parse(JSON.parse(text))!;
  deepEqual(back.lift(["__proto__", "constructor"]), runs.lift(["__proto__", "constructor"]));
});

Deno.test("LearnedRuns.parse() refuses anything not in its format, whole", () => {
  const good = JSON.parse(JSON.stringify((() => {
    const r = new LearnedRuns();
    r.record(["a"], "s/t");
    return r;
  })()));
  ok(LearnedRuns.parse(good) !== undefined);
  for (
    const bad of [
      null,
      "x",
      { ...good, format: "other/1" },
      { ...good, words: [["a", [["s/t", 0, 1]]]] },
      { ...good, words: [["a", [["s/t", 1e9, 1]]]] },
      { ...good, words: [["a", "s/t"]] },
      { ...good, words: [[1, []]] },
      { ...good, words: Array.from({ length: MAX_LEARNED_WORDS + 1 }, (_, i) => [`w${i}`, []]) },
    ]
  ) equal(LearnedRuns.parse(bad), undefined, JSON.stringify(bad)?.slice(0, 80));
});

Deno.test("merge() takes in another process's runs: every association, the larger count", () => {
  const a = new LearnedRuns();
  a.record(["deploy"], "ci/run");
  const b = new LearnedRuns();
  b.record(["deploy"], "ci/run");
  b.record(["deploy"], "ci/run");
  b.record(["notes"], "repo/publish");
  a.merge(b);
  deepEqual(a.lift(["deploy"]), b.lift(["deploy"]));
  equal(a.lift(["notes"]).get("repo/publish"), 0.5);
});

Deno.test("liftRanking() adds LEARNED_WEIGHT × share × best, brings in unranked tools, ties by id", () => {
  const ranked = [{ id: "s/a", score: 10 }, { id: "s/b", score: 4 }];
  deepEqual(liftRanking(ranked, new Map([["s/c", 0.4], ["s/b", 0.2]])), [
    { id: "s/a", score: 10 },
    { id: "s/b", score: 4 + LEARNED_WEIGHT * 0.2 * 10 },
    { id: "s/c", score: LEARNED_WEIGHT * 0.4 * 10 },
  ]);
});

Deno.test("explainSearch() says which results what the user ran moved, and where they were", () => {
  const runs = new LearnedRuns();
  runs.record(learnedWords("ship the release notes"), "repo/publish");
  const explained = explainSearch(catalog, "release notes", { learned: runs, id: "repo/publish" });
  if (!explained.ok) throw new Error(explained.error.message);
  const [notes, publish] = explained.value.results;
  equal(notes?.learned, undefined);
  deepEqual(publish?.learned, { share: 0.5, rankWithout: null });
  // Lifted, not matched: no word of its own is claimed as a match by meaning.
  deepEqual(publish?.matches, []);
  ok(explained.value.target?.reason.includes("what you ran lifted it"));
  const plain = explainSearch(catalog, "release notes");
  equal(plain.ok && plain.value.results.some((r) => r.learned !== undefined), false);
});
