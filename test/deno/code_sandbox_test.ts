import { Injector, McpCatalog, type McpTool, type RunAnswer } from "../../mod.ts";
import { DenoSandbox } from "../../src/deno/code_sandbox.ts";
import {
  childProcessCount,
  CONTRACT_TOOLS,
  contractResult,
  HELD,
  sandboxContract,
} from "../_contracts/sandbox_contract.ts";

// The Deno sandbox, as the core runs it live: each call through an invoker (a held tool's
// invoker refuses, as the gateway's trust does).
sandboxContract("DenoSandbox, live through Injector.run", () => {
  const sandbox = new DenoSandbox();
  const catalog = new McpCatalog(CONTRACT_TOOLS);
  const invoker = {
    invoke: (tool: McpTool, args: Record<string, unknown>) => {
      const result = contractResult(tool, args);
      if (result === undefined) throw new Error(HELD);
      return result;
    },
  };
  return Promise.resolve({
    run: async (code, { mode, limits }) =>
      await new Injector(catalog, { codeMode: mode, codeLimits: limits }).run(code, {
        sandbox,
        invoker,
      }) as RunAnswer,
    leftover: () => Promise.resolve(childProcessCount()),
    close: () => Promise.resolve(),
  });
});
