import { createApp } from "../../src/http/app.ts";
import { DEFAULT_SETTINGS } from "../../src/http/settings.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { RESULT_TOKENS, runResultsScenario } from "./_results_scenario.ts";

Deno.test("/v1/route and /v1/result keep every answer within its ceiling, in-process as deno task start builds the app", async () => {
  // The app as src/deno/serve.ts makes it: a memory store with the deployment's bounds.
  const settings = { ...DEFAULT_SETTINGS, tokens: [...RESULT_TOKENS] };
  const store = new MemorySessionStore({
    ttlSeconds: settings.sessionTtlSeconds,
    maxSessions: settings.maxSessions,
    maxKeptBytesPerSession: settings.maxKeptBytes,
  });
  const app = createApp({ store, settings });
  await runResultsScenario((path, init) => Promise.resolve(app.request(path, init)), "results-1");
});
