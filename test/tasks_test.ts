/**
 * Holds `deno task test` to its shape: one type check of everything, then the unit stage (no
 * process, no socket) and the integration stage, each in parallel without checking again, the
 * longest integration files first (so the suite's wall time stays within what CI allows).
 *
 * @module
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { ROOT } from "./_deno.ts";
import {
  INTEGRATION,
  stageArgs,
  UNIT_SHARES,
  unitFiles,
  unitShare,
  unitShareModule,
} from "./_stages.ts";

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
  for (const stage of ["unit", "integration"] as const) {
    ok(stageArgs(stage).includes("--no-check"), `the ${stage} stage does not check again`);
  }
});

Deno.test("deno task test runs the unit stage first, then the integration stage with the doc tests", () => {
  const stages = STEPS.filter((words) => words[0] === "deno" && words[1] === "task")
    .map((words) => words[2]);
  deepEqual(stages, ["test:unit", "test:integration"]);
  for (const stage of ["unit", "integration"] as const) {
    ok(CONFIG.tasks[`test:${stage}`].endsWith(`test/_stages.ts ${stage}`), `test:${stage}`);
    ok(stageArgs(stage).includes("--parallel"), `the ${stage} stage runs files in parallel`);
  }
  ok(stageArgs("integration").includes("--doc"), "the doc tests run in the integration stage");
  ok(stageArgs("integration").includes("-A"));
});

Deno.test("the unit stage may start no process and open no socket", () => {
  const args = stageArgs("unit");
  ok(!args.includes("-A") && !args.some((word) => /^--allow-(run|net|ffi|all)/.test(word)));
  const root = ROOT.replace(/\/$/, "");
  const files = unitFiles(root);
  ok(files.length > 50, `${files.length} unit files`);
  // Every unit file is in exactly one share, and the stage runs every share's module.
  const shared = Array.from({ length: UNIT_SHARES }, (_, i) => unitShare(i, root)).flat();
  deepEqual(shared.toSorted(), files);
  for (let i = 0; i < UNIT_SHARES; i++) {
    const module = unitShareModule(i);
    ok(args.includes(module), module);
    ok(Deno.readTextFileSync(`${ROOT}${module}`).includes(`unitShare(${i}, `), module);
  }
});

Deno.test("the integration stage names each of its files once, the slowest first, then every other", () => {
  equal(new Set(INTEGRATION).size, INTEGRATION.length, "each file is named once");
  for (const path of INTEGRATION) {
    ok(path.endsWith("_test.ts") && Deno.statSync(`${ROOT}${path}`).isFile, `${path}`);
  }
  const args = stageArgs("integration");
  equal(args.at(-1), ".", "the integration stage ends with . (the doc tests)");
  ok(args.some((word) => word.startsWith("--ignore=test/")), "the unit files are not run twice");
});
