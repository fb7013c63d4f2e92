import { deepEqual, equal, ok } from "node:assert/strict";
import { parse } from "acorn";
import fc from "fast-check";
import { prepareScript } from "../../src/code_mode/prepare.ts";
import { scriptExpression, scriptModule, STEP } from "../../src/code_mode/script_text.ts";

const prepared = (code: string) => {
  const result = prepareScript(code, 100_000);
  if (!result.ok) throw new Error(result.error.message);
  return result.value.source;
};
const refused = (code: string, max = 100_000) => {
  const result = prepareScript(code, max);
  if (result.ok) throw new Error(`not refused: ${code}`);
  return result.error;
};

Deno.test("prepareScript() puts a step at the head of every loop, function, catch and finally", () => {
  equal(prepared("for (;;) {}"), `for (;;) {${STEP}();}`);
  equal(prepared("while (a) x();"), `while (a) {${STEP}();x();}`);
  equal(prepared("do x(); while (a)"), `do {${STEP}();x();} while (a)`);
  equal(
    prepared("for (const a of b) for (const c in a) d()"),
    `for (const a of b) {${STEP}();for (const c in a) {${STEP}();d()}}`,
  );
  equal(prepared("function f() { return 1 }"), `function f() {${STEP}(); return 1 }`);
  equal(prepared("const f = (x) => x + 1"), `const f = (x) => (${STEP}(), x + 1)`);
  equal(prepared("const g = () => ({ a: 1 })"), `const g = () => ((${STEP}(), { a: 1 }))`);
  equal(
    prepared("try { a() } catch { b() } finally { c() }"),
    `try { a() } catch {${STEP}(); b() } finally {${STEP}(); c() }`,
  );
  equal(
    prepared("class A { get x() { return 1 } m() {} }"),
    `class A { get x() {${STEP}(); return 1 } m() {${STEP}();} }`,
  );
  // A close and an open at the same place: the inner arrow closes before the loop's block.
  equal(prepared("for (;;) f = () => x"), `for (;;) {${STEP}();f = () => (${STEP}(), x)}`);
});

Deno.test("a prepared script keeps the model's lines, and parses as the body of an async function", () => {
  const code = "const a = [];\nfor (const x of [1, 2]) {\n  a.push(() => x);\n}\nreturn a.length;";
  const source = prepared(code);
  equal(source.split("\n").length, code.split("\n").length);
  parse(scriptExpression(source), { ecmaVersion: "latest" });
  parse(scriptModule(source), { ecmaVersion: "latest", sourceType: "module" });
  equal(scriptExpression(source).split("\n")[1], source.split("\n")[0]);
});

Deno.test("scripts of loops and functions nested at random prepare into code that parses", () => {
  const statement: fc.Arbitrary<string> = fc.letrec((tie) => ({
    s: fc.oneof(
      { depthSize: "small" },
      fc.constant("x++;"),
      tie("s").map((s) => `for (;;) ${s}`),
      tie("s").map((s) => `while (a) { ${s} }`),
      tie("s").map((s) => `f = () => { ${s} };`),
      tie("s").map((s) => `try { ${s} } catch { ${s} } finally { ${s} }`),
      fc.constant("g = (y) => y * 2;"),
    ),
  })).s;
  fc.assert(
    fc.property(fc.array(statement, { maxLength: 5 }), (statements) => {
      const code = statements.join("\n");
      const source = prepared(code);
      parse(scriptExpression(source), { ecmaVersion: "latest" });
      equal(source.split("\n").length, code.split("\n").length);
    }),
    { numRuns: 200 },
  );
});

Deno.test("a syntax error names its line and column", () => {
  deepEqual(refused("const a = 1;\nconst b = ;"), {
    code: "syntax_error",
    message: "Syntax error at line 2, column 11: Unexpected token",
    line: 2,
    column: 11,
  });
  equal(refused("}").code, "syntax_error");
  equal(refused("#!/bin/sh\nreturn 1").code, "syntax_error");
});

Deno.test("what scripts may not use is refused with its place", () => {
  for (
    const [code, line, column] of [
      ["return import('x')", 1, 8],
      ["\nimport x from 'y'", 2, 1],
      ["export const a = 1", 1, 1],
      ["return import.meta.url", 1, 8],
      ["let __unfold_step = 1", 1, 5],
      ["label: { __unfoldX: for (;;) break __unfoldX; }", 1, 10],
      ["return 10n", 1, 8],
      ["x = 1 <!-- y", 1, 7],
    ] as const
  ) {
    const problem = refused(code);
    equal(problem.code, "not_allowed", code);
    deepEqual([problem.line, problem.column], [line, column], code);
  }
});

Deno.test("HTML-like comment marks inside strings, templates, expressions and comments are text", () => {
  for (
    const code of [
      "const s = '<!--';",
      "const t = `-->`;",
      "const r = /<!--/;",
      "// -->\nx",
      "x-->0",
    ]
  ) {
    ok(prepareScript(code, 1000).ok, code);
  }
});

Deno.test("a script over maxCodeChars is refused before it is parsed", () => {
  equal(refused("return 1", 3).code, "too_long");
});

Deno.test("a script nested too deeply is refused, not a crash", () => {
  equal(refused("(".repeat(5000) + ")".repeat(5000)).code, "syntax_error");
  const blocks = "{".repeat(450) + "}".repeat(450);
  equal(refused(blocks).code, "not_allowed");
});
