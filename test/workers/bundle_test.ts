import { equal, ok } from "node:assert/strict";
import { runDeno } from "../_deno.ts";
import { gzipSize } from "../_gzip.ts";
import { WORKER_SIZES } from "./_budgets.ts";

for (const [config, size] of Object.entries(WORKER_SIZES)) {
  Deno.test(`the Worker of ${config} bundles with wrangler deploy --dry-run, within ${size.budgetKib} KiB gzip`, () =>
    bundles(config));
}

async function bundles(config: string): Promise<void> {
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
    const main = (await Deno.readTextFile(new URL(`../../${config}`, import.meta.url)))
      .match(/^main = "src\/workers\/(\w+)\.ts"$/m)?.[1];
    const bundle = await Deno.readFile(`${outdir}/${main}.js`);
    const gzip = await gzipSize(bundle);
    const { budgetKib, targetKib } = WORKER_SIZES[config]!;
    ok(
      gzip <= budgetKib * 1024,
      `${config}: ${(gzip / 1024).toFixed(2)} KiB gzip, over its budget of ${budgetKib} KiB ` +
        `(target ${targetKib}); see docs/performance.md for what the bundle holds`,
    );
    ok(log.includes("SESSIONS"), log);
    // The MCP SDK's protocol core (its timeout message written once) is in the gateway once, and
    // not in the API Worker: exactly, so that a renamed message cannot pass unseen.
    const text = new TextDecoder().decode(bundle);
    const copies = text.split('"Request timed out"').length - 1;
    equal(copies, main === "gateway_entry" ? 1 : 0, `${config}: copies of the MCP SDK's core`);
    // The SDK's code the gateway can never run stands in (src/workers/_mcp_standins.ts): neither
    // the client's OAuth flow (its grant) nor McpServer (its registrations' errors) is bundled.
    for (const word of ['"authorization_code"', "is already registered"]) {
      ok(!text.includes(word), `${config} bundles ${word}`);
    }
    // The page is static assets ([assets] in the config), never part of the script.
    ok(!text.includes("unfold.token"), "the page's script is bundled");
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}
