import { equal, match } from "node:assert/strict";
import { startDenoServer } from "./_processes.ts";
import { runScenario, TOKENS } from "./_scenario.ts";

Deno.test("deno task start serves the whole-session scenario with in-memory sessions", async () => {
  const server = await startDenoServer({ UNFOLD_API_TOKEN: TOKENS.join(",") });
  try {
    match(
      server.output(),
      /try: curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/route -H 'authorization: Bearer <token>'/,
    );
    await runScenario((path, init) => fetch(`${server.url}${path}`, init), "deno-scenario");
    const health = await fetch(`${server.url}/healthz`);
    equal((await health.json()).ok, true);
  } finally {
    await server.close();
  }
});
