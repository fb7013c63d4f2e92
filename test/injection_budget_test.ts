import { equal, match, ok } from "node:assert/strict";
import { Injector, McpCatalog } from "../mod.ts";
import { MemorySessionStore } from "../src/session/mod.ts";
import { createApp } from "../src/http/mod.ts";
import { realServerTools } from "./_data.ts";

const real = new McpCatalog(realServerTools());

Deno.test("inject() says so when the budget is too small even for the inventory", () => {
  // 6 % of 500 tokens: 30 tokens, less than the 14 servers' inventory.
  const injection = new Injector(real, { availableContextTokens: 500 }).inject()!;
  equal(injection.mode, "inventory");
  ok(injection.promptTokens > injection.inventoryBudgetTokens);
  equal(
    injection.budgetWarning,
    `Over budget: the smallest catalogue listing (inventory) costs ${injection.promptTokens} ` +
      "tokens, the listing budget is 30 (6 % of 500 available tokens); it is listed anyway. " +
      "Raise availableContextTokens or inventoryThresholdPercent to stay within budget",
  );
  ok(!injection.budgetWarning.includes("\n"), "one line");
});

Deno.test("inject() has no budgetWarning when a level fits, the inventory included", () => {
  for (const available of [2_000, 32_000, 1_000_000]) {
    const injection = new Injector(real, { availableContextTokens: available }).inject()!;
    ok(injection.promptTokens <= injection.inventoryBudgetTokens, String(available));
    equal("budgetWarning" in injection, false, String(available));
  }
});

Deno.test("POST /v1/inject returns the budget warning to an HTTP host", async () => {
  const app = createApp({ store: new MemorySessionStore() });
  const response = await app.request("/v1/inject", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ catalog: real.tools, budget: { availableContextTokens: 500 } }),
  });
  equal(response.status, 200);
  const { injection } = await response.json();
  match(injection.budgetWarning, /^Over budget: .* it is listed anyway/);
});
