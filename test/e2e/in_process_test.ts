import { createApp } from "../../src/http/app.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { runScenario, TOKENS } from "./_scenario.ts";

Deno.test("the whole-session scenario passes in-process against the app with a memory store", async () => {
  const app = createApp({ store: new MemorySessionStore(), settings: { tokens: [...TOKENS] } });
  await runScenario((path, init) => Promise.resolve(app.request(path, init)), "scenario-1");
});
