import { deepEqual, equal, match } from "node:assert/strict";
import { type CliRun, runCli, writeConfig } from "../gateway/_gateway.ts";
import { fake, writeChaosConfig } from "../gateway/chaos/_chaos.ts";

function run(...args: string[]): Promise<CliRun> {
  return runCli(args);
}

// `unfold search --json --limit 3` over the config: the ids it ranked, best first.
async function searchIds(path: string, query: string): Promise<string[]> {
  const { code, stdout, stderr } = await run(
    "search",
    "--config",
    path,
    "--json",
    "--limit",
    "3",
    query,
  );
  equal(code, 0, stderr);
  return (JSON.parse(stdout) as { id: string }[]).map((match) => match.id);
}

Deno.test("unfold search ranks the live catalogue's ids for a query", async () => {
  const { path, dir } = await writeConfig();
  try {
    const ids = await searchIds(path, "add two numbers");
    equal(ids.length <= 3, true);
    equal(ids.includes("everything/get-sum"), true, ids.join(", "));
    const exact = await run("search", "--config", path, "everything/get-sum");
    match(exact.stdout, /^\d+\.\d{3} {2}everything\/get-sum\n/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unfold search ranks by meaning too: a request in none of the tools' words finds its tool", async () => {
  const { path, dir } = await writeConfig();
  try {
    // No tool says "put", "document" or "somewhere": the word vectors, which the Deno
    // commands load, relate them to moving a file (the lexical ranker alone does not rank it).
    const ids = await searchIds(path, "put this document somewhere else");
    equal(ids[0], "filesystem/move_file", ids.join(", "));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a bad config stops the CLI with one line naming the place, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-cli-" });
  try {
    await Deno.writeTextFile(
      `${dir}/mcp.json`,
      JSON.stringify({
        mcpServers: { gh: { url: "https://example.com/mcp" } },
        unfold: { pinned: ["gh"] },
      }),
    );
    const { code, stdout, stderr } = await run("gateway", "--config", `${dir}/mcp.json`);
    equal(code, 1);
    equal(stdout, "");
    deepEqual(stderr.trim().split("\n").length, 1, stderr);
    match(
      stderr,
      /Invalid gateway config at "\/unfold\/pinned\/0": must be a tool id "server\/tool"/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("unfold inspect names each quarantined tool with the reason, and reports the rest", async () => {
  const { path, dir } = await writeChaosConfig({
    typed: fake("refused-tool", "--refusal", "type"),
    fine: fake("healthy"),
  });
  try {
    const { code, stdout, stderr } = await run("inspect", "--config", path);
    equal(code, 0, stderr);
    match(
      stdout,
      /quarantined tools[^\n]*\n {2}typed\/odd_type: "inputSchema" is not a valid JSON Schema/,
    );
    match(stdout, /^fine +ready +2 /m);
    match(stderr, /typed\/odd_type quarantined: /);
    const json = await run("inspect", "--config", path, "--json");
    const report = JSON.parse(json.stdout) as {
      servers: { server: string; quarantined?: { name: string }[] }[];
    };
    deepEqual(report.servers.find((s) => s.server === "typed")?.quarantined?.map((t) => t.name), [
      "odd_type",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
