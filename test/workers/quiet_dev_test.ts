// deno task dev (wrangler dev) starts and serves without a warning: no Request.cf lookup (no
// network call, no fallback warning offline), no usage-metrics notice.
import { deepEqual, equal } from "node:assert/strict";
import { startWrangler } from "../e2e/_processes.ts";
import { tool } from "../_data.ts";

// wrangler's lines that are warnings or notices, whatever their form ("[wrangler:warn]",
// "▲ [WARNING]", a telemetry banner, a Request.cf fallback); deno task's echo of the command, which
// names the settings, is no warning.
function warnings(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, "");
  return plain.split("\n").filter((line) =>
    /warn|Request\.cf|telemetry|metrics|deprecat/i.test(line) && !line.startsWith("Task dev ")
  );
}

Deno.test("deno task dev serves the API Worker without a wrangler warning on its output", async () => {
  const worker = await startWrangler("wrangler.toml");
  try {
    equal((await fetch(`${worker.url}/healthz`)).status, 200);
    const page = await fetch(`${worker.url}/`);
    equal(page.status, 200);
    await page.body?.cancel();
    const search = await fetch(`${worker.url}/v1/route`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        catalog: [tool("demo", "echo", "Echo")],
        arguments: { action: "search", query: "echo" },
        session: "quiet",
      }),
    });
    equal(search.status, 200, await search.clone().text());
    equal((await search.json()).action, "search");
    // The session's Durable Object answers too.
    equal((await fetch(`${worker.url}/v1/sessions/quiet`)).status, 200);
  } finally {
    await worker.close();
  }
  deepEqual(warnings(worker.output()), []);
});
