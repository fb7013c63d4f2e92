import { equal, ok } from "node:assert/strict";

Deno.test("the Worker bundles with wrangler deploy --dry-run, well under the Workers size limit", async () => {
  const outdir = await Deno.makeTempDir({ prefix: "unfold-bundle-" });
  try {
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "npm:wrangler@^4.164.0", "deploy", "--dry-run", "--outdir", outdir],
      cwd: new URL("../../", import.meta.url).pathname,
      env: { WRANGLER_SEND_METRICS: "false", CI: "true" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const log = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
    equal(code, 0, log);
    const bundle = await Deno.readFile(`${outdir}/entry.js`);
    const gzip = await new Response(
      new Blob([bundle]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer();
    // The free plan allows 3 MiB gzipped; stay far below.
    ok(gzip.byteLength < 1024 * 1024, `gzip ${gzip.byteLength} bytes`);
    ok(log.includes("SESSIONS"), log);
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
});
