import { deepEqual, equal, ok } from "node:assert/strict";
import { estimateTokens } from "../../src/tokens.ts";
import { connectStdio } from "../../src/mcp/stdio.ts";
import { cliCommand, writeConfig } from "../gateway/_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";
import { formatReport, inspectCatalog, type InspectReport } from "../../src/cli/inspect.ts";
import { McpCatalog } from "../../src/catalog.ts";

Deno.test("inspect --json counts what the SDK lists and the library estimates", async () => {
  const { path, dir } = await writeConfig();
  try {
    const { command, args } = cliCommand("inspect", "--config", path, "--json");
    const output = await new Deno.Command(command, { args, env: denoEnv(), stderr: "piped" })
      .output();
    equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const report = JSON.parse(new TextDecoder().decode(output.stdout)) as InspectReport;
    const stderr = new TextDecoder().decode(output.stderr);
    for (const server of ["everything", "filesystem", "memory"]) {
      ok(stderr.includes(`unfold: ${server}: ready, `), stderr);
    }
    const config = JSON.parse(await Deno.readTextFile(path));
    let all = 0;
    for (const inspected of report.servers) {
      // The same server, listed directly by the SDK client.
      const direct = await connectStdio({
        server: inspected.server,
        ...config.mcpServers[inspected.server],
      });
      try {
        const tools = await direct.tools();
        equal(inspected.tools, tools.length, inspected.server);
        const tokens = tools.reduce(
          (sum, { server: _, ...definition }) => sum + estimateTokens(JSON.stringify(definition)),
          0,
        );
        equal(inspected.definitionTokens, tokens, inspected.server);
        all += tokens;
      } finally {
        await direct.close();
      }
    }
    equal(report.definitionTokens, all);
    deepEqual(report.budgets.map((b) => b.availableContextTokens), [
      8_000,
      32_000,
      128_000,
      200_000,
      1_000_000,
    ]);
    for (const budget of report.budgets) {
      equal(budget.costTokens, budget.toolTokens + budget.instructionTokens);
      equal(budget.savingTokens, all - budget.costTokens);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("inspect shows a lazy server that is not running as stopped until called, not as failed or lost", () => {
  const catalog = new McpCatalog([
    { server: "memory", name: "read_graph", description: "Reads", inputSchema: { type: "object" } },
  ]);
  const report = inspectCatalog(catalog, [{
    server: "memory",
    state: "stopped",
    tools: 1,
    snapshot: true,
  }], { pinned: [] });
  equal(report.servers[0]!.state, "stopped");
  const row = formatReport(report).split("\n").find((line) => line.startsWith("memory"));
  ok(row !== undefined && /^memory\s+stopped until called\s+1\s/.test(row), row);
});

Deno.test("inspect says the result ceiling at each context size: derived, or the config's", () => {
  const catalog = new McpCatalog([
    { server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } },
  ]);
  const statuses = [{ server: "a", state: "ready" as const, tools: 1 }];
  const derived = inspectCatalog(catalog, statuses, { pinned: [] });
  deepEqual(derived.budgets.map((b) => b.resultCeilingTokens), [
    1_000,
    3_200,
    12_800,
    20_000,
    25_000,
  ]);
  const none = inspectCatalog(catalog, statuses, { pinned: [], maxResultTokens: 0 });
  ok(none.budgets.every((b) => b.resultCeilingTokens === 0));
  ok(formatReport(none).includes("result ceiling"));
  ok(/ none$/m.test(formatReport(none)), formatReport(none));
});
