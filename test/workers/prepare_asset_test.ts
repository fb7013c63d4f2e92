import { equal, ok } from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

// The Worker sandbox's parser is a static asset built from src/code_mode/prepare.ts: the one
// committed is what `deno task code-mode-asset` builds from the code as it is now.
Deno.test("src/page/code-mode-prepare.js is prepare.ts as deno task code-mode-asset builds it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-prepare-asset-" });
  try {
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
    const task: string = config.tasks["code-mode-asset"];
    ok(task.endsWith("--output src/page/code-mode-prepare.js"), task);
    const args = task.replace(/^deno /, "").replace(/--output \S+$/, `--output ${dir}/prepare.js`)
      .split(" ");
    const built = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).output();
    equal(built.code, 0, new TextDecoder().decode(built.stderr));
    const fresh = await Deno.readTextFile(`${dir}/prepare.js`);
    const committed = await Deno.readTextFile(`${ROOT}src/page/code-mode-prepare.js`);
    equal(committed === fresh, true, "run deno task code-mode-asset and commit the asset");
    ok(/export\s*\{\s*\w+ as prepareScript\s*\}/.test(fresh), "the asset exports prepareScript");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
