/**
 * Another Deno project uses unfold exactly as the README's "Use it from your project" says: its
 * two files are taken from the README, written to a temporary directory outside the repository,
 * type-checked and run.
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type DenoRun, runDeno } from "./_deno.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const README = await Deno.readTextFile(join(REPO, "README.md"));

// The fenced blocks of one README section, in order.
function blocksOf(section: string): { lang: string; code: string }[] {
  const start = README.indexOf(`\n## ${section}\n`);
  ok(start >= 0, `the README has no section "${section}"`);
  const end = README.indexOf("\n## ", start + 1);
  const text = README.slice(start, end === -1 ? undefined : end);
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1]!,
    code: m[2]!,
  }));
}

function deno(cwd: string, ...args: string[]): Promise<DenoRun> {
  return runDeno(args, { cwd });
}

Deno.test("a project outside the repository uses the core and the HTTP adapter as the README says", async () => {
  const blocks = blocksOf("Use it from your project");
  const config = blocks.find((b) => b.lang === "jsonc")?.code;
  const program = blocks.find((b) => b.lang === "ts")?.code;
  ok(config && program, "the section shows a deno.json and a main.ts");
  ok(config.includes(`"links": ["../unfold"]`), "the deno.json links a clone at ../unfold");
  const dir = await Deno.makeTempDir({ prefix: "unfold-user-" });
  try {
    ok(!dir.startsWith(REPO), "the project is outside the repository");
    // The README's clone is at ../unfold; this one is wherever the repository is.
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      config.replace(`"../unfold"`, JSON.stringify(REPO)),
    );
    await Deno.writeTextFile(join(dir, "main.ts"), program);
    const checked = await deno(dir, "check", "main.ts");
    equal(checked.code, 0, checked.stderr);
    const run = await deno(dir, "run", "main.ts");
    equal(run.code, 0, run.stderr);
    const promised = [...program.matchAll(/\/\/ → (.*)$/gm)].map((m) => m[1]);
    deepEqual(run.stdout.trim().split("\n"), promised);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
