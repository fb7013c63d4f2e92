import { deepEqual, equal, ok } from "node:assert/strict";
import {
  CatalogueNeighbours,
  NEIGHBOUR_COUNT,
  NEIGHBOUR_MIN_COSINE,
} from "../../src/ranking/neighbours.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import type { WordVectors } from "../../src/ranking/word_sources.ts";
import { random } from "./_random.ts";

// Vectors given by hand; `spelt` words have a vector but are not words of the table.
function handVectors(
  table: Record<string, number[]>,
  spelt: Record<string, number[]> = {},
): WordVectors {
  const dimensions = Object.values(table)[0]!.length;
  return {
    dimensions,
    has: (word) => word in table,
    get(word) {
      const v = table[word] ?? spelt[word];
      return v === undefined ? undefined : { vector: Float32Array.from(v), weight: 0.5 };
    },
    index: () => {
      throw new Error("not used");
    },
  };
}

const cosine = (a: readonly number[], b: readonly number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, d) => {
    dot += x * b[d]!;
    na += x * x;
    nb += b[d]! * b[d]!;
  });
  return dot / Math.sqrt(na * nb);
};

Deno.test("CatalogueNeighbours.related() gives close catalogue words, closest first, scaled by the weight", () => {
  const vectors = handVectors({
    photo: [1, 0, 0],
    picture: [0.95, 0.1, 0],
    image: [0.9, 0.3, 0],
    weather: [0, 1, 0],
    text: [0, 0, 1],
  });
  const near = new CatalogueNeighbours(["image", "picture", "weather", "text", "picture"], vectors);
  equal(near.size, 4);
  const related = near.related("photo", 0.5);
  deepEqual(related.map((r) => r.word), ["picture", "image"]);
  ok(Math.abs(related[0]!.weight - 0.5 * cosine([1, 0, 0], [0.95, 0.1, 0])) < 1e-6);
  ok(related[0]!.weight > related[1]!.weight);
  // Never the word itself, never a word below the threshold.
  deepEqual(near.related("picture", 1).map((r) => r.word), ["image"]);
  deepEqual(near.related("weather", 1), []);
  // Asked again (from the memo), the same answer at the new weight.
  deepEqual(near.related("photo", 1).map((r) => r.word), ["picture", "image"]);
  ok(Math.abs(near.related("photo", 1)[0]!.weight - 2 * related[0]!.weight) < 1e-6);
});

Deno.test("CatalogueNeighbours leaves out words that are not words of the table, on either side", () => {
  const vectors = handVectors({ photo: [1, 0], image: [1, 0.1] }, { phot0: [1, 0], img: [1, 0] });
  const near = new CatalogueNeighbours(["image", "img"], vectors);
  equal(near.size, 1);
  deepEqual(near.related("photo", 1).map((r) => r.word), ["image"]);
  deepEqual(near.related("phot0", 1), []);
  deepEqual(near.related("unknown", 1), []);
  deepEqual(new CatalogueNeighbours([], vectors).related("photo", 1), []);
});

Deno.test("CatalogueNeighbours.related() finds exactly what comparing with every word finds", () => {
  const next = random(7);
  const dimensions = 48;
  // Clustered vectors, so that many pairs pass the threshold and many are ruled out early.
  const centres = Array.from({ length: 20 }, () => Array.from({ length: dimensions }, next));
  const table: Record<string, number[]> = {};
  for (let i = 0; i < 600; i++) {
    const centre = centres[i % centres.length]!;
    table[`w${i}`] = centre.map((x) => x + (next() - 0.5) * 0.6 * (i % 3));
  }
  const words = Object.keys(table);
  const catalogue = words.filter((_, i) => i % 2 === 0);
  const near = new CatalogueNeighbours(catalogue, handVectors(table));
  let reached = 0;
  for (const word of words.filter((_, i) => i % 7 === 1)) {
    const expected = catalogue
      .filter((other) => other !== word)
      .map((other) => ({ word: other, cos: cosine(table[word]!, table[other]!) }))
      .filter((c) => c.cos >= NEIGHBOUR_MIN_COSINE)
      .sort((a, b) => b.cos - a.cos || (a.word < b.word ? -1 : 1))
      .slice(0, NEIGHBOUR_COUNT);
    const got = near.related(word, 1);
    deepEqual(got.map((r) => r.word), expected.map((c) => c.word), word);
    got.forEach((r, i) => ok(Math.abs(r.weight - expected[i]!.cos) < 1e-4, word));
    reached += got.length;
  }
  ok(reached > 50, `only ${reached} pairs passed the threshold: the test would prove little`);
});

Deno.test("CatalogueNeighbours over the English vectors relates wordings of one thing", () => {
  const near = new CatalogueNeighbours(["picture", "weather", "delete"], englishVectors());
  deepEqual(near.related("photo", 1).map((r) => r.word), ["picture"]);
  deepEqual(near.related("kubernetes", 1), []); // spelt in pieces: no meaning to go by
});
