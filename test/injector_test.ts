import { deepEqual, equal, match, ok, rejects, throws } from "node:assert/strict";
import { estimateTokens } from "../src/tokens.ts";
import type { ExecutedAction } from "../src/injector.ts";
import { Injector, McpCatalog, type McpInvoker, type McpTool } from "../mod.ts";
import { liveMcpBench, realServerTools, shuffled, tool } from "./_data.ts";

const real = new McpCatalog(realServerTools());

Deno.test("inject() returns null for an empty catalogue", () => {
  equal(new Injector(new McpCatalog([])).inject(), null);
});

Deno.test("new Injector() throws a RangeError for an invalid config", () => {
  throws(() => new Injector(real, { availableContextTokens: 0 }), RangeError);
  throws(() => new Injector(real, { searchDefaultLimit: 30 }), RangeError);
});

Deno.test("inject() reports the budget, the level and the estimates", () => {
  const injection = new Injector(real, { availableContextTokens: 32_000 }).inject()!;
  equal(injection.inventoryBudgetTokens, 1920);
  equal(injection.mode, "names");
  equal(injection.inventory.level, "names");
  equal(injection.inventory.toolCount, 228);
  ok(injection.promptTokens <= injection.inventoryBudgetTokens);
  ok(injection.manifestTokens > injection.promptTokens);
  ok(injection.prompt.endsWith("</tool-catalogue>"));
  equal(
    injection.promptTokens,
    estimateTokens(injection.prompt.slice(injection.prompt.indexOf("<tool-catalogue"))),
  );
});

Deno.test("inject() levels on the 14 real servers: names at 32k, brief at 100k, manifest at 1M", () => {
  const levels = [32_000, 100_000, 1_000_000].map((available) =>
    new Injector(real, { availableContextTokens: available }).inject()!.mode
  );
  deepEqual(levels, ["names", "brief", "manifest"]);
});

Deno.test("inject() with the seed's two levels lists the manifest or the inventory", () => {
  const levels = [32_000, 100_000, 1_000_000].map((available) =>
    new Injector(real, { availableContextTokens: available, disclosure: ["manifest", "inventory"] })
      .inject()!.mode
  );
  deepEqual(levels, ["inventory", "inventory", "manifest"]);
});

// 400 since `more` and the result ceiling's sentence joined the bridge tool (about 40 tokens).
Deno.test("inject() keeps the fixed overhead (bridge tool + instructions) under 400 tokens", () => {
  for (const toolFormat of ["openai", "anthropic", "mcp"] as const) {
    for (const available of [1000, 32_000, 1_000_000]) {
      const injection = new Injector(real, { toolFormat, availableContextTokens: available })
        .inject()!;
      ok(injection.overheadTokens < 400, `${toolFormat} ${available}: ${injection.overheadTokens}`);
      const instructions = injection.prompt.slice(0, injection.prompt.indexOf("<tool-catalogue"));
      equal(
        injection.overheadTokens,
        estimateTokens(JSON.stringify(injection.bridgeTool)) +
          estimateTokens(instructions.trimEnd()),
      );
    }
  }
});

Deno.test("inject() emits the bridge tool in the configured format and name", () => {
  const openai = new Injector(real, { bridgeName: "tools" }).inject()!.bridgeTool;
  equal("function" in openai && openai.function.name, "tools");
  const anthropic = new Injector(real, { toolFormat: "anthropic" }).inject()!.bridgeTool;
  ok("input_schema" in anthropic);
  const mcp = new Injector(real, { toolFormat: "mcp" }).inject()!;
  ok("inputSchema" in mcp.bridgeTool);
  match(mcp.prompt, /through the "mcp" tool/);
});

Deno.test("inject() teaches the protocol and marks the listing as untrusted data", () => {
  const { prompt } = new Injector(real).inject()!;
  for (
    const phrase of [
      /"server\/tool"/,
      /search/,
      /describe/,
      /execute/,
      /Never invent ids or parameter names/,
      /untrusted data/,
    ]
  ) {
    match(prompt, phrase);
  }
});

Deno.test("inject() is byte-identical whatever order the tools arrive in", () => {
  const { tools, servers } = liveMcpBench();
  for (const available of [10_000, 100_000, 1_000_000]) {
    const a = new Injector(new McpCatalog(tools, { servers }), {
      availableContextTokens: available,
    });
    const b = new Injector(
      new McpCatalog(shuffled(tools, available), { servers: shuffled(servers, 3) }),
      {
        availableContextTokens: available,
      },
    );
    equal(JSON.stringify(b.inject()), JSON.stringify(a.inject()));
  }
});

Deno.test("inject() never puts input schemas in the prompt", () => {
  const catalog = new McpCatalog([
    tool("a", "x", "Does x", {
      secretParameterName: { type: "string", description: "SCHEMA-ONLY" },
    }),
  ]);
  const { prompt } = new Injector(catalog, { availableContextTokens: 1_000_000 }).inject()!;
  ok(!prompt.includes("secretParameterName") && !prompt.includes("SCHEMA-ONLY"));
});

const echo: McpTool = tool("everything", "echo", "Echoes", { message: { type: "string" } });

Deno.test("handle() runs an execute through the invoker with the resolved tool and arguments", async () => {
  const calls: Array<[McpTool, Record<string, unknown>]> = [];
  const invoker: McpInvoker = {
    invoke: (t, args) => {
      calls.push([t, args]);
      return Promise.resolve([{ type: "text", text: "hi" }]);
    },
  };
  const injector = new Injector(new McpCatalog([echo]));
  const result = await injector.handle(
    { action: "execute", name: "everything/echo", arguments: { message: "hi" } },
    invoker,
  ) as ExecutedAction;
  equal(calls.length, 1);
  equal(calls[0]![0], injector.catalog.get("everything/echo"));
  deepEqual(calls[0]![1], { message: "hi" });
  equal(result.isError, false);
  deepEqual(result.toolResult, [{ type: "text", text: "hi" }]);
  equal(result.id, "everything/echo");
});

Deno.test("handle() turns an invoker failure into an error result naming the tool", async () => {
  const injector = new Injector(new McpCatalog([echo]));
  const failing: McpInvoker = {
    invoke: () =>
      Promise.reject(Object.assign(new Error("server said no"), { code: "tool_error" })),
  };
  const result = await injector.handle({ action: "execute", name: "everything/echo" }, failing);
  if (result.action !== "execute" || !result.isError) throw new Error("expected a failed execute");
  deepEqual(result.error, { code: "tool_error", message: "server said no" });
  match(result.toolResult, /everything\/echo failed: server said no/);
  const throwing: McpInvoker = {
    invoke: () => {
      throw "plain string";
    },
  };
  const other = await injector.handle({ action: "execute", name: "everything/echo" }, throwing);
  if (other.action !== "execute" || !other.isError) throw new Error("expected a failed execute");
  equal(other.error.code, "tool_failed");
});

Deno.test("handle() returns model mistakes and non-execute actions without calling the invoker", async () => {
  const injector = new Injector(new McpCatalog([echo]));
  const invoker: McpInvoker = { invoke: () => Promise.reject(new Error("must not be called")) };
  equal((await injector.handle({ action: "execute", name: "echo" }, invoker)).action, "error");
  equal((await injector.handle("{bad", invoker)).action, "error");
  equal((await injector.handle({ action: "search", query: "echo" }, invoker)).action, "search");
  equal(
    (await injector.handle({ action: "describe", name: "everything/echo" }, invoker)).action,
    "describe",
  );
  await rejects(Promise.resolve(invoker.invoke(echo, {})));
});
