/**
 * Holds `deno task test` to its shape: one type check of everything, then the tests in parallel
 * without checking again (so the suite's wall time stays within what CI allows).
 *
 * @module
 */

import { deepEqual, ok } from "node:assert/strict";
import { ROOT } from "./_deno.ts";

const CONFIG = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
const TASK: string = CONFIG.tasks.test;
// The task's commands, split on `&&`, each as its words.
const STEPS = TASK.split("&&").map((step) => step.trim().split(/\s+/));

function step(name: string): string[] {
  const found = STEPS.find((words) => words[0] === "deno" && words[1] === name);
  ok(found, `deno task test has no deno ${name} step: ${TASK}`);
  return found;
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
