/**
 * Code mode through the gateway, over real servers: the `unfold` command over stdio and over
 * Streamable HTTP, each run in its sandbox (a child deno per run), its calls forwarded upstream
 * as executes under the profile, trust and read-only mode (`_code_mode.ts` has the cases).
 *
 * @module
 */

import { equal } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { denoEnv } from "../mcp/_servers.ts";
import { cliCommand, httpClient, startHttpGateway } from "./_gateway.ts";
import { codeModeConfig, codeModeContract, sandboxDescendants } from "./_code_mode.ts";

Deno.test("code mode over stdio: runs call real servers as executes, under profile and trust", async () => {
  const { path, files } = await codeModeConfig();
  const { command, args } = cliCommand("gateway", "--config", path, "--profile", "work");
  const client = new Client({ name: "code-mode-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({ command, args, env: denoEnv(), stderr: "ignore" }),
  );
  try {
    await codeModeContract(client, files, sandboxDescendants);
  } finally {
    await client.close();
  }
  // The process started ahead is stopped with the gateway.
  equal(sandboxDescendants(), 0);
});

Deno.test("code mode over Streamable HTTP: the same contract at /mcp/work", async () => {
  const { path, files } = await codeModeConfig();
  await using gateway = await startHttpGateway(path);
  const client = await httpClient(`${gateway.url}/work`);
  try {
    await codeModeContract(client, files, sandboxDescendants);
  } finally {
    await client.close();
  }
  await gateway.stop();
  equal(sandboxDescendants(), 0);
});
