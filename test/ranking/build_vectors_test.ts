import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import {
  ALONE_SHARE,
  CONTEXTS,
  embedInContext,
  project,
  SKIPPED_COMPONENTS,
} from "../../scripts/build_vectors.ts";
import { random } from "./_random.ts";

// A fake encoder: each text's vector is its length and its count of spaces, so a phrase's vector
// is known without the model.
const calls: string[][] = [];
const embed = (texts: string[]) => {
  calls.push(texts);
  return Promise.resolve(texts.map((t) => [t.length, t.split(" ").length - 1]));
};

Deno.test("embedInContext() weighs the text alone by its share and each context equally", async () => {
  const rows = await embedInContext(embed, ["go", "stop"], {
    contexts: ["to X", "X it now"],
    aloneShare: 0.5,
    skip: 0,
  });
  // "go": 0.5 × [2, 0] + 0.25 × [5, 1] + 0.25 × [9, 2]
  deepEqual([...rows[0]!], [0.5 * 2 + 0.25 * 5 + 0.25 * 9, 0.25 * 1 + 0.25 * 2]);
  deepEqual([...rows[1]!], [0.5 * 4 + 0.25 * 7 + 0.25 * 11, 0.25 * 1 + 0.25 * 2]);
});

Deno.test("embedInContext() with no contexts is the embedding alone, whatever the share", async () => {
  const rows = await embedInContext(embed, ["word"], { contexts: [], aloneShare: 0.2, skip: 0 });
  deepEqual([...rows[0]!], [4, 0]);
});

Deno.test("embedInContext() embeds in batches and keeps every text's row in order", async () => {
  calls.length = 0;
  const texts = Array.from({ length: 300 }, (_, i) => "w".repeat(1 + i % 7));
  const rows = await embedInContext(embed, texts, {
    contexts: ["the X"],
    aloneShare: 0.5,
    skip: 0,
  });
  equal(rows.length, 300);
  ok(calls.every((batch) => batch.length <= 128), "batches of at most 128");
  equal(calls.flat().length, 600, "each text once alone and once per context");
  rows.forEach((row, i) => equal(row[0], 0.5 * texts[i]!.length + 0.5 * (texts[i]!.length + 4)));
});

Deno.test("embedInContext() rejects a share outside (0, 1]", async () => {
  for (const aloneShare of [0, -0.5, 1.5, NaN]) {
    await rejects(
      embedInContext(embed, ["go"], { contexts: ["to X"], aloneShare, skip: 0 }),
      RangeError,
      String(aloneShare),
    );
  }
});

Deno.test("project() centres rows and keeps the components after the skipped ones", () => {
  // Most spread along the second axis, then the third, little along the first.
  const next = random(7);
  const rows = Array.from(
    { length: 200 },
    () =>
      Float64Array.from([0.1 * (next() - 0.5), 8 * (next() - 0.5), 2 * (next() - 0.5)]).map((x) =>
        x + 3
      ),
  );
  const all = project(rows, 3, 0);
  const skipped = project(rows, 2, 1);
  rows.forEach((_, i) => {
    // The same coordinates, less the first (up to the components' signs).
    for (let d = 0; d < 2; d++) {
      ok(Math.abs(Math.abs(skipped[i]![d]!) - Math.abs(all[i]![d + 1]!)) < 1e-6, `${i}/${d}`);
    }
  });
  const spread = (d: number, of: number[][]) => of.reduce((s, row) => s + row[d]! ** 2, 0);
  ok(spread(0, all) > spread(1, all) && spread(1, all) > spread(2, all), "ordered by spread");
  const mean = all.reduce((s, row) => s + row[0]!, 0) / all.length;
  ok(Math.abs(mean) < 1e-9, "centred");
});

Deno.test("the table's recipe: each context holds the text once, the share alone is in (0, 1]", () => {
  ok(CONTEXTS.length > 0);
  // Only the first X of a context is replaced, so a second one would reach the encoder as "X".
  for (const context of CONTEXTS) equal(context.split("X").length, 2, context);
  equal(new Set(CONTEXTS).size, CONTEXTS.length);
  ok(ALONE_SHARE > 0 && ALONE_SHARE <= 1);
  ok(Number.isInteger(SKIPPED_COMPONENTS) && SKIPPED_COMPONENTS >= 0);
});
