import { deepEqual, equal, notDeepEqual } from "node:assert/strict";
import { withoutDataRuns } from "../../src/ranking/data_runs.ts";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { queryWords } from "../../src/ranking/explain.ts";
import { tool } from "../_data.ts";

Deno.test("withoutDataRuns() leaves out each run of at least the given length, and only those", () => {
  const blob = "a".repeat(99) + "Z";
  equal(withoutDataRuns(`one ${blob} two ${blob}`, 100), "one   two  ");
  equal(withoutDataRuns(`one ${blob.slice(1)} two`, 100), `one ${blob.slice(1)} two`);
  equal(withoutDataRuns(blob, 100), " ");
  // Any non-space characters make a run: a long path or a minified line too.
  equal(withoutDataRuns(`x ${"/é".repeat(60)}\ty`, 100), "x  \ty");
  // 0 turns it off.
  equal(withoutDataRuns(`one ${blob}`, 0), `one ${blob}`);
});

// Tools whose words the fragments of a base64 blob reach (prefixes, one typo away).
const TOOLS = [
  tool("images", "extract_image_from_base64", "Extract an image from base64 data."),
  tool("audio", "vbor_wave", "Generate a VBOR wave file."),
  tool("chess", "ggo_aaaa_position", "Find a position in a game."),
  tool("web", "fetch_page", "Fetch a web page."),
];
const BLOB = "iVBORw0KGgoAAAANSUhEUgAAAgAAAAIACAYAAAD0eNT6AAAABHNCSVQICAgIfAhkiAAAAAlwSFlz".repeat(
  12,
);

Deno.test("dataRunChars: a query with a blob ranks as the query without it", () => {
  const search = (dataRunChars: number, query: string) =>
    createLexicalRanker({ dataRunChars })(TOOLS, { servers: [] }).search(query, 4).map((h) => h.id);
  const words = "what does this base64 image mean?";
  const clean = search(100, words);
  equal(clean[0], "images/extract_image_from_base64");
  deepEqual(search(100, `${words} ${BLOB}`), clean);
  // Off, the blob's fragments rank other tools in.
  notDeepEqual(search(0, `${words} ${BLOB}`), clean);
});

Deno.test("explain's query words leave out data runs as the default ranker does", () => {
  deepEqual(queryWords(`what does this base64 image mean? ${BLOB}`), [
    ...queryWords("what does this base64 image mean?"),
  ]);
});
