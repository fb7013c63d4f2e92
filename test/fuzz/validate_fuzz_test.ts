// Argument validation against an independent validator (Ajv, 2020-12) on random schema/argument
// pairs: they agree, and wherever they could differ unfold refuses (fails closed). Patterns on the
// linear-time engine agree with ECMAScript's.
import { equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import { validateArguments } from "../../src/schema/validate.ts";
import { compileSchema } from "../../src/schema/check.ts";
import { compilePattern } from "../../src/schema/pattern.ts";
import { argumentsObject, pattern, patternText, schema } from "./_arbitraries.ts";
import { runs } from "./_runs.ts";

// ownProperties: Ajv otherwise counts inherited members ("constructor") as present (the fuzz suite's
// first finding; unfold checks own properties, as JSON Schema means).
const ajv = new Ajv2020({
  strict: false,
  unicodeRegExp: true,
  validateFormats: false,
  ownProperties: true,
});

// Ajv's multipleOf asks whether parseInt of the quotient's text equals the quotient: from 1e21 up
// the text is in exponent form ("1e+21"), so Ajv calls 1e21 no multiple of 1 (a finding of the
// fuzz suite at 100,000 cases). Where the default instance refuses, this one (a rounding test
// instead) is asked too; it differs from the default only on such quotients.
const rounding = new Ajv2020({
  strict: false,
  unicodeRegExp: true,
  validateFormats: false,
  ownProperties: true,
  multipleOfPrecision: 12,
});

// V8 also answers /(?:[^]*?[^]^a)*/u.test("") false, though a starred group matches any text zero
// times (a finding of the fuzz suite at 100,000 cases): a "match anything" class after a lazy
// one. Where it answers false, the pattern with such classes spelt as an alternation is asked too.
const ANY_CLASS = /\[(?:\^|\\s\\S|\\S\\s|\\d\\D|\\D\\d|\\w\\W|\\W\\w)\]/g;

// V8 15 (Deno 2.6) answers /[\S]$/u.test("😀") false where the spec (and V8 11) says true: a class
// holding a negated escape (\S, \D, \W), then $, on an astral character. The reference is the
// pattern with such classes spelt without negated escapes ([\s\S] is [^]), else in v mode, whose
// classes V8 implements apart.
function reference(source: string, text: string, native: RegExp): boolean {
  const answer = native.test(text);
  if (!answer && ANY_CLASS.test(source)) {
    ANY_CLASS.lastIndex = 0;
    try {
      const spelt = source.replace(ANY_CLASS, "(?:.|[\\n\\r\\u2028\\u2029])");
      if (new RegExp(spelt, "u").test(text)) return true;
    } catch {
      // not a pattern once spelt out: keep V8's answer
    }
  }
  ANY_CLASS.lastIndex = 0;
  if (!/\[[^\]]*\\[SDW]/.test(source)) return answer;
  const spelt = source.replace(/\[(\\s\\S|\\S\\s|\\d\\D|\\D\\d|\\w\\W|\\W\\w)\]/g, "[^]");
  if (!/\[[^\]]*\\[SDW]/.test(spelt)) return new RegExp(spelt, "u").test(text);
  try {
    return new RegExp(source, "v").test(text);
  } catch {
    return answer;
  }
}

// Whether a schema names a property "__proto__": Ajv drops such a key from `properties` (and the
// keywords that read property names) by design, so it never checks that property's subschema,
// while JSON Schema (and unfold) does: an own "__proto__" member of the arguments is a property
// like any other. There Ajv is no reference (test/schema/validate_test.ts checks such a property).
function namesProto(schema: unknown): boolean {
  return JSON.stringify(schema).includes('"__proto__"');
}

// Whether the arguments hold a number Ajv's default multipleOf misjudges (1e21 or more).
function hugeQuotient(args: unknown): boolean {
  return JSON.stringify(args).includes("e+");
}

Deno.test("argument validation agrees with Ajv on random schemas and arguments, or refuses", () => {
  const tally = { agreed: 0, undecided: 0, noReference: 0 };
  fc.assert(
    fc.property(schema, argumentsObject, (inputSchema, args) => {
      const compiled = compileSchema(inputSchema);
      ok(compiled.ok, JSON.stringify(compiled));
      if (namesProto(inputSchema)) {
        // Ajv is no reference here (below), and compiling such a schema assigns to "__proto__",
        // which makes Deno end any later failure of the whole run with a misleading
        // "--unsafe-proto" hint.
        validateArguments({ server: "s", name: "t", description: "", inputSchema }, args);
        tally.noReference++;
        return;
      }
      let check;
      try {
        check = ajv.compile(inputSchema);
      } catch {
        // Ajv cannot compile what it cannot encode (a lone-surrogate property name): no reference.
        tally.noReference++;
        return;
      }
      let theirs: boolean | "throws";
      try {
        theirs = check(args) === true;
      } catch {
        theirs = "throws"; // e.g. Ajv's own stack overflow on a reference loop
      }
      const tool = { server: "s", name: "t", description: "", inputSchema };
      const problems = validateArguments(tool, args);
      const ours = problems.length === 0;
      if (ours && theirs === false && hugeQuotient(args)) {
        theirs = rounding.compile(inputSchema)(args) === true;
      }
      if (ours) {
        equal(theirs, true, "unfold allowed what Ajv refuses");
      } else if (theirs !== false) {
        // Where they differ, unfold refuses because it could not decide within its limits, never
        // because it claims a violation Ajv does not see.
        ok(
          problems.every((p) => p.message.startsWith("cannot be checked")),
          `unfold refuses (${JSON.stringify(problems)}), Ajv ${
            theirs === true ? "allows" : "throws"
          }`,
        );
        tally.undecided++;
        return;
      }
      tally.agreed++;
    }),
    runs(0.5), // Ajv compiles every schema: the costliest property
  );
  ok(tally.agreed > tally.undecided + tally.noReference, JSON.stringify(tally));
});

Deno.test("patterns on the linear-time engine match as ECMAScript's RegExp does", () => {
  fc.assert(
    fc.property(pattern, fc.array(patternText, { minLength: 1, maxLength: 6 }), (source, texts) => {
      let native: RegExp;
      try {
        native = new RegExp(source, "u");
      } catch {
        equal(compilePattern(source).ok, false, "an invalid pattern compiled");
        return;
      }
      const linear = compilePattern(source);
      ok(linear.ok, `${source}: ${linear.ok ? "" : linear.why}`);
      for (const text of texts) {
        equal(
          linear.pattern.test(text),
          reference(source, text, native),
          `${source} on ${JSON.stringify(text)}`,
        );
      }
    }),
    runs(),
  );
});
