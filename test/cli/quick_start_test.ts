// The README's gateway quick start, the first command a new user types after cloning: on a fresh
// clone with an empty Deno cache, `deno task unfold inspect` must fetch only what the gateway
// imports, as the host snippet does, not every package of deno.json (wrangler, workerd, the
// browser used by the page tests: over 500 MB and half a minute).
// deno-lint-ignore-file no-console
import { ok } from "node:assert/strict";
import { cloneRepo, ROOT } from "../_deno.ts";
import { PASSED_ENV_VARS } from "../../src/gateway/environment.ts";

// What the first hour may fetch in the Deno cache and node_modules together.
const MAX_FETCHED_BYTES = 80 * 1024 * 1024;

const README = await Deno.readTextFile(`${ROOT}README.md`);

async function bytesUnder(path: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sb", path] }).output();
  if (!out.success) return 0;
  return Number(new TextDecoder().decode(out.stdout).split("\t")[0]);
}

Deno.test({
  name: "the README's first quick-start command fetches only what the gateway needs",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const found = /^deno task unfold (inspect [^#\n]+?)\s+#/m.exec(README);
    ok(found, "the README's quick start shows no `deno task unfold inspect …` line");
    const temp = await Deno.makeTempDir({ prefix: "unfold-quick-start-" });
    try {
      const repo = await cloneRepo(temp);
      // The user's machine: its proxy and certificates, a Deno cache of nothing. The upstreams of
      // the example config do not get DENO_DIR (a stdio server gets the SDK's default environment),
      // so they come from the user's usual cache, as in the host snippet's test.
      const env: Record<string, string> = {
        ...Object.fromEntries(
          [...PASSED_ENV_VARS, "HOME", "PATH"].flatMap((name) => {
            const value = Deno.env.get(name);
            return value === undefined ? [] : [[name, value]];
          }),
        ),
        DENO_NO_UPDATE_CHECK: "1",
        DENO_DIR: `${temp}/cache`,
        UNFOLD_CACHE_DIR: `${temp}/unfold-cache`,
      };
      const started = performance.now();
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["task", "unfold", ...found[1]!.split(/\s+/)],
        cwd: repo,
        env,
        clearEnv: true,
        stdout: "piped",
        stderr: "piped",
      }).output();
      const seconds = (performance.now() - started) / 1000;
      const stdout = new TextDecoder().decode(out.stdout);
      ok(out.success, new TextDecoder().decode(out.stderr).slice(-2_000));
      ok(/everything\s+ready/.test(stdout), stdout.slice(0, 1_000));
      const cache = await bytesUnder(`${temp}/cache`);
      const modules = await bytesUnder(`${repo}/node_modules`);
      console.log(
        `quick start: inspect took ${seconds.toFixed(1)} s; fetched ${
          (cache / 1e6).toFixed(1)
        } MB into DENO_DIR and ${(modules / 1e6).toFixed(1)} MB into node_modules`,
      );
      ok(cache + modules <= MAX_FETCHED_BYTES, `fetched ${cache + modules} bytes`);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});
