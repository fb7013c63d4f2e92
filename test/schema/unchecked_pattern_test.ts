// A valid schema is never refused for being hard to check: patterns the linear-time engine cannot
// run (lookaround, backreferences, repeats over 1,000, Unicode properties it lacks) are left to the
// tool's server. The tool stays listed and callable, the rest of its schema is checked, and the
// catalogue, the describe text and the inject response say what was left. Every other pattern is
// checked, however many the catalogue holds: an execute compiles those its arguments reach.
import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { Injector, InvalidCatalogError, McpCatalog, type McpTool } from "../../mod.ts";
import { MAX_PATTERN_UNITS } from "../../src/limits.ts";
import { uncheckedKeywords } from "../../src/schema/validate.ts";
import { cachedPatternInstructions, compilePattern } from "../../src/schema/pattern.ts";
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

Deno.test("every pattern is checked however many a catalogue holds, in any tool order", () => {
  // Each distinct ^[a-z]{1,1000}N$ is some 2,000 instructions: a budget per catalogue checked the
  // first 49 and left the rest to the server.
  const tools = Array.from({ length: 200 }, (_, i) =>
    toolWith(`t${String(i).padStart(3, "0")}`, {
      q: { type: "string", pattern: `^[a-z]{1,1000}${i}$` },
    }));
  const catalog = new McpCatalog([...tools].reverse());
  deepEqual(catalog.warnings, []);
  const injector = new Injector(catalog);
  for (const name of ["s/t000", "s/t199"]) {
    const refused = injector.route({ action: "execute", name, arguments: { q: "A" } });
    equal(refused.action === "error" && refused.code, "invalid_arguments", name);
  }
  const fine = injector.route({ action: "execute", name: "s/t199", arguments: { q: "ab199" } });
  equal(fine.action, "execute");
});

// Issue 27's catalogue: one tool of 1,400 properties, each its own ^[A-Z0-9]{2,999}-N$ (84 KiB).
function codes(count: number): McpTool {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < count; i++) {
    properties[`p${i}`] = { type: "string", pattern: `^[A-Z0-9]{2,999}-${i}$` };
  }
  return toolWith("codes", properties);
}

Deno.test("a value breaking the last of 1,400 distinct patterns is refused, compiling only it", () => {
  const tool = codes(1_400);
  ok(JSON.stringify(tool).length > 80 * 1024);
  const catalog = new McpCatalog([tool]);
  deepEqual(catalog.warnings, []);
  const injector = new Injector(catalog);
  const before = cachedPatternInstructions();
  const lower = injector.route({
    action: "execute",
    name: "s/codes",
    arguments: { p1399: "ab-1399" },
  });
  equal(lower.action === "error" && lower.code, "invalid_arguments");
  match(lower.action === "error" ? lower.message : "", /"\/p1399" String does not match pattern/);
  // One pattern compiled (about 2,000 instructions), not 1,400.
  const compiled = cachedPatternInstructions() - before;
  ok(compiled > 0 && compiled < 3_000, `${compiled} instructions compiled`);
  const upper = injector.route({
    action: "execute",
    name: "s/codes",
    arguments: { p1399: "AB-1399" },
  });
  equal(upper.action, "execute");
});

Deno.test("a call reaching more pattern instructions than MAX_PATTERN_UNITS is refused, every time", () => {
  const injector = new Injector(new McpCatalog([codes(1_400)]));
  const many: Record<string, string> = {};
  // Some 2,000 instructions each: 60 of them are past the budget of one call.
  for (let i = 0; i < 60; i++) many[`p${i}`] = `AB-${i}`;
  ok(60 * 2_000 > MAX_PATTERN_UNITS);
  for (let attempt = 0; attempt < 2; attempt++) {
    const refused = injector.route({ action: "execute", name: "s/codes", arguments: many });
    equal(refused.action === "error" && refused.code, "invalid_arguments", `attempt ${attempt}`);
    match(refused.action === "error" ? refused.message : "", /MAX_PATTERN_UNITS/);
  }
  const few = Object.fromEntries(Object.entries(many).slice(0, 40));
  equal(injector.route({ action: "execute", name: "s/codes", arguments: few }).action, "execute");
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
