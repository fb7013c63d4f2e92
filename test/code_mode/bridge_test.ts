import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { Injector, McpCatalog } from "../../mod.ts";
import type { OpenAiTool } from "../../src/bridge/tool.ts";
import { checkConfig, InvalidConfigError } from "../../src/config.ts";
import { codeLimits, DEFAULT_CODE_LIMITS } from "../../src/code_mode/limits.ts";
import { CONTRACT_TOOLS } from "../_contracts/sandbox_contract.ts";

const catalog = new McpCatalog(CONTRACT_TOOLS);
const bridge = (codeMode?: "off" | "read-only" | "all") =>
  (new Injector(catalog, codeMode === undefined ? {} : { codeMode }).inject()!
    .bridgeTool as OpenAiTool)
    .function;

Deno.test("the bridge offers run, and says so, only when code mode is on", () => {
  for (const mode of [undefined, "off"] as const) {
    const tool = bridge(mode);
    equal(tool.description.includes("run:"), false);
    const properties = tool.parameters.properties as Record<string, { enum?: string[] }>;
    deepEqual(properties.action!.enum, ["search", "describe", "execute", "more"]);
    equal("code" in properties, false);
  }
  const on = bridge("read-only");
  match(on.description, /run: JavaScript code/);
  match(on.description, /only read-only tools/);
  const properties = on.parameters.properties as Record<string, { enum?: string[] }>;
  deepEqual(properties.action!.enum, ["search", "describe", "execute", "more", "run"]);
  ok("code" in properties);
  equal(bridge("all").description.includes("read-only tools"), false);
});

Deno.test("the core and its bridge default to code mode off: run is an unknown action", () => {
  const action = new Injector(catalog).route({ action: "run", code: "return 1" });
  equal(action.action, "error");
  equal(action.action === "error" && action.code, "invalid_arguments");
});

Deno.test("with code mode on, script() gives the run, and route() asks for its code", () => {
  const injector = new Injector(catalog, { codeMode: "all" });
  deepEqual(injector.script('{"action":"run","code":"return 1"}'), {
    action: "run",
    code: "return 1",
  });
  equal(injector.script({ action: "search", query: "read" }), undefined);
  equal(new Injector(catalog).script({ action: "run", code: "return 1" }), undefined);
  const missing = injector.route({ action: "run" });
  equal(missing.action === "error" && missing.code, "invalid_arguments");
  match(missing.action === "error" ? missing.message : "", /"code" is required for run/);
  // A host that routes a run without running scripts tells the model to do without.
  const unrun = injector.route({ action: "run", code: "return 1" });
  match(unrun.action === "error" ? unrun.message : "", /this host runs no scripts/);
});

Deno.test("describe adds the tool's declaration for code only when code mode is on", () => {
  const off = new Injector(catalog).route({ action: "describe", name: "fs/read" });
  const on = new Injector(catalog, { codeMode: "read-only" }).route({
    action: "describe",
    name: "fs/read",
  });
  equal(off.action === "describe" && off.toolResult.includes("For code:"), false);
  match(
    on.action === "describe" ? on.toolResult : "",
    /\nFor code: await call\("fs\/read", args: \{ path: string \}\): Promise<string \| unknown\[\]>$/,
  );
});

Deno.test("codeMode and codeLimits are checked with the configuration", () => {
  const mode = checkConfig({ codeMode: "yes" as never });
  equal(mode.ok ? "" : mode.error.field, "codeMode");
  const bound = checkConfig({ codeLimits: { timeoutMs: 10 } });
  equal(bound.ok ? "" : bound.error.field, "codeLimits");
  match(bound.ok ? "" : bound.error.message, /"timeoutMs" must be an integer from 100 to 600000/);
  const unknown = checkConfig({ codeLimits: { timeout: 1000 } as never });
  match(unknown.ok ? "" : unknown.error.message, /has no bound "timeout"/);
  throws(() => new Injector(catalog, { codeLimits: { maxCalls: 0 } }), InvalidConfigError);
  const checked = checkConfig({ codeMode: "all", codeLimits: { maxCalls: 7 } });
  equal(checked.ok && codeLimits(checked.value.codeLimits).maxCalls, 7);
  equal(
    checked.ok && codeLimits(checked.value.codeLimits).timeoutMs,
    DEFAULT_CODE_LIMITS.timeoutMs,
  );
});
