import { equal } from "node:assert/strict";
import { startWrangler } from "./_processes.ts";
import { runScenario, TOKENS } from "./_scenario.ts";
import { assertGuardPolicy, GUARD_TOKEN, LISTED_ORIGIN } from "../http/_guard_cases.ts";
import { assertServesPage } from "../page/_served.ts";

Deno.test("the Worker in wrangler dev (workerd + Durable Objects) serves the whole-session scenario", async () => {
  const worker = await startWrangler("wrangler.toml", {
    UNFOLD_API_TOKEN: [...TOKENS, GUARD_TOKEN].join(","),
    UNFOLD_ALLOWED_ORIGINS: LISTED_ORIGIN,
  });
  try {
    await runScenario((path, init) => fetch(`${worker.url}${path}`, init), "worker-scenario");
    // The one origin and token policy of every face.
    await assertGuardPolicy(
      (headers) => fetch(`${worker.url}/v1/sessions/guard-probe`, { headers }),
      worker.url,
    );
    const health = await fetch(`${worker.url}/healthz`);
    equal((await health.json()).version, "0.1.0");
    // The page is static assets: served before the Worker, outside its script bundle.
    await assertServesPage(worker.url);
    equal((await (await fetch(`${worker.url}/status`)).json()).face, "api");
  } finally {
    await worker.close();
  }
});
