import { deepEqual, equal, ok } from "node:assert/strict";
import {
  compileProgram,
  MAX_NESTING,
  MAX_PROGRAM,
  MAX_REPEAT,
  measureProgram,
  pikeSearch,
} from "../../src/schema/pike_vm.ts";
import { parsePattern } from "../../src/schema/regex_parse.ts";
import {
  cachedPatternInstructions,
  compilePattern,
  linearRegExp,
  MAX_CACHED_INSTRUCTIONS,
} from "../../src/schema/pattern.ts";

function search(source: string, text: string, ignoreCase = false) {
  const program = compileProgram(source, ignoreCase);
  if ("why" in program) throw new Error(program.why);
  return pikeSearch(program, text);
}

function native(source: string, text: string, flags = "u") {
  const match = new RegExp(source, flags).exec(text);
  return match === null ? null : Array.from(match);
}

Deno.test("the first match and its groups are ECMAScript's: leftmost, then by priority", () => {
  const cases: Array<[string, string]> = [
    ["a|ab", "xab"],
    ["(a+)(a*)", "baaa"],
    ["(a+?)(a*)", "baaa"],
    ["(a|b)*c", "abac"],
    ["^(\\d{4})-(\\d\\d)-(\\d\\d)$", "2024-02-29"],
    ["(?<year>\\d+)x", "12x"],
    ["a(b)?c", "ac"],
    ["a{2,3}", "aaaa"],
    ["a{2,}?", "aaaa"],
    ["\\bfoo\\b", "a foo b"],
    ["\\Boo", "foo"],
    ["$", "abc"],
    ["x*", "abc"],
    ["[^]", "\n"],
    ["[]", "abc"],
    [".", "\n"],
    ["\\u{1F600}+", "a😀😀b"],
    ["\\uD83D\\uDE00", "😀"],
    [".", "😀"],
    ["\\p{Lu}\\p{Ll}+", "abc Déjà"],
    ["\\s+", "a\u2028\u00a0b"],
    ["\\x41\\u0042\\cJ\\0", "AB\n\0"],
    ["[\\d-]+\\/\\.\\$", "1-2/.$"],
  ];
  for (const [source, text] of cases) {
    deepEqual(search(source, text), native(source, text), `${source} on ${JSON.stringify(text)}`);
  }
});

Deno.test("without regard to case, letters fold as ECMAScript's i flag with u does", () => {
  for (const [source, text] of [["[a-z]+", "ABC"], ["k", "\u212A"], ["straße", "STRAßE"]]) {
    deepEqual(search(source!, text!, true), native(source!, text!, "iu"), source);
  }
  equal(linearRegExp(/^[a-f]+$/i).test("CafE"), true);
});

Deno.test("[\\s\\S] matches an astral character, as the specification says (V8 with u does not)", () => {
  const any = compilePattern("[\\s\\S]$");
  equal(any.ok && any.pattern.test("ba😀"), true);
  equal(new RegExp("[^]$", "u").test("ba😀"), true);
});

Deno.test("what needs backtracking or is too large is refused with why", () => {
  const why = (source: string) => {
    const program = compileProgram(source, false);
    return "why" in program ? program.why : "";
  };
  ok(why("a(?=b)").includes("lookaround"));
  ok(why("a(?!b)").includes("lookaround"));
  ok(why("(?<=a)b").includes("lookaround"));
  ok(why("(?<!a)b").includes("lookaround"));
  ok(why("(a)\\1").includes("backreference"));
  ok(why("(?<n>a)\\k<n>").includes("backreference"));
  ok(why(`a{${MAX_REPEAT + 1}}`).includes(`more than ${MAX_REPEAT.toLocaleString("en-US")}`));
  ok(why("(?:a{1000}){1000}").includes(`more than ${MAX_PROGRAM.toLocaleString("en-US")} instr`));
  ok(why("\\uD800").includes("unpaired surrogate"));
  const deep = "(".repeat(MAX_NESTING + 1) + ")".repeat(MAX_NESTING + 1);
  ok(why(deep).includes(`more than ${MAX_NESTING} deep`));
  ok(why("(".repeat(100_000) + ")".repeat(100_000)).includes("deep"));
  equal(why(`a{${MAX_REPEAT}}`), "");
});

Deno.test("a pattern that backtracks exponentially elsewhere answers on long text", () => {
  const slow = compilePattern("^(a+)+$");
  equal(slow.ok && slow.pattern.test("a".repeat(100_000) + "!"), false);
  equal(slow.ok && slow.pattern.test("a".repeat(100_000)), true);
  const nested = compilePattern("(x+x+)+y");
  equal(nested.ok && nested.pattern.test("x".repeat(20_000)), false);
  const empty = compilePattern("(a*)*b");
  equal(empty.ok && empty.pattern.test("a".repeat(20_000)), false);
});

Deno.test("a program's size is counted from its tree exactly as compiling writes it", () => {
  for (
    const source of [
      "a",
      "^(a|bc|d)*?x{2,5}(?:y|z)+$",
      "(\\d+)-(\\d+)|[^]{3,}",
      "(?<n>a{0,3}b?){2}\\b",
      "(?:a{1,10}){1,200}",
    ]
  ) {
    const program = compileProgram(source, false);
    equal(measureProgram(parsePattern(source).tree), "why" in program ? -1 : program.op.length);
  }
  const huge = "(?:a{1000}){1000}".repeat(1_000);
  ok(
    "why" in compileProgram(huge, false),
    "a program past MAX_PROGRAM is refused before it is written",
  );
});

Deno.test("a meter is told every step of a search and can stop it", () => {
  const program = compileProgram("[a-y]{0,1000}z", false);
  if ("why" in program) throw new Error(program.why);
  let told = 0;
  deepEqual(pikeSearch(program, "abz", false, (steps) => void (told += steps)), []);
  ok(told > 0 && told < 10_000, `${told} steps for three characters`);
  let seen = 0;
  const stop = new Error("budget spent");
  try {
    pikeSearch(program, "a".repeat(100_000), false, (steps) => {
      seen += steps;
      if (seen > 50_000) throw stop;
    });
    ok(false, "the search ran to its end");
  } catch (e) {
    equal(e, stop);
  }
  ok(seen < 60_000, `${seen} steps before the meter stopped it`);
});

Deno.test("the kept patterns hold at most MAX_CACHED_INSTRUCTIONS in all, and an evicted one compiles again", () => {
  // Each is about 4,000 instructions: 200 of them are 800,000 unless the oldest are let go.
  const sources = Array.from({ length: 200 }, (_, i) => `^(?:[a-z]{0,10}){0,190}${i}$`);
  for (const source of sources) {
    ok(compilePattern(source).ok, source);
    ok(cachedPatternInstructions() <= MAX_CACHED_INSTRUCTIONS, source);
  }
  const first = compilePattern(sources[0]!);
  equal(first.ok && first.pattern.test("abc0"), true);
});
