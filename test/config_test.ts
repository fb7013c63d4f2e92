import { deepEqual, equal, throws } from "node:assert/strict";
import {
  checkConfig,
  DEFAULT_CONFIG,
  DISCLOSURE_LEVELS,
  MAX_AVAILABLE_CONTEXT_TOKENS,
  resolveConfig,
} from "../src/config.ts";
import { estimateTokens } from "../src/tokens.ts";
import { InvalidConfigError } from "../mod.ts";

Deno.test("resolveConfig() returns the seed defaults", () => {
  const c = resolveConfig();
  equal(c.availableContextTokens, 100_000);
  equal(c.inventoryThresholdPercent, 6);
  equal(c.searchDefaultLimit, 5);
  equal(c.maxSearchLimit, 20);
  equal(c.bridgeName, "mcp");
  equal(c.toolFormat, "openai");
  deepEqual(c.disclosure, [...DISCLOSURE_LEVELS]);
  equal(c.estimateTokens, estimateTokens);
  equal(DEFAULT_CONFIG.maxDescriptionChars, 4000);
});

Deno.test("resolveConfig() keeps defaults for fields given as undefined", () => {
  const c = resolveConfig({ availableContextTokens: undefined } as never);
  equal(c.availableContextTokens, 100_000);
});

Deno.test("resolveConfig() rejects each out-of-range field with a RangeError naming it", () => {
  const bad: Array<[string, unknown]> = [
    ["availableContextTokens", 0],
    ["availableContextTokens", -5],
    ["availableContextTokens", 1.5],
    ["availableContextTokens", "100"],
    ["availableContextTokens", 10_000_001],
    ["availableContextTokens", 2 ** 53 - 1],
    ["inventoryThresholdPercent", 0],
    ["inventoryThresholdPercent", 100.1],
    ["inventoryThresholdPercent", Number.NaN],
    ["maxSearchLimit", 51],
    ["maxSearchLimit", 0],
    ["searchDefaultLimit", 21],
    ["searchDefaultLimit", 0],
    ["bridgeName", ""],
    ["bridgeName", "has space"],
    ["bridgeName", "x".repeat(65)],
    ["toolFormat", "gemini"],
    ["disclosure", []],
    ["disclosure", ["manifest", "manifest"]],
    ["disclosure", ["everything"]],
    ["estimateTokens", 4],
    ["maxDescriptionChars", 0],
    ["maxQueryChars", -1],
  ];
  for (const [field, value] of bad) {
    throws(
      () => resolveConfig({ [field]: value }),
      (e: unknown) => e instanceof RangeError && e.message.includes(`"${field}"`),
      `${field} = ${String(value)}`,
    );
  }
});

Deno.test("resolveConfig() accepts the edges of each range", () => {
  resolveConfig({ inventoryThresholdPercent: 100, availableContextTokens: 1 });
  resolveConfig({ availableContextTokens: MAX_AVAILABLE_CONTEXT_TOKENS });
  resolveConfig({ maxSearchLimit: 50, searchDefaultLimit: 50 });
  resolveConfig({ maxSearchLimit: 1, searchDefaultLimit: 1 });
  resolveConfig({ disclosure: ["inventory"], toolFormat: "mcp", bridgeName: "tools_2-x" });
});

Deno.test("resolveConfig() validates searchDefaultLimit against the given maxSearchLimit", () => {
  throws(() => resolveConfig({ maxSearchLimit: 3 }), /searchDefaultLimit.*maxSearchLimit \(3\)/);
});

Deno.test("resolveConfig() throws an InvalidConfigError that names the field", () => {
  throws(
    () => resolveConfig({ toolFormat: "gemini" as never }),
    (e: unknown) =>
      e instanceof InvalidConfigError && e instanceof RangeError && e.field === "toolFormat",
  );
});

Deno.test("checkConfig() answers a field out of range as a value naming it, and a valid one as the config", () => {
  const bad = checkConfig({ maxSearchLimit: 99 });
  equal(bad.ok, false);
  if (!bad.ok) {
    equal(bad.error.field, "maxSearchLimit");
    equal(
      bad.error.message,
      'Invalid config "maxSearchLimit": must be an integer from 1 to 50, got 99',
    );
  }
  const good = checkConfig({ availableContextTokens: 32_000 });
  equal(good.ok && good.value.availableContextTokens, 32_000);
});
