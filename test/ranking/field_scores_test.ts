import { deepEqual, equal, ok } from "node:assert/strict";
import { fieldScores, type Postings } from "../../src/ranking/field_scores.ts";

const DOCS = [
  { name: ["read", "file"], text: ["read", "a", "file", "from", "disk"] },
  { name: ["write", "file"], text: ["write"] },
];
const PARAMETERS = { k1: 1.2, b: 0.75, delta: 0.5 };

function entries(postings: Postings | undefined): [number, number][] {
  const out: [number, number][] = [];
  for (let i = postings?.start ?? 0; i < (postings?.end ?? 0); i++) {
    out.push([postings!.docs[i]!, postings!.scores[i]!]);
  }
  return out;
}

const close = (a: number, b: number) => ok(Math.abs(a - b) < 1e-12, `${a} != ${b}`);

Deno.test("fieldScores() sums weighted BM25+ over fields with per-field statistics", () => {
  const postings = fieldScores(DOCS, { name: 2, text: 1 }, PARAMETERS);
  // "read": name (1 of 2 docs, length = average) and text (length 5, average 3).
  const [[doc, read]] = entries(postings.get("read")) as [[number, number]];
  equal(doc, 0);
  const textPart = 0.5 + 2.2 / (1 + 1.2 * (0.25 + 0.75 * 5 / 3));
  close(read, 2 * Math.log(2) * 1.5 + Math.log(2) * textPart);
  // "file": in both names (idf ln 1.2), in one text.
  const file = entries(postings.get("file"));
  deepEqual(file.map(([d]) => d), [0, 1]);
  close(file[0]![1], 3 * Math.log(1.2) + Math.log(2) * textPart);
  close(file[1]![1], 3 * Math.log(1.2));
});

Deno.test("fieldScores() saturates repeated terms and leaves out fields of weight 0", () => {
  const once = entries(fieldScores([{ f: ["a"] }, { f: ["b"] }], { f: 1 }, PARAMETERS).get("a"));
  const twice = entries(
    fieldScores([{ f: ["a", "a"] }, { f: ["b", "b"] }], { f: 1 }, PARAMETERS).get("a"),
  );
  ok(twice[0]![1] > once[0]![1] && twice[0]![1] < 2 * once[0]![1]);
  const postings = fieldScores(DOCS, { name: 1, text: 0 }, PARAMETERS);
  equal(postings.get("disk"), undefined);
  deepEqual(entries(postings.get("read")).map(([d]) => d), [0]);
});

Deno.test("fieldScores() lists each term's documents in ascending order", () => {
  const docs = Array.from({ length: 50 }, (_, i) => ({ f: i % 3 === 0 ? ["x", "y"] : ["y"] }));
  const postings = fieldScores(docs, { f: 1 }, PARAMETERS);
  const x = entries(postings.get("x")).map(([d]) => d);
  deepEqual(x, Array.from({ length: 17 }, (_, i) => i * 3));
  equal(entries(postings.get("y")).length, 50);
  deepEqual(fieldScores([], { f: 1 }, PARAMETERS).size, 0);
});

Deno.test("fieldScores() counts a long text's matches pivot × mean / length as much, and its text-only matches less in coordination", () => {
  // Text lengths 1, 1, 1 and 12: mean 3.75; past 2 × 3.75 = 7.5 words a text is pivoted.
  const docs = [
    { name: ["read"], text: ["file"] },
    { name: ["write"], text: ["file"] },
    { name: ["move"], text: ["disk"] },
    {
      name: ["think"],
      text: ["file", "disk", "think", ...Array.from({ length: 9 }, (_, i) => `w${i}`)],
    },
  ];
  const plain = fieldScores(docs, { name: 2, text: 1 }, PARAMETERS);
  const pivoted = fieldScores(docs, { name: 2, text: 1 }, PARAMETERS, {
    fields: new Set(["text"]),
    pivot: 2,
  });
  const factor = 7.5 / 12;
  const last = (p: Postings | undefined) => entries(p).find(([d]) => d === 3)![1];
  // A text-only match of the long text: its score and its weight in coordination both scaled.
  close(last(pivoted.get("disk")), last(plain.get("disk")) * factor);
  const disk = pivoted.get("disk")!;
  close(disk.cover![disk.end - 1]!, factor);
  // The short texts are untouched, and a word the long tool's name also holds counts fully.
  deepEqual(entries(pivoted.get("file")).slice(0, 2), entries(plain.get("file")).slice(0, 2));
  const think = pivoted.get("think")!;
  equal(think.cover![think.end - 1], 1);
  ok(last(think) > last(plain.get("think")) * factor);
  // Without a text longer than the pivot, nothing changes and no weights are stored.
  const short = fieldScores(docs.slice(0, 3), { name: 2, text: 1 }, PARAMETERS, {
    fields: new Set(["text"]),
    pivot: 2,
  });
  equal(short.get("file")!.cover, undefined);
});
