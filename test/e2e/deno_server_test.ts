import { equal, match } from "node:assert/strict";
import { startDenoServer } from "./_processes.ts";
import { runScenario, TOKENS } from "./_scenario.ts";
import { assertGuardPolicy, GUARD_TOKEN, LISTED_ORIGIN } from "../http/_guard_cases.ts";
import { realServerTools } from "../_data.ts";

Deno.test("deno task start serves the whole-session scenario with in-memory sessions", async () => {
  const server = await startDenoServer({
    UNFOLD_API_TOKEN: [...TOKENS, GUARD_TOKEN].join(","),
    UNFOLD_ALLOWED_ORIGINS: LISTED_ORIGIN,
  });
  try {
    match(
      server.output(),
      /try: `curl -s http:\/\/127\.0\.0\.1:\d+\/v1\/route -H 'authorization: Bearer <token>'/,
    );
    await runScenario((path, init) => fetch(`${server.url}${path}`, init), "deno-scenario");
    // The one origin and token policy of every face.
    await assertGuardPolicy(
      (headers) => fetch(`${server.url}/v1/sessions/guard-probe`, { headers }),
      server.url,
    );
    const health = await fetch(`${server.url}/healthz`);
    equal((await health.json()).ok, true);
  } finally {
    await server.close();
  }
});

Deno.test("deno task start searches with word vectors: a request in none of the tools' words finds its tool", async () => {
  const server = await startDenoServer();
  try {
    const tools = realServerTools().filter((t) =>
      ["filesystem", "memory", "everything"].includes(t.server)
    );
    const response = await fetch(`${server.url}/v1/route`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        catalog: tools,
        arguments: { action: "search", query: "put this document somewhere else" },
      }),
    });
    const body = await response.json();
    equal(response.status, 200, JSON.stringify(body));
    equal(body.matches[0]?.id, "filesystem/move_file", JSON.stringify(body.matches));
  } finally {
    await server.close();
  }
});
