// The opt-in thesaurus and word vectors on hostile queries: whatever the query, the ranker with
// both answers within its contract (at most `limit` results, positive finite scores, sorted, ids of
// the catalogue), and a query in the catalogue's own words ranks exactly as without the semantic
// match.
import { deepEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import { createLexicalRanker } from "../../src/ranking/lexical_ranker.ts";
import { englishLexicon } from "../../src/ranking/lexicon.ts";
import { englishVectors } from "../../src/ranking/vectors.ts";
import { realServerTools } from "../_data.ts";
import { hostileText } from "./_arbitraries.ts";
import { runs } from "./_runs.ts";

const tools = realServerTools();
const ids = new Set(tools.map((t) => `${t.server}/${t.name}`));
const plain = createLexicalRanker()(tools, { servers: [] });
const opted = createLexicalRanker({ thesaurus: englishLexicon(), vectors: englishVectors() })(
  tools,
  { servers: [] },
);
// The semantic match alone: the Deno default's word weighing and neighbours change how a query
// in the catalogue's own words ranks, on purpose.
const withVectors = createLexicalRanker({
  vectors: englishVectors(),
  commonWordPower: 0,
  neighbourWeight: 0,
})(tools, { servers: [] });

// Words of the catalogue itself: a query made of them has no word the catalogue lacks.
const catalogueWord = fc.constantFrom("read", "file", "issue", "page", "screenshot", "query");

const query = fc.oneof(
  hostileText,
  fc.array(
    fc.oneof(hostileText, fc.constantFrom("photo", "kubernetes", "qwerty", "x".repeat(60))),
    {
      maxLength: 8,
    },
  ).map((parts) => parts.join(" ")),
);

Deno.test("the ranker with thesaurus and vectors answers any query within its contract", () => {
  fc.assert(
    fc.property(query, fc.integer({ min: 1, max: 30 }), (q, limit) => {
      const hits = opted.search(q, limit);
      ok(hits.length <= limit);
      for (let i = 0; i < hits.length; i++) {
        const { id, score } = hits[i]!;
        ok(ids.has(id), id);
        ok(Number.isFinite(score) && score > 0, `${id} ${score}`);
        if (i > 0) ok(hits[i - 1]!.score >= score);
      }
    }),
    runs(0.25),
  );
});

Deno.test("the semantic match leaves a query in the catalogue's own words ranked as without it", () => {
  fc.assert(
    fc.property(fc.array(catalogueWord, { minLength: 1, maxLength: 4 }), (words) => {
      const q = words.join(" ");
      deepEqual(withVectors.search(q, 10), plain.search(q, 10), q);
    }),
    runs(0.1),
  );
});
