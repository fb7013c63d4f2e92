/**
 * The host benches' recorded servers (`bench/_recorded_server.ts`, as `recordedServers()` of
 * `bench/host_search_recall.ts` starts them) start and list what `testdata/real-servers` recorded:
 * a bench over servers that never started measured nothing (every one of them once exited on
 * `--allow-all conflicts with --allow-read`, and both sides of the recall bench scored 0).
 *
 * @module
 */

import { deepEqual } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { recordedServers } from "../../bench/host_search_recall.ts";

const RECORDED = JSON.parse(
  await Deno.readTextFile(new URL("../../testdata/real-servers/tools.json", import.meta.url)),
) as Record<string, { name: string }[]>;

Deno.test("a recorded server starts as the benches start it and lists its recorded tools", async () => {
  const servers = recordedServers();
  deepEqual(Object.keys(servers).sort(), Object.keys(RECORDED).sort());
  const entry = servers.github!;
  const client = new Client({ name: "recorded-server-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args }));
  try {
    const listed = await client.listTools();
    deepEqual(listed.tools.map((tool) => tool.name), RECORDED.github!.map((tool) => tool.name));
  } finally {
    await client.close();
  }
});
