import { deepEqual, equal } from "node:assert/strict";
import {
  normalize,
  schemaText,
  splitIdentifiers,
  stripMarkup,
  tokenize,
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
