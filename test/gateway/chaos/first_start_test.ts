/**
 * The first start: until every server has listed once, the overview names the servers still
 * starting (never "no tool available"), and a search or describe that arrives waits for them
 * within the call's timeout, so the model's first search finds their tools; a miss says which
 * servers were still starting. Over stdio and over HTTP, with a fake slow server and with the real
 * npm servers started with no snapshot.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { doesNotMatch, equal, match, ok } from "node:assert/strict";
import { type HttpGateway, startHttpGateway, writeConfig } from "../_gateway.ts";
import { fake, FAST, RawGateway, writeChaosConfig } from "./_chaos.ts";

// The gateway answers the host at once, long before its servers have listed.
const STARTUP_MS = 1;
// The slow server lists its tools after this: within the 30 s a bridge call waits for it.
const DELAY_MS = 3_000;
// A call's timeout that bounds the wait for a server that never lists.
const CALL_TIMEOUT_MS = 1_500;
// Answers wait for the servers within the 30 s cap: the host's wait for them is longer.
const ANSWER_MS = 60_000;

type Result = { content?: { type: string; text?: string }[]; isError?: boolean };
type Ask = (args: Record<string, unknown>) => Promise<Result>;

function text(result: Result): string {
  return (result.content ?? []).map((block) => block.text ?? "").join("\n");
}

// The two doors, each giving the instructions of initialize and a bridge call.
interface Door extends AsyncDisposable {
  instructions: string;
  ask: Ask;
}

async function stdioDoor(path: string): Promise<Door> {
  const gateway = new RawGateway(path);
  const init = await gateway.initialize(ANSWER_MS);
  return {
    instructions: String(init.instructions),
    ask: async (args) => {
      const answer = await gateway.request(
        "tools/call",
        { name: "mcp", arguments: args },
        ANSWER_MS,
      );
      return answer.result as Result;
    },
    [Symbol.asyncDispose]: () => gateway[Symbol.asyncDispose](),
  };
}

async function httpDoor(path: string): Promise<Door> {
  const gateway: HttpGateway = await startHttpGateway(path);
  const client = new Client({ name: "first-start", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
  return {
    instructions: client.getInstructions() ?? "",
    ask: async (args) =>
      await client.callTool({ name: "mcp", arguments: args }, { timeout: ANSWER_MS }) as Result,
    async [Symbol.asyncDispose]() {
      await client.close();
      await gateway.stop();
    },
  };
}

const DOORS = [["stdio", stdioDoor], ["HTTP", httpDoor]] as const;

for (const [door, open] of DOORS) {
  Deno.test(`${door}: the first search right after initialize waits for a slow server and finds its tools`, async () => {
    const { path } = await writeChaosConfig({
      slow: fake("slow-start", "--delay-ms", String(DELAY_MS)),
    }, { ...FAST, startupTimeoutMs: STARTUP_MS });
    await using gateway = await open(path);
    // Named as still starting, never "no tool available", in what a host may read only once.
    match(
      gateway.instructions,
      /Servers still starting, whose tools are not listed yet: slow\. Search for what the task needs all the same: a search waits for them \(up to 30 s\)/,
    );
    doesNotMatch(gateway.instructions, /No upstream server has any tool available/);
    const found = await gateway.ask({ action: "search", query: "echoes its text" });
    match(text(found), /slow\/echo/);
    doesNotMatch(text(found), /still starting/);
  });

  Deno.test(`${door}: a search and a describe of a server that never lists say it is still starting once the call's timeout is up`, async () => {
    const { path } = await writeChaosConfig({
      silent: fake("slow-start"), // never answers tools/list
    }, { ...FAST, startupTimeoutMs: STARTUP_MS, callTimeoutMs: CALL_TIMEOUT_MS });
    await using gateway = await open(path);
    const missed = await gateway.ask({ action: "search", query: "zqxjv wvkq" });
    match(text(missed), /Servers still starting, whose tools are not searched yet: "silent"\./);
    match(text(missed), /Next: search again in a moment/);
    doesNotMatch(text(missed), /other words/);
    const described = await gateway.ask({ action: "describe", name: "silent/echo" });
    equal(described.isError, true);
    match(
      text(described),
      /"silent" is configured and still starting: its tools are not listed yet/,
    );
  });

  Deno.test(`${door}: with the real npm servers started with no snapshot, the first search right after initialize finds their tools`, async () => {
    // The servers take longer than the startup timeout here, as npx -y does on a fresh machine.
    const { path } = await writeConfig({ unfold: { startupTimeoutMs: STARTUP_MS } });
    await using gateway = await open(path);
    const found = await gateway.ask({
      action: "search",
      query: "echo a message, read a text file, create entities in the knowledge graph",
      limit: 20,
    });
    const ids = [...text(found).matchAll(/^"?(\w+)\/\w+/gm)].map((m) => m[1]);
    for (const server of ["everything", "filesystem", "memory"]) {
      ok(ids.includes(server), `no tool of ${server} in the first search:\n${text(found)}`);
    }
  });
}

Deno.test("SIGTERM stops the gateway while a search waits for a server that never lists", async () => {
  const { path } = await writeChaosConfig({ silent: fake("slow-start") }, {
    ...FAST,
    startupTimeoutMs: STARTUP_MS,
  });
  await using gateway = new RawGateway(path);
  await gateway.initialize(ANSWER_MS);
  // Written, not awaited: the answer never comes, the gateway is gone before it.
  const search = { name: "mcp", arguments: { action: "search", query: "echoes its text" } };
  await gateway.write(
    `${JSON.stringify({ jsonrpc: "2.0", id: "waiting", method: "tools/call", params: search })}\n`,
  );
  gateway.child.kill("SIGTERM");
  // A hang guard below the 30 s the search would wait: the gateway exits before it answers.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const status = await Promise.race([
    gateway.exited(),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("SIGTERM did not stop the gateway")), 20_000);
    }),
  ]).finally(() => clearTimeout(timer));
  equal(status.code, 0);
});
