// Each mistake a person setting the gateway up makes gets one clear line and its exit code.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { McpCatalog } from "../../src/catalog.ts";
import { formatReport, inspectCatalog } from "../../src/cli/inspect.ts";
import { type CliRun, runCli } from "../gateway/_gateway.ts";
import { npmServer } from "../mcp/_servers.ts";

function run(...args: string[]): Promise<CliRun> {
  return runCli(args);
}

async function withConfig(
  config: unknown,
  use: (path: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold-mistakes-" });
  try {
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config));
    await use(`${dir}/mcp.json`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// A mistyped key in the unfold block gets one line naming the key it meant (one in a server
// entry is that server's: below).
const MISTYPED = [
  {
    where: "an unfold block",
    config: { mcpServers: {}, unfold: { strat: "lazy" } },
    line: /Invalid gateway config at "\/unfold\/strat": unknown field: did you mean "start"\?\n$/,
  },
];
for (const { where, config, line } of MISTYPED) {
  Deno.test(`${where}'s mistyped key is answered with the key it meant, exit 1`, async () => {
    await withConfig(config, async (path) => {
      const { code, stdout, stderr } = await run("inspect", "--config", path);
      equal(code, 1);
      equal(stdout, "");
      equal(stderr.trim().split("\n").length, 1, stderr);
      match(stderr, line);
    });
  });
}

Deno.test("a server entry's mistyped key makes it unavailable, named once with the key it meant", async () => {
  await withConfig({ mcpServers: { fs: { comand: "npx", args: [] } } }, async (path) => {
    const { code, stdout, stderr } = await run("inspect", "--config", path);
    equal(code, 0, stderr);
    equal(
      stderr,
      'unfold: fs: unavailable (its entry is invalid at /mcpServers/fs/comand: unknown field: did you mean "command"?; correct it in the config, then start unfold again)\n',
    );
    match(stdout, /\nfs +unavailable \(below\) /);
  });
});

Deno.test("--port without --http is a usage error, exit 2", async () => {
  const { code, stdout, stderr } = await run("gateway", "--config", "x.json", "--port", "9000");
  equal(code, 2);
  equal(stdout, "");
  match(stderr, /^unfold: --port needs --http \(without it the gateway serves stdio\)\n/);
});

Deno.test("unfold search with no match prints the bridge's miss text and exits 1", async () => {
  const config = { mcpServers: { memory: npmServer("@modelcontextprotocol/server-memory") } };
  await withConfig(config, async (path) => {
    const { code, stdout, stderr } = await run("search", "--config", path, "zzqx vbnmk");
    equal(code, 1, stderr);
    match(stdout, /^No tool matches the query\. The catalogue has these servers:\n/);
    match(stdout, /\nmemory: 9 tools\n/);
    match(stdout, /\nNext: /);
  });
});

// Lazy without a snapshot lists each server once and stops it: that listing is live, so a wrong
// pin is as sure as under eager (it used to pass in silence, the server being stopped).
for (const start of ["eager", "lazy"] as const) {
  Deno.test(`${start}: a pinned id that the server's listing lacks is a config error naming the closest id, exit 1`, async () => {
    const config = {
      mcpServers: { memory: npmServer("@modelcontextprotocol/server-memory") },
      unfold: { start, pinned: ["memory/read_grap"] },
    };
    await withConfig(config, async (path) => {
      const { code, stdout, stderr } = await run("inspect", "--config", path);
      equal(code, 1, stderr);
      equal(stdout, "");
      match(
        stderr,
        /\nunfold: \S+mcp\.json: Invalid gateway config at "\/unfold\/pinned\/0": the server "memory" has no tool "read_grap"; the closest id is "memory\/read_graph"\n/,
      );
    });
  });
}

Deno.test("a profile's own pinned id that the server lacks is a config error at its place, exit 1", async () => {
  const config = {
    mcpServers: { memory: npmServer("@modelcontextprotocol/server-memory") },
    unfold: { profiles: { work: { servers: ["memory"], pinned: ["memory/read_grap"] } } },
  };
  await withConfig(config, async (path) => {
    const { code, stdout, stderr } = await run("inspect", "--config", path, "--profile", "work");
    equal(code, 1, stderr);
    equal(stdout, "");
    match(
      stderr,
      /\nunfold: \S+mcp\.json: Invalid gateway config at "\/unfold\/profiles\/work\/pinned\/0": the server "memory" has no tool "read_grap"; the closest id is "memory\/read_graph"\n/,
    );
  });
});

Deno.test("inspect adds a row for the config's own availableContextTokens, marked", () => {
  const catalog = new McpCatalog([
    { server: "s", name: "t", description: "A tool", inputSchema: { type: "object" } },
  ]);
  const statuses = [{ server: "s", state: "ready" as const, tools: 1 }];
  const report = inspectCatalog(catalog, statuses, {
    pinned: [],
    availableContextTokens: 50_000,
  });
  deepEqual(
    report.budgets.map((b) => [b.availableContextTokens, b.configured ?? false]),
    [[8_000, false], [32_000, false], [50_000, true], [128_000, false], [200_000, false], [
      1_000_000,
      false,
    ]],
  );
  ok(formatReport(report).includes("\n50,000 (config)  "), formatReport(report));
  const listed = inspectCatalog(catalog, statuses, { pinned: [], availableContextTokens: 200_000 });
  equal(listed.budgets.length, 5);
  deepEqual(listed.budgets.filter((b) => b.configured).map((b) => b.availableContextTokens), [
    200_000,
  ]);
});

Deno.test("inspect lists tools not approved in its report only, not once more on stderr", async () => {
  const config = { mcpServers: { memory: npmServer("@modelcontextprotocol/server-memory") } };
  await withConfig(config, async (path) => {
    const { code, stdout, stderr } = await run("inspect", "--config", path);
    equal(code, 0, stderr);
    match(stdout, /\n {2}memory\/read_graph: new\n/);
    ok(!stderr.includes("approved"), stderr);
    equal(stderr.trim().split("\n").length, 1, stderr);
  });
});

Deno.test("a --port out of range is a usage error, exit 2", async () => {
  const { code, stdout, stderr } = await run(
    "gateway",
    "--config",
    "x.json",
    "--http",
    "--port",
    "70000",
  );
  equal(code, 2);
  equal(stdout, "");
  match(stderr, /^unfold: --port must be an integer from 0 to 65535, got 70000\n/);
});

Deno.test("a port already in use is one line and exit 1, not a stack trace", async () => {
  using taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  await withConfig({ mcpServers: {}, unfold: { trust: "off" } }, async (path) => {
    const { code, stderr } = await run(
      "gateway",
      "--config",
      path,
      "--http",
      "--port",
      String(port),
    );
    equal(code, 1, stderr);
    equal(
      stderr,
      `unfold: cannot serve on 127.0.0.1:${port}: the port is in use; choose another with --port (0 takes any free one)\n`,
    );
  });
});
