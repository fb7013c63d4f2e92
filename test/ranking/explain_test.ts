import { deepEqual, equal, match, ok } from "node:assert/strict";
import { McpCatalog } from "../../src/catalog.ts";
import { explainSearch } from "../../src/ranking/explain.ts";
import type { McpTool } from "../../src/tool.ts";
import { tool } from "../_data.ts";

const catalog = new McpCatalog([
  tool("files", "read_file", "Read the contents of a file", { path: { type: "string" } }),
  tool("files", "write_file", "Write text to a file", { path: { type: "string" } }),
  tool("files", "list_directory", "List the entries of a directory"),
  tool("mail", "send_message", "Send an email message", { recipient: { type: "string" } }),
  tool("shots", "screenshot", "Capture the screen"),
]);

function explain(query: string, options: Parameters<typeof explainSearch>[2] = {}) {
  const explained = explainSearch(catalog, query, options);
  if (!explained.ok) throw new Error(explained.error.message);
  return explained.value;
}

Deno.test("explainSearch() keeps the catalogue's own ranking, scores and order", () => {
  const explained = explain("read a file", { limit: 3 });
  deepEqual(
    explained.results.map((r) => [r.id, r.score]),
    catalog.search("read a file", 3).map((m) => [m.id, m.score]),
  );
  deepEqual(explained.results.map((r) => r.rank), [1, 2, 3]);
  deepEqual(explained.words, ["read", "file"]);
});

Deno.test("explainSearch() names each kind of match: exact, inflection, prefix and typo", () => {
  const top = (query: string) => explain(query).results[0]!;
  deepEqual(top("read").matches, [{ word: "read", kind: "exact", term: "read", field: "name" }]);
  deepEqual(top("sending").matches[0], {
    word: "sending",
    kind: "inflection",
    term: "send",
    field: "name",
  });
  deepEqual(top("direct").matches[0], {
    word: "direct",
    kind: "prefix",
    term: "directory",
    field: "name",
  });
  deepEqual(top("screnshot").matches[0], {
    word: "screnshot",
    kind: "typo",
    term: "screenshot",
    field: "name",
  });
});

Deno.test("explainSearch() says which field matched and which query words a tool lacks", () => {
  const send = explain("email recipient").results[0]!;
  equal(send.id, "mail/send_message");
  deepEqual(send.matches.map((m) => [m.word, m.field]), [
    ["email", "description"],
    ["recipient", "params"],
  ]);
  deepEqual(send.missing, []);
});

Deno.test("explainSearch() tells where a named tool ranked below the list, and why", () => {
  const explained = explain("read file", { limit: 1, id: "files/write_file" });
  const target = explained.target!;
  equal(target.id, "files/write_file");
  ok(target.rank !== null && target.rank > 1, JSON.stringify(target));
  deepEqual(target.missing, ["read"]);
  match(target.reason, /^Ranked \d+, below the 1 shown .*no word for "read"/);
});

Deno.test("explainSearch() says a named tool that no query word reaches is not ranked", () => {
  const target = explain("capture screen", { id: "mail/send_message" }).target!;
  equal(target.rank, null);
  equal(target.score, null);
  deepEqual(target.missing, ["capture", "screen"]);
  match(target.reason, /^Not ranked: it has no word for "capture", "screen"; add the missing/);
});

Deno.test("explainSearch() refuses an id not in the catalogue without listing others", () => {
  const explained = explainSearch(catalog, "read", { id: "github/create_issue" });
  equal(explained.ok, false);
  if (explained.ok) return;
  equal(explained.error.code, "unknown_tool");
  match(explained.error.message, /^Cannot explain "github\/create_issue": the tool is not in/);
});

Deno.test("explainSearch() reads a synonym through the lexicon it is given", () => {
  const lexicon = {
    has: (w: string) => w === "picture" || w === "screen",
    related: (w: string) => w === "picture" ? [{ word: "screen", weight: 0.6 }] : [],
  };
  const shots = catalog.get("shots/screenshot") as McpTool;
  const explained = explainSearch(catalog, "picture", { id: "shots/screenshot", lexicon });
  ok(explained.ok && shots !== undefined);
  deepEqual(explained.value.target!.matches[0], {
    word: "picture",
    kind: "synonym",
    term: "screen",
    field: "description",
  });
});

Deno.test("explainSearch() stays linear on a hostile query: 1,000 characters of one long word", () => {
  const explained = explain("x".repeat(1000) + " " + "read ".repeat(199), {
    id: "files/read_file",
  });
  deepEqual(explained.words, ["read"]);
  equal(explained.target!.rank, 1);
});

// A word of letters alone (the tokeniser splits letters from digits): "waaaax", "waaabx", …
const letterWord = (n: number) =>
  `w${
    Array.from(
      { length: 4 },
      (_, i) => String.fromCharCode(97 + Math.floor(n / 26 ** (3 - i)) % 26),
    ).join("")
  }x`;

// A catalogue of `tools` tools, each with `words` distinct words of its own and the word "shared".
function wordyCatalog(tools: number, words: number): McpCatalog {
  let n = 0;
  return new McpCatalog(Array.from({ length: tools }, (_, t) => ({
    server: "s",
    name: `t${t}`,
    description: "shared",
    inputSchema: {
      type: "object",
      properties: {
        p: {
          type: "string",
          description: Array.from({ length: words }, () => letterWord(n++)).join(" "),
        },
      },
    },
  })));
}
// "shared", 10 words of the first tool, 5 beginnings of many words ("waaa" …), 5 typos of words.
const fewWords = [
  "shared",
  ...Array.from({ length: 10 }, (_, i) => letterWord(i * 7)),
  ...Array.from({ length: 5 }, (_, i) => letterWord(i * 26 * 26).slice(0, 4)),
  ...Array.from({ length: 5 }, (_, i) => letterWord(i * 3).replace("x", "q")),
].join(" ");
const QUERY_WORDS = 21;

Deno.test("explainSearch() works out each query word's synonyms once, not once per tool", () => {
  let calls = 0;
  const lexicon = { has: () => false, related: () => (calls++, []) };
  const catalog = wordyCatalog(40, 10);
  const explained = explainSearch(catalog, fewWords, { limit: 40, lexicon });
  ok(explained.ok);
  equal(explained.value.results.length, 40);
  // Each query word asks for itself and its inflections; per tool, it was 40 times that.
  ok(calls <= QUERY_WORDS * 10, `lexicon.related was called ${calls} times`);
});

Deno.test("explainSearch() looks each query word up in a tool, never walks the tool's words", () => {
  // Steps grow with the tools either way: a few tools show the walk as well as many.
  const tools = 10;
  const steps = (words: number) => {
    const meter = { steps: 0 };
    const explained = explainSearch(wordyCatalog(tools, words), fewWords, { limit: tools, meter });
    ok(explained.ok);
    equal(explained.value.results.length, tools);
    return meter.steps;
  };
  const small = steps(500);
  const large = steps(8_000);
  ok(small > 0, "the meter counts the lookups");
  // 16 times the words per tool: a walk takes 16 times the steps; lookups take the same, and a
  // search among a tool's words a few more (log2 of them).
  ok(large <= small * 1.5, `${small} steps at 500 words a tool, ${large} at 8,000`);
  ok(
    large <= QUERY_WORDS * tools * 40,
    `${large} steps for ${QUERY_WORDS} words and ${tools} tools`,
  );
});

Deno.test("explainSearch() finds the first of a tool's many longer words a query word begins", () => {
  const letters = (i: number) => String.fromCharCode(97 + Math.floor(i / 26), 97 + i % 26);
  const description = [
    "prefixes prefixing",
    ...Array.from({ length: 700 }, (_, i) => `prefix${letters(i % 676)}${i >= 676 ? "z" : ""}k`),
  ].join(" ");
  const catalog = new McpCatalog([
    { server: "s", name: "t", description, inputSchema: { type: "object" } },
  ]);
  // "prefi" begins all 702 words (searched for); "prefixq" the 26 "prefixqak" … (looked up).
  for (const [word, term] of [["prefi", "prefixes"], ["prefixq", "prefixqak"]]) {
    const explained = explainSearch(catalog, word!, { id: "s/t" });
    ok(explained.ok);
    deepEqual(explained.value.target!.matches, [
      { word, kind: "prefix", term, field: "description" },
    ]);
  }
});
