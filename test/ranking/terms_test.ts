import { deepEqual, equal } from "node:assert/strict";
import {
  normalize,
  schemaText,
  splitIdentifiers,
  stripMarkup,
  tokenize,
  tokenizeIdentifiers,
} from "../../src/ranking/terms.ts";

Deno.test("splitIdentifiers() splits snake, kebab, camel, acronyms and digits", () => {
  equal(splitIdentifiers("get_file_contents"), "get file contents");
  equal(splitIdentifiers("browser-take-screenshot"), "browser take screenshot");
  equal(splitIdentifiers("listPullRequests"), "list Pull Requests");
  equal(splitIdentifiers("XMLHttpRequest"), "XML Http Request");
  equal(splitIdentifiers("base64Encode"), "base 64 Encode");
  equal(splitIdentifiers("API-retrieve-a-page"), "API retrieve a page");
});

Deno.test("normalize() folds case, width and accents", () => {
  equal(normalize("Ünïcödé ＳＱＬ"), "unicode sql");
});

Deno.test("tokenize() yields lower-case words and CJK bigrams", () => {
  deepEqual(tokenize("Take a screenshot (PNG)!"), ["take", "a", "screenshot", "png"]);
  deepEqual(tokenize("搜索"), ["搜索"]);
  deepEqual(tokenize("必应搜索API"), ["必应", "应搜", "搜索", "api"]);
  deepEqual(tokenize("天"), ["天"]);
  deepEqual(tokenize("!!!"), []);
});

Deno.test("schemaText() walks nested properties, items and combinators, bounded", () => {
  const schema = {
    type: "object",
    properties: {
      filter: {
        type: "object",
        description: "Filter",
        properties: { label: { type: "string", description: "Label name" } },
      },
      tags: { type: "array", items: { type: "object", properties: { tagName: {} } } },
      mode: { anyOf: [{ type: "object", properties: { fast: { description: "Go fast" } } }] },
    },
  };
  deepEqual(schemaText(schema), {
    names: ["filter", "label", "tags", "tagName", "mode", "fast"],
    descriptions: ["Filter", "Label name", "Go fast"],
  });
  const wide = {
    properties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, {}])),
  };
  equal(schemaText(wide).names.length, 200);
  deepEqual(schemaText(null), { names: [], descriptions: [] });
});

Deno.test("stripMarkup() removes tags without attributes and keeps comparisons", () => {
  equal(stripMarkup("<tool_assistant>\nserver: x\n</tool_assistant>").trim(), "server: x");
  equal(stripMarkup("<b>bold</b><br/>"), " bold  ");
  equal(stripMarkup("if a<b and b>c"), "if a<b and b>c");
  equal(stripMarkup("List<String> is generic"), "List  is generic");
});

// A small deterministic generator (xorshift32), so the strings are the same on every run.
function randomStrings(count: number, alphabet: string, seed = 12345): string[] {
  let state = seed;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 24);
    let text = "";
    for (let i = 0; i < length; i++) text += alphabet[Math.floor(next() * alphabet.length)];
    return text;
  });
}

Deno.test("tokenize() gives ASCII text the same terms as the general Unicode path", () => {
  // An appended " é" sends the text down the general path and adds exactly the term "e".
  for (const text of randomStrings(20000, "aBcXyZ019_-./: ()'\"\t\nAb7Q")) {
    deepEqual(tokenize(`${text} é`), [...tokenize(text), "e"], JSON.stringify(text));
    deepEqual(tokenizeIdentifiers(`${text} é`), [...tokenizeIdentifiers(text), "e"]);
    deepEqual(tokenizeIdentifiers(text), tokenize(splitIdentifiers(text)));
  }
});

Deno.test("tokenize() splits a letter–digit pair right after another only in identifiers", () => {
  deepEqual(tokenize("a1b mp3player HTTP2Server"), ["a", "1b", "mp", "3player", "http", "2server"]);
  deepEqual(tokenizeIdentifiers("a1b mp3player HTTP2Server"), [
    "a",
    "1",
    "b",
    "mp",
    "3",
    "player",
    "http",
    "2",
    "server",
  ]);
});
