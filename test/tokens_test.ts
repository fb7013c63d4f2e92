import { equal } from "node:assert/strict";
import { estimateTokens } from "../src/tokens.ts";

Deno.test("estimateTokens() is ceil(code points / 4)", () => {
  equal(estimateTokens(""), 0);
  equal(estimateTokens("a"), 1);
  equal(estimateTokens("abcd"), 1);
  equal(estimateTokens("abcde"), 2);
  equal(estimateTokens("搜索关键词"), 2);
});

Deno.test("estimateTokens() counts a surrogate pair as one code point", () => {
  equal(estimateTokens("🙂🙂🙂🙂"), 1);
  equal(estimateTokens("🙂🙂🙂🙂🙂"), 2);
  equal(estimateTokens("\ud800abc"), 1); // a lone surrogate still counts
});
