import { equal, ok } from "node:assert/strict";
import { createApp } from "../../src/http/app.ts";
import { MAX_AVAILABLE_CONTEXT_TOKENS } from "../../src/config.ts";
import { MAX_LISTING_BYTES } from "../../src/disclosure.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { tool } from "../_data.ts";

const app = createApp({ store: new MemorySessionStore() });

function inject(body: unknown): Promise<Response> {
  return Promise.resolve(app.request("/v1/inject", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  }));
}

// The largest budget the API accepts: every tool may be listed, up to the listing caps.
const LARGEST_BUDGET = {
  availableContextTokens: MAX_AVAILABLE_CONTEXT_TOKENS,
  inventoryThresholdPercent: 100,
};

Deno.test("POST /v1/inject refuses a budget above the documented maximum as invalid_config", async () => {
  const catalog = [tool("s", "t", "T")];
  for (const tokens of [2 ** 53 - 1, MAX_AVAILABLE_CONTEXT_TOKENS + 1]) {
    const response = await inject({ catalog, budget: { availableContextTokens: tokens } });
    equal(response.status, 422);
    const problem = await response.json();
    equal(problem.code, "invalid_config");
    equal(problem.errors[0].pointer, "/budget/availableContextTokens");
  }
  const edge = await inject({
    catalog,
    budget: LARGEST_BUDGET,
  });
  equal(edge.status, 200);
  await edge.body?.cancel();
});

Deno.test("an inject response stays within 3 × MAX_LISTING_BYTES at the largest budget (no amplification)", async () => {
  // 1,000 tools with 4,000-character descriptions that escaping inflates: the manifest alone would
  // be 9 MB, 27 MB in the response (prompt, then inventory).
  const description = `Quotes. ${'"<‹\\'.repeat(998)}`;
  const catalog = Array.from({ length: 1000 }, (_, i) => tool(`s${i % 7}`, `t${i}`, description));
  const response = await inject({
    catalog,
    budget: LARGEST_BUDGET,
  });
  equal(response.status, 200);
  const text = await response.text();
  ok(text.length <= 3 * MAX_LISTING_BYTES + 64 * 1024, `${text.length} bytes`);
  const { injection } = JSON.parse(text);
  equal(injection.inventory.toolCount, 1000);
  ok(injection.manifestTokens > 2_000_000, "the manifest is measured, not listed");
});
