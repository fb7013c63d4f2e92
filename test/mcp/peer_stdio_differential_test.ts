/**
 * The two peers a connection runs on (the SDK's `Client` and unfold's own JSON-RPC client) over a
 * real stdio process: the chaos suite's fake upstream, one fault per run, gives the same outcomes
 * through both. Spawns processes.
 */

import { equal } from "node:assert/strict";
import { StdioProcessTransport } from "../../src/mcp/_stdio_transport.ts";
import { openConnection } from "../../src/mcp/_connection.ts";
import { sdkPeer } from "../../src/mcp/_sdk_peer.ts";
import { litePeer } from "../../src/mcp/_lite_peer.ts";
import type { Peer } from "../../src/mcp/_peer.ts";
import type { McpConnection } from "../../src/mcp/types.ts";
import { denoEnv } from "./_servers.ts";
import { outcome, settled } from "./_scripted.ts";

const CONFIG = new URL("../../deno.json", import.meta.url).pathname;
const FAKE = new URL("../gateway/chaos/_fake_upstream.ts", import.meta.url).pathname;

type MakePeer = (info: { name: string; version: string }) => Peer;

// Runs steps against the fake upstream with one behaviour, through one peer; the outcomes.
async function run(
  makePeer: MakePeer,
  behaviour: string,
  steps: (connection: McpConnection) => Promise<string[]>,
): Promise<string[]> {
  let failPending = (_why: string) => {};
  const transport = new StdioProcessTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, FAKE, "--behaviour", behaviour],
    env: denoEnv(),
    graceMs: { exit: 250, term: 350 },
    onUnattributed: (why) => failPending(why),
  });
  const reported: string[] = [];
  const connection = await openConnection(
    "fake",
    transport,
    {
      onError: (error) => reported.push(outcome(error)),
    },
    { onConnected: (fail) => failPending = fail },
    makePeer,
  );
  try {
    return [...await steps(connection), ...reported, JSON.stringify(connection.identity)];
  } finally {
    await connection.close();
  }
}

// The same steps through both peers come to the same outcomes; returns them.
async function same(
  behaviour: string,
  steps: (connection: McpConnection) => Promise<string[]>,
): Promise<string[]> {
  const sdk = await run(sdkPeer, behaviour, steps);
  const lite = await run(litePeer, behaviour, steps);
  equal(lite.join("\n"), sdk.join("\n"));
  return lite;
}

Deno.test("over stdio, both peers give a JSON-RPC error and a malformed result the same outcomes", async () => {
  await same("error-code", async (connection) => [
    await settled(connection.call("fail")),
    await settled(connection.call("echo", { text: "after" })),
  ]);
  await same("malformed-result", async (connection) => [
    await settled(connection.call("odd")),
    await settled(connection.call("echo", { text: "after" })),
  ]);
});

Deno.test("over stdio, both peers refuse the server's sampling, elicitation and roots requests alike", async () => {
  const outcomes = await same("server-requests", async (connection) => [
    (await connection.tools()).map((tool) => tool.name).join(","),
    await settled(connection.call("echo", { text: "asked" })),
  ]);
  equal(outcomes[1], '"asked"');
});

Deno.test("over stdio, both peers fail an oversized answer alone and a call the server exits on alike", async () => {
  await same("oversized-result", async (connection) => [
    await settled(connection.call("big")),
    await settled(connection.call("echo", { text: "after" })),
  ]);
  const outcomes = await same("crash-mid-call", async (connection) => [
    await settled(connection.call("crash")),
    await settled(connection.call("echo", { text: "after" })),
  ]);
  equal(outcomes[1], 'disconnected: Cannot call "fake/echo": the server closed the connection');
});
