import { deepEqual, equal, ok } from "node:assert/strict";
import {
  createLexicalRanker,
  LEXICAL_INDEX_VERSION,
  lexicalRanker,
} from "../../src/ranking/lexical_ranker.ts";
import { defaultDataDir, loadEvalData } from "../../bench/eval/dataset.ts";
import { tool } from "../_data.ts";
import { denoRankerOptions } from "../../src/ranking/deno_ranker.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";

const data = loadEvalData(defaultDataDir()!);
const options = { servers: data.servers };

Deno.test("a restored lexical index answers every evaluation query exactly as the one saved", () => {
  const built = lexicalRanker(data.tools, options);
  const snapshot = built.snapshot!();
  const restored = lexicalRanker.restore!(data.tools, options, structuredClone(snapshot))!;
  for (const set of data.sets) {
    for (const { query } of set.queries) {
      deepEqual(restored.search(query, 10), built.search(query, 10), query);
    }
  }
  deepEqual(restored.snapshot!().bytes, snapshot.bytes);
});

Deno.test("restore() refuses a snapshot of other settings, other tools or no index at all", () => {
  const tools = [tool("s", "read_file", "Read a file"), tool("s", "write_file", "Write a file")];
  const snapshot = lexicalRanker(tools, { servers: [] }).snapshot!();
  const other = createLexicalRanker({ fieldWeights: { name: 5 } });
  equal(other.restore!(tools, { servers: [] }, snapshot), undefined);
  equal(lexicalRanker.restore!([tools[0]!], { servers: [] }, snapshot), undefined);
  equal(
    lexicalRanker.restore!(tools, { servers: [] }, { ...snapshot, bytes: new Uint8Array(64) }),
    undefined,
  );
  const search = createLexicalRanker({ serverBoost: 0 });
  ok(search.restore!(tools, { servers: [] }, snapshot), "search-time settings share the index");
});

// The digest of the LiveMCPBench index for each LEXICAL_INDEX_VERSION. When the build changes what
// it stores, this test fails: bump LEXICAL_INDEX_VERSION (so no stored snapshot of the old build is
// read by the new code) and record the new digest under it.
const DIGESTS: Record<number, string> = {
  1: "7465b69e468ddcb9046c9337172827e79b887dde35f73fe7b96ec8b1fbb74d4b",
  2: "7c9da24c9de6f8f844178d52c362a0ce65e913893f9478020a6738d36bb6c0ea", // servers as a table
  3: "88347fa8bdcc6a510584e5e4988a0f899f07980e0cab3dfe209527296c8f1a89", // long texts pivoted
};

Deno.test("LEXICAL_INDEX_VERSION names what a built index holds (bump it when this fails)", async () => {
  const { format, bytes } = lexicalRanker(data.tools, options).snapshot!();
  // The index without its format name (settings digests change it; they are checked on restore).
  const name = new TextEncoder().encode(JSON.stringify(format));
  const at = bytes.findIndex((_, i) => name.every((b, j) => bytes[i + j] === b));
  const content = new Uint8Array(bytes.length - name.length);
  content.set(bytes.subarray(0, at));
  content.set(bytes.subarray(at + name.length), at);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", content));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  equal(hex, DIGESTS[LEXICAL_INDEX_VERSION]);
});

Deno.test("the Deno default's snapshot (index, semantic match) restores to the same ranking for every evaluation query", () => {
  const deno = createLexicalRanker(denoRankerOptions());
  const built = deno(data.tools, options);
  built.search("-", 1);
  const snapshot = built.snapshot!();
  ok(snapshot.format.includes(`+${englishVectors().id}`), snapshot.format);
  const restored = deno.restore!([...data.tools].reverse(), options, structuredClone(snapshot))!;
  for (const set of data.sets) {
    for (const { query } of set.queries) {
      deepEqual(restored.search(query, 10), built.search(query, 10), query);
    }
  }
  deepEqual(restored.snapshot!(), snapshot);
  // A lexical index alone (the fallback's) is not the Deno default's: it is rebuilt.
  equal(
    deno.restore!(data.tools, options, lexicalRanker(data.tools, options).snapshot!()),
    undefined,
  );
});
