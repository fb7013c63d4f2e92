import { equal, ok } from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url).pathname;

// The Worker sandbox's parser and harness are a static asset built from
// src/code_mode/sandbox_asset.ts: the one committed is what `deno task code-mode-asset` builds from
// the code as it is now.
Deno.test("src/page/code-mode-sandbox.js is what deno task code-mode-asset builds from the code", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-prepare-asset-" });
  try {
    const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
    const task: string = config.tasks["code-mode-asset"];
    ok(task.endsWith("--output src/page/code-mode-sandbox.js"), task);
    const args = task.replace(/^deno /, "").replace(/--output \S+$/, `--output ${dir}/prepare.js`)
      .split(" ");
    const built = await new Deno.Command(Deno.execPath(), { args, cwd: ROOT }).output();
    equal(built.code, 0, new TextDecoder().decode(built.stderr));
    const fresh = await Deno.readTextFile(`${dir}/prepare.js`);
    const committed = await Deno.readTextFile(`${ROOT}src/page/code-mode-sandbox.js`);
    equal(committed === fresh, true, "run deno task code-mode-asset and commit the asset");
    ok(/\bas prepareScript\b/.test(fresh), "the asset exports prepareScript");
    ok(/\bas HARNESS_SOURCE\b/.test(fresh), "the asset exports HARNESS_SOURCE");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
