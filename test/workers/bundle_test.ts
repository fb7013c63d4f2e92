import { equal, ok } from "node:assert/strict";
import { runDeno } from "../_deno.ts";
import { gzipSize } from "../_gzip.ts";
import { WORKER_CEILINGS_KIB } from "./_budgets.ts";

for (const [config, ceilingKib] of Object.entries(WORKER_CEILINGS_KIB)) {
  Deno.test(`the Worker of ${config} bundles with wrangler deploy --dry-run, within ${ceilingKib} KiB gzip`, () =>
    bundles(config, ceilingKib));
}

async function bundles(config: string, ceilingKib: number): Promise<void> {
  const outdir = await Deno.makeTempDir({ prefix: "unfold-bundle-" });
  try {
    const { code, stdout, stderr } = await runDeno([
      "run",
      "-A",
      "--node-modules-dir=auto",
      "npm:wrangler@^4.164.0",
      "deploy",
      "--dry-run",
      "--config",
      config,
      "--outdir",
      outdir,
    ], { env: { WRANGLER_SEND_METRICS: "false", CI: "true" } });
    const log = stdout + stderr;
    equal(code, 0, log);
    const toml = await Deno.readTextFile(new URL(`../../${config}`, import.meta.url));
    // Bundled through the packages' public entry points: no alias into a dependency's files.
    ok(!/^\[alias\]/m.test(toml), `${config} aliases modules`);
    const main = toml.match(/^main = "src\/workers\/(\w+)\.ts"$/m)?.[1];
    const bundle = await Deno.readFile(`${outdir}/${main}.js`);
    const gzip = await gzipSize(bundle);
    ok(
      gzip <= ceilingKib * 1024,
      `${config}: ${(gzip / 1024).toFixed(2)} KiB gzip, over its ceiling of ${ceilingKib} KiB; ` +
        "see docs/workers.md for what the bundle holds",
    );
    ok(log.includes("SESSIONS"), log);
    // The MCP SDK is the gateway's alone: the API Worker bundles none of it.
    const text = new TextDecoder().decode(bundle);
    equal(text.includes('"Request timed out"'), main === "gateway_entry", `${config}: the MCP SDK`);
    // The page is static assets ([assets] in the config), never part of the script.
    ok(!text.includes("unfold.token"), "the page's script is bundled");
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}
