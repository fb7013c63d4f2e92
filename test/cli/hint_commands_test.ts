/**
 * Every message that tells its reader to run a command sets the command apart (in backticks, or
 * alone on its line), and each `unfold` command it prints parses with the CLI's own argument
 * parser as printed: the trust hints (held tools, the overview, stderr, `inspect`, the lock's),
 * the sign-in hint, the missing-config hint, the usage mistakes and the help. A config path that
 * needs quoting is used throughout. (`hints_test.ts` runs them.)
 *
 * @module
 */

import { deepEqual, equal, match } from "node:assert/strict";
import { HELP } from "../../src/cli/commands.ts";
import { readConfigFile } from "../../src/cli/config_file.ts";
import { unfoldCommand } from "../../src/cli/hints.ts";
import { formatReport, inspectCatalog } from "../../src/cli/inspect.ts";
import { parseArgs } from "../../src/cli/args.ts";
import { openTrust } from "../../src/cli/trust.ts";
import { Gateway } from "../../src/gateway/gateway.ts";
import { checkTrust, heldMessage } from "../../src/gateway/trust/policy.ts";
import { NeedsLoginError } from "../../src/mcp/oauth/fetch.ts";
import { MemorySessionStore } from "../../src/session/memory_store.ts";
import { assertCommands, commandsIn } from "./_commands_in.ts";

const TOOL = {
  server: "gh",
  name: "create_issue",
  description: "Creates",
  inputSchema: { type: "object" },
};

async function withConfigDir(use: (config: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "unfold hint's dir " });
  try {
    const config = `${dir}/mcp.json`;
    await Deno.writeTextFile(config, JSON.stringify({ mcpServers: {} }));
    await use(config);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("commandsIn finds a command glued to prose as unmarked, and splits a marked one as a shell does", () => {
  const glued = commandsIn(
    "tool definitions not approved (review them, then run unfold approve --config /a --all, or name the ids):",
  );
  deepEqual(glued.commands, []);
  equal(glued.unmarked.length, 1);
  const marked = commandsIn("then run `unfold approve --config '/a b'\\''c/mcp.json' --all`, or …");
  deepEqual(marked.commands.map((c) => c.words), [
    ["unfold", "approve", "--config", "/a b'c/mcp.json", "--all"],
  ]);
});

Deno.test("every trust hint marks its commands, and each parses as printed", async () => {
  await withConfigDir(async (config) => {
    const opened = await openTrust(config, { pinned: [], trust: "pin" }, "gateway");
    equal(opened.ok, true);
    if (!opened.ok) return;
    const trust = opened.value.source;
    const texts: [string, string][] = [];
    texts.push(["the start's notice", opened.value.notice!]);
    const tool = {
      server: "gh",
      name: "create_issue",
      change: "changed" as const,
      fields: ["description" as const],
    };
    texts.push(["a held tool", heldMessage(tool, trust)]);
    texts.push(["a held tool on a snapshot", heldMessage(tool, trust, true)]);
    texts.push(["the overview's note", (await checkTrust([TOOL], trust)).note]);
    // The gateway's log line of each tool not approved.
    const lines: string[] = [];
    const pool = {
      tools: () => [TOOL],
      statuses: () => [{ server: "gh", state: "ready" as const, tools: 1 }],
      forward: () => Promise.reject(new Error("unused")),
      onChange: () => () => {},
      close: () => Promise.resolve(),
    };
    const gateway = await Gateway.open(pool, {
      options: { pinned: [], trust: "pin" },
      store: new MemorySessionStore(),
      trust,
      log: (line) => lines.push(line),
    });
    texts.push(["the log", lines.join("\n")]);
    const report = inspectCatalog(gateway.catalog, gateway.statuses(), { pinned: [] });
    texts.push(["inspect", formatReport(report, trust.approve)]);
    await gateway.close();
    // A lock that cannot be read.
    await Deno.writeTextFile(`${config.slice(0, -"mcp.json".length)}unfold.lock.json`, "{oops");
    const broken = await openTrust(config, { pinned: [] }, "gateway");
    texts.push(["a broken lock", broken.ok ? "" : broken.error]);
    for (const [at, text] of texts) {
      for (const words of assertCommands(text, at)) {
        equal(words[words.indexOf("--config") + 1], config, `${at}: the config's path`);
      }
    }
  });
});

Deno.test("the sign-in, missing-config, usage and help hints mark their commands, and each parses", async () => {
  await withConfigDir(async (config) => {
    const texts: [string, string][] = [
      ["a sign-in", new NeedsLoginError("my server").message],
      [
        "a sign-in with the config",
        new NeedsLoginError("gh", unfoldCommand("login", "--config", config, "gh")).message,
      ],
      ["the help", HELP.slice(HELP.indexOf("\nStart with"))],
    ];
    const missing = await readConfigFile(
      { config: `${config}.none`, configGiven: false },
      {},
      () => {},
    );
    texts.push(["no config", missing.ok ? "" : missing.error]);
    for (const argv of [["setup"], ["gatway"]]) {
      const mistake = parseArgs(argv, config);
      texts.push([
        `unfold ${argv.join(" ")}`,
        mistake.ok ? "" : `${mistake.error}\n${mistake.usage}`,
      ]);
    }
    for (const [at, text] of texts) assertCommands(text, at);
    match(new NeedsLoginError("my server").message, /`unfold login 'my server'`/);
  });
});
