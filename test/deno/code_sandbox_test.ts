import { deepEqual, equal } from "node:assert/strict";
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

const catalog = new McpCatalog(CONTRACT_TOOLS);
const injector = new Injector(catalog, {
  codeMode: "read-only",
  codeLimits: { timeoutMs: 30_000 },
});

Deno.test("a sandbox with a process started ahead keeps one waiting, fresh, until close()", async () => {
  const sandbox = new DenoSandbox({ prewarm: 1 });
  const invoker = { invoke: contractResult };
  try {
    for (const path of ["a", "b"]) {
      const answer = await injector.run(`return await call("fs/read", { path: "${path}" })`, {
        sandbox,
        invoker,
      }) as RunAnswer;
      equal(answer.result, `read:${path}`);
      // Counted by the sandbox: /proc shows a process just started as this one until it execs.
      equal(sandbox.processes, 1, "one process waits for the next run");
    }
  } finally {
    await sandbox.close();
  }
  equal(sandbox.processes, 0);
  equal(childProcessCount(), 0);
});

Deno.test("runs beyond maxProcesses wait for a process, and then run", async () => {
  const sandbox = new DenoSandbox({ maxProcesses: 1 });
  const release = Promise.withResolvers<void>();
  const entered = Promise.withResolvers<void>();
  const invoker = {
    invoke: async (tool: McpTool, args: Record<string, unknown>) => {
      entered.resolve();
      await release.promise;
      return contractResult(tool, args);
    },
  };
  const first = injector.run(`return await call("fs/read", { path: "1" })`, { sandbox, invoker });
  await entered.promise;
  const second = injector.run("return 2", { sandbox, invoker });
  equal(sandbox.processes, 1, "the second run waits for the first one's process");
  release.resolve();
  deepEqual([((await first) as RunAnswer).result, ((await second) as RunAnswer).result], [
    "read:1",
    2,
  ]);
  equal(childProcessCount(), 0);
});

Deno.test("a process started ahead keeps no parent alive: the parent exits, and so does it", async () => {
  const program = `
    import { DenoSandbox } from ${
    JSON.stringify(new URL("../../src/deno/code_sandbox.ts", import.meta.url).href)
  };
    import { Injector, McpCatalog } from ${
    JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
  };
    const injector = new Injector(new McpCatalog([]), { codeMode: "all" });
    const answer = await injector.run("return 7", { sandbox: new DenoSandbox({ prewarm: 1 }) });
    console.log(answer.result);
  `;
  const parent = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--node-modules-dir=auto", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = parent.stdin.getWriter();
  await writer.write(new TextEncoder().encode(program));
  await writer.close();
  const { code, stdout, stderr } = await parent.output();
  equal(code, 0, new TextDecoder().decode(stderr));
  equal(new TextDecoder().decode(stdout).trim(), "7");
  equal(childProcessCount(), 0);
});
