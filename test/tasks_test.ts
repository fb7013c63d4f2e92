/**
 * Holds `deno task test` to its shape: one type check of everything, then the tests in parallel
 * without checking again, more files at once than cores and the longest first (so the suite's wall
 * time stays within what CI allows).
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { ROOT } from "./_deno.ts";

const CONFIG = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
const TASK: string = CONFIG.tasks.test;
// The task's commands, split on `&&`, each as its words.
const STEPS = TASK.split("&&").map((step) => step.trim().split(/\s+/));
// A command's leading `NAME=value` words: the environment the task gives it.
const ASSIGNMENT = /^[A-Z_]+=/;

function step(name: string): string[] {
  const found = STEPS.map((words) => words.slice(words.findIndex((w) => !ASSIGNMENT.test(w))))
    .find((words) => words[0] === "deno" && words[1] === name);
  ok(found, `deno task test has no deno ${name} step: ${TASK}`);
  return found;
}

function environmentOf(name: string): Record<string, string> {
  const words = STEPS.find((words) => words.includes("deno") && words.includes(name)) ?? [];
  return Object.fromEntries(
    words.filter((w) => ASSIGNMENT.test(w)).map((
      w,
    ) => [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]),
  );
}

// Markdown files whose code blocks `deno test --doc` runs: every one outside the excluded paths.
function markdownWithCode(dir = ROOT, skip = new Set<string>()): string[] {
  const found: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}${entry.name}`;
    const relative = path.slice(ROOT.length);
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    if (skip.has(relative) || skip.has(`${relative}/`)) continue;
    if (entry.isDirectory) found.push(...markdownWithCode(`${path}/`, skip));
    else if (
      entry.name.endsWith(".md") &&
      /^```(ts|tsx|js|jsx|typescript|javascript)\b/m.test(Deno.readTextFileSync(path))
    ) found.push(relative);
  }
  return found.sort();
}

Deno.test("deno task test type-checks once: deno check covers what deno test would check", () => {
  const check = step("check");
  ok(check.includes("--doc"), "deno check --doc checks the JSDoc examples the doc tests run");
  ok(check.includes("."), "deno check covers the whole repository");
  const skip = new Set<string>([...(CONFIG.exclude ?? []), ...(CONFIG.test?.exclude ?? [])]);
  deepEqual(
    check.filter((word) => word.endsWith(".md")).sort(),
    markdownWithCode(ROOT, skip),
    "deno check names every Markdown file whose code blocks deno test --doc runs",
  );
  ok(step("test").includes("--no-check"), "deno test does not check a second time");
});

Deno.test("deno task test runs the test files in parallel, the doc tests included", () => {
  const test = step("test");
  for (const flag of ["--parallel", "--doc", "-A"]) ok(test.includes(flag), `deno test ${flag}`);
});

Deno.test("deno task test keeps two cores busy: more files at once than cores, the longest first", () => {
  // Many files mostly wait (on servers, workerd, Chromium): with one file per core a core idles.
  const jobs = Number(environmentOf("test").DENO_JOBS);
  ok(Number.isInteger(jobs) && jobs > 2, `DENO_JOBS=${jobs}`);
  // deno test starts files in the order given and runs each once: the slow files named first
  // start first, so none of them is left running alone at the end; "." then adds every other one.
  const paths = step("test").filter((word) => !word.startsWith("-")).slice(2);
  equal(paths.at(-1), ".", "the test step ends with . (every file)");
  const first = paths.slice(0, -1);
  ok(first.length > 0, "the test step names its slowest files first");
  for (const path of first) {
    ok(
      path.endsWith("_test.ts") && Deno.statSync(`${ROOT}${path}`).isFile,
      `${path} is a test file`,
    );
  }
  equal(new Set(first).size, first.length, "each file is named once");
});
