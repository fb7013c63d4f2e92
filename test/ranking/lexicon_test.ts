import { equal, ok, throws } from "node:assert/strict";
import {
  decodeLexicon,
  encodeLexicon,
  LEXICON_SENSES,
  RELATION_KINDS,
} from "../../src/ranking/lexicon_codec.ts";
import { englishLexicon, relationWeight } from "../../src/ranking/lexicon.ts";
import { tablesOf } from "../../src/ranking/ranking_data_write.ts";
import { englishRankingData } from "../../src/ranking/english_data.ts";
import { STOP_WORDS } from "../../src/ranking/terms.ts";
import { gzipSize } from "../_gzip.ts";

Deno.test("the committed thesaurus is well-formed: sorted words, symmetric relations in range", () => {
  const table = tablesOf(englishRankingData()).lexicon;
  ok(table.words.length > 1000, `${table.words.length} words`);
  for (let i = 1; i < table.words.length; i++) ok(table.words[i - 1]! < table.words[i]!);
  for (const word of table.words) {
    ok(/^[a-z]{2,}$/.test(word), word);
    ok(!STOP_WORDS.has(word), word);
  }
  const pairs = new Set<string>();
  for (let a = 0; a < table.words.length; a++) {
    for (let i = table.start[a]!; i < table.start[a + 1]!; i++) {
      const b = table.others[i]!;
      ok(b !== a && b >= 0 && b < table.words.length);
      ok(table.codes[i]! < RELATION_KINDS.length * LEXICON_SENSES);
      pairs.add(`${a} ${b} ${table.codes[i]}`);
    }
  }
  for (const pair of pairs) {
    const [a, b, code] = pair.split(" ");
    ok(pairs.has(`${b} ${a} ${code}`), `relation ${pair} is not symmetric`);
  }
});

Deno.test("the committed thesaurus stays within its size budget (100 KiB gzipped; 150 KiB at most)", async () => {
  const { words, start, others, codes } = tablesOf(englishRankingData()).lexicon;
  const relations = Array.from(
    words,
    (_, a) =>
      Array.from({ length: start[a + 1]! - start[a]! }, (_, k) => ({
        other: words[others[start[a]! + k]!]!,
        kind: RELATION_KINDS[Math.floor(codes[start[a]! + k]! / LEXICON_SENSES)]!,
        sense: codes[start[a]! + k]! % LEXICON_SENSES,
      })),
  );
  const gzip = await gzipSize(encodeLexicon({ words: [...words], relations }));
  ok(gzip <= 100 * 1024, `${gzip} bytes gzipped`);
});

Deno.test("englishLexicon() relates everyday words to the words tools use, below an exact match", () => {
  const lexicon = englishLexicon();
  const related = (word: string) => lexicon.related(word).map((r) => r.word);
  ok(related("picture").includes("image"));
  ok(related("show").includes("display"));
  ok(related("send").includes("mail"));
  ok(lexicon.related("picture").every((r) => r.weight > 0 && r.weight < 1));
  ok(lexicon.has("file") && !lexicon.has("files"));
  equal(lexicon.related("qwxz").length, 0);
});

Deno.test("encodeLexicon() and decodeLexicon() round-trip; decoding refuses broken text", () => {
  const text = encodeLexicon({
    words: ["alpha", "beta", "gamma"],
    relations: [
      [{ other: "gamma", kind: "broader", sense: 2 }],
      [],
      [{ other: "alpha", kind: "broader", sense: 2 }],
    ],
  });
  const table = decodeLexicon(text);
  equal(table.words[table.others[table.start[0]!]!], "gamma");
  equal(table.words[table.others[table.start[2]!]!], "alpha");
  equal(table.codes[table.start[0]!], RELATION_KINDS.indexOf("broader") * LEXICON_SENSES + 2);
  equal(relationWeight("broader", 0), 0.4);
  throws(() => decodeLexicon("no bar"), SyntaxError);
  throws(() => decodeLexicon("a b|zz,,"), SyntaxError);
  throws(() => decodeLexicon("a b|a,,"), SyntaxError); // a word related to itself
  throws(() => decodeLexicon("a b|!,,"), SyntaxError);
});
