// A valid schema is never refused for being hard to check: patterns the linear-time engine cannot
// run (lookaround, backreferences, repeats over 1,000, Unicode properties it lacks) and patterns
// past the catalogue's compile budget are left to the tool's server. The tool stays listed and
// callable, the rest of its schema is checked, and the catalogue, the describe text and the
// inject response say what was left.
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { Injector, InvalidCatalogError, McpCatalog, type McpTool } from "../../mod.ts";
import { MAX_PATTERN_UNITS } from "../../src/limits.ts";
import { uncheckedKeywords } from "../../src/schema/validate.ts";
import {
  cachedPatternInstructions,
  compilePattern,
  inspectPattern,
} from "../../src/schema/pattern.ts";
import { MAX_NESTING } from "../../src/schema/pike_vm.ts";

function toolWith(name: string, properties: Record<string, unknown>, more = {}): McpTool {
  return {
    server: "s",
    name,
    description: "",
    inputSchema: { type: "object", properties, ...more },
  };
}

const HARD = {
  "{1,1001}": "^[a-z]{1,1001}$",
  ".{0,4096}": "^.{0,4096}$",
  lookahead: "^(?=.*\\d)\\w+$",
  lookbehind: "(?<!x)y",
  backreference: "^(\\w)\\1$",
  "named backreference": "^(?<c>\\w)\\k<c>$",
  "nested repeats": "^(a{1,100}){1,100}$",
  "deep nesting": "(".repeat(MAX_NESTING + 1) + "a" + ")".repeat(MAX_NESTING + 1),
  "a modifier group": "^(?i:a)$",
};

Deno.test("valid patterns the engine cannot run leave the tool listed, callable, and warned about", () => {
  for (const [label, pattern] of Object.entries(HARD)) {
    const catalog = new McpCatalog([
      toolWith("t", { q: { type: "string", pattern }, n: { type: "integer" } }, {
        required: ["q"],
      }),
    ]);
    deepEqual(catalog.warnings.map((w) => [w.tool, w.keyword, w.pointer]), [
      ["s/t", "pattern", "/properties/q/pattern"],
    ], label);
    match(
      catalog.warnings[0]!.reason,
      /backtracking|MAX_REPEAT|MAX_PROGRAM|MAX_NESTING|modifier/,
      label,
    );
    const injector = new Injector(catalog);
    // The pattern is the server's to check: any string passes here...
    const ok1 = injector.route({ action: "execute", name: "s/t", arguments: { q: "!!" } });
    equal(ok1.action, "execute", label);
    // ...and the rest of the schema is still checked.
    const bad = injector.route({ action: "execute", name: "s/t", arguments: { q: "x", n: "1" } });
    equal(bad.action === "error" && bad.code, "invalid_arguments", label);
    const text = injector.route({ action: "describe", name: "s/t" });
    ok(text.action === "describe");
    match(
      text.toolResult,
      /Checked by the server, not here: "pattern" at "\/properties\/q\/pattern"/,
    );
  }
});

Deno.test("Unicode properties keep ECMAScript's meaning and are checked", () => {
  const catalog = new McpCatalog([
    toolWith("t", { q: { type: "string", pattern: "^\\p{Script=Greek}+$" } }),
    toolWith("u", { q: { type: "string", pattern: "^\\p{Letter}+$" } }),
  ]);
  deepEqual(catalog.warnings, []);
  const injector = new Injector(catalog);
  equal(
    injector.route({ action: "execute", name: "s/t", arguments: { q: "αβγ" } }).action,
    "execute",
  );
  const latin = injector.route({ action: "execute", name: "s/t", arguments: { q: "abc" } });
  equal(latin.action === "error" && latin.code, "invalid_arguments");
  const letters = injector.route({ action: "execute", name: "s/u", arguments: { q: "Déjà" } });
  equal(letters.action, "execute");
  const digits = injector.route({ action: "execute", name: "s/u", arguments: { q: "42" } });
  equal(digits.action === "error" && digits.code, "invalid_arguments");
});

Deno.test("an unchecked patternProperties key neither applies its schema nor makes keys additional", () => {
  const injector = new Injector(
    new McpCatalog([
      toolWith("t", {}, {
        patternProperties: { "^(?!_)x": { type: "string" } },
        additionalProperties: false,
      }),
    ]),
  );
  equal(injector.catalog.warnings[0]?.pointer, "/patternProperties/^(?!_)x");
  const action = injector.route({ action: "execute", name: "s/t", arguments: { xa: 1 } });
  equal(action.action, "execute");
});

Deno.test("patterns past the catalogue's compile budget are left to the server, in tool id order", () => {
  // Each distinct ^[a-z]{1,1000}N$ costs about 2,000 units: the budget holds some 49 of them.
  const patterns = Array.from({ length: 200 }, (_, i) => `^[a-z]{1,1000}${i}$`);
  const tools = patterns.map((pattern, i) =>
    toolWith(`t${String(i).padStart(3, "0")}`, { q: { type: "string", pattern } })
  );
  const catalog = new McpCatalog([...tools].reverse());
  const warned = catalog.warnings.map((w) => w.tool);
  let allowed = 0;
  for (let left = MAX_PATTERN_UNITS; allowed < patterns.length; allowed++) {
    const verdict = inspectPattern(patterns[allowed]!);
    if (verdict.kind !== "checkable" || verdict.units > left) break;
    left -= verdict.units;
  }
  ok(allowed > 40 && allowed < 60, `${allowed} patterns fit the budget`);
  equal(warned.length, 200 - allowed);
  equal(warned[0], `s/t${String(allowed).padStart(3, "0")}`, "the first ids keep their checks");
  match(catalog.warnings[0]!.reason, /MAX_PATTERN_UNITS/);
  const injector = new Injector(catalog);
  const checked = injector.route({ action: "execute", name: "s/t000", arguments: { q: "A" } });
  equal(checked.action === "error" && checked.code, "invalid_arguments");
  const left = injector.route({ action: "execute", name: "s/t199", arguments: { q: "A" } });
  equal(left.action, "execute");
  // A pattern charged once is free for every other tool that uses it.
  const shared = new McpCatalog(
    Array.from(
      { length: 500 },
      (_, i) => toolWith(`u${i}`, { q: { type: "string", pattern: "^[a-z]{1,1000}$" } }),
    ),
  );
  deepEqual(shared.warnings, []);
});

Deno.test("building a catalogue compiles none of 300 distinct {1,1000} patterns", () => {
  // Every compile goes through the engine's bounded cache, so what the cache holds tells whether
  // one ran: the build only inspects patterns (each compile costs milliseconds; bench/hostile.ts
  // has the figures), and a pattern is compiled when an argument is first checked against it.
  // A count, not a timing, so a loaded machine cannot decide it.
  const tools = Array.from(
    { length: 300 },
    (_, i) => toolWith(`t${i}`, { q: { type: "string", pattern: `^[a-z]{1,1000}built${i}$` } }),
  );
  const before = cachedPatternInstructions();
  new McpCatalog(tools);
  equal(cachedPatternInstructions(), before);
  // The probe sees a compile of one of those patterns.
  ok(compilePattern("^[a-z]{1,1000}built0$").ok);
  ok(cachedPatternInstructions() > before);
});

Deno.test("only a schema that is not valid JSON Schema is refused", () => {
  for (
    const schema of [
      { type: "object", properties: { q: { pattern: "(" } } },
      { type: "object", properties: { q: { type: 42 } } },
      { type: "object", properties: { q: { $ref: "#/$defs/missing" } } },
    ]
  ) {
    throws(
      () => new McpCatalog([{ server: "s", name: "t", description: "", inputSchema: schema }]),
      InvalidCatalogError,
    );
  }
});

Deno.test("uncheckedKeywords works on a tool no catalogue has checked", () => {
  const tool = toolWith("t", { q: { type: "string", pattern: "a(?=b)" } });
  equal(uncheckedKeywords(tool).length, 1);
  equal(uncheckedKeywords(toolWith("u", { q: { type: "string" } })).length, 0);
});
