/**
 * The two peers a connection runs on, the SDK's `Client` (HTTP, any transport) and unfold's own
 * JSON-RPC client (stdio), held to the same conversations with a scripted server: the same
 * messages sent, the same results, the same error codes and words, for a healthy server and for
 * each fault (malformed answers, unknown ids, the server's own requests, answers out of order,
 * progress after a result, lines over the limit, an exit mid-call, an unsupported version).
 */

import { deepEqual, equal, match } from "node:assert/strict";
import { sdkPeer } from "../../src/mcp/_sdk_peer.ts";
import { litePeer } from "../../src/mcp/_lite_peer.ts";
import type { Peer } from "../../src/mcp/_peer.ts";
import type { McpConnection } from "../../src/mcp/types.ts";
import {
  connectScripted,
  healthy,
  type Run,
  type Script,
  SCRIPT_LINE_LIMIT,
  type Sent,
  settled,
} from "./_scripted.ts";

type MakePeer = (info: { name: string; version: string }) => Peer;
const PEERS: Readonly<Record<string, MakePeer>> = { sdk: sdkPeer, lite: litePeer };

/** What one conversation came to: the steps' outcomes, what was reported, what was sent. */
interface Transcript {
  connect: string | undefined;
  identity?: unknown;
  steps: string[];
  reported: string[];
  sent: Sent[];
}

// Runs a conversation through one peer.
async function converse(
  makePeer: MakePeer,
  script: Script,
  steps: (connection: McpConnection, run: Run) => Promise<string[]>,
  options: Parameters<typeof connectScripted>[2] = {},
): Promise<Transcript> {
  const run = await connectScripted(makePeer, script, options);
  const { connection } = run;
  if (connection === undefined) {
    return { connect: run.connectError, steps: [], reported: run.reported, sent: run.server.sent };
  }
  try {
    const outcomes = await steps(connection, run);
    return {
      connect: undefined,
      identity: { ...connection.identity, instructions: connection.instructions },
      steps: outcomes,
      reported: run.reported,
      sent: withoutPings(run.server.sent),
    };
  } finally {
    await connection.close();
  }
}

// The messages sent without the client's pings, its request ids counted again: the SDK pings a
// server that sent an answer it could not place (the connection probes it), unfold's client does
// not, and each ping takes an id.
function withoutPings(sent: Sent[]): Sent[] {
  const ids = new Map<unknown, number>();
  const kept = sent.filter((message) => message.method !== "ping");
  for (const message of kept) {
    if (message.method !== undefined && message.id !== undefined) ids.set(message.id, ids.size);
  }
  return kept.map((message) => {
    if (message.method === "notifications/cancelled") {
      return {
        ...message,
        params: { ...message.params, requestId: ids.get(message.params.requestId) },
      };
    }
    return message.method !== undefined && message.id !== undefined
      ? { ...message, id: ids.get(message.id)! }
      : message;
  });
}

// The same conversation through both peers gives the same transcript; returns it.
async function same(
  script: Script,
  steps: (connection: McpConnection, run: Run) => Promise<string[]>,
  options: Parameters<typeof connectScripted>[2] = {},
): Promise<Transcript> {
  const sdk = await converse(PEERS.sdk!, script, steps, options);
  const lite = await converse(PEERS.lite!, script, steps, options);
  // Compared as text, so that a difference shows whole.
  equal(JSON.stringify(lite, null, 1), JSON.stringify(sdk, null, 1));
  return lite;
}

// A script: `answer` first, the healthy server's answer when it gives `undefined`.
function scripted(answer: (message: Sent, server: Run["server"]) => unknown): Script {
  return (message, server) => {
    const own = answer(message, server);
    const reply = own === undefined ? healthy(message) : own;
    if (reply !== undefined && reply !== null) server.send(reply);
  };
}

const send = (server: Run["server"]) => (message: unknown) =>
  server.write(`${JSON.stringify(message)}\n`);

function serverOf(base: Run["server"]): Run["server"] {
  return { ...base, send: send(base), write: (text) => base.write(text), exit: () => base.exit() };
}

// Every script writes through `send` as lines.
function withLines(script: Script): Script {
  return (message, server) => script(message, serverOf(server));
}

Deno.test("both peers send the same handshake and requests, and read the same answers", async () => {
  const transcript = await same(withLines(scripted(() => undefined)), async (connection) => [
    (await connection.tools()).map((tool) => tool.name).join(","),
    await settled(connection.call("echo", { text: "hi" })),
  ]);
  deepEqual(transcript.steps, ["echo,typed", '"hi"']);
  deepEqual(transcript.sent[0], {
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "unfold", version: "0.1.0" },
    },
    jsonrpc: "2.0",
    id: 0,
  });
  deepEqual(transcript.sent[1], { jsonrpc: "2.0", method: "notifications/initialized" });
  deepEqual(transcript.identity, {
    name: "scripted",
    version: "1.0.0",
    title: "Scripted",
    instructions: "Use echo.",
  });
});

Deno.test("both peers refuse a server that answers with an unsupported protocol version", async () => {
  const transcript = await same(
    withLines(scripted((message) =>
      message.method === "initialize"
        ? {
          jsonrpc: "2.0",
          id: message.id,
          result: {
            protocolVersion: "1999-01-01",
            capabilities: {},
            serverInfo: { name: "old", version: "0" },
          },
        }
        : undefined
    )),
    () => Promise.resolve([]),
  );
  equal(
    transcript.connect,
    'connect: Cannot connect to "scripted": Server\'s protocol version is not supported: 1999-01-01',
  );
});

Deno.test("both peers time the handshake out in the same words, without cancelling it", async () => {
  const transcript = await same(
    withLines(scripted((message) => message.method === "initialize" ? null : undefined)),
    () => Promise.resolve([]),
    { requestTimeoutMs: 30 },
  );
  equal(transcript.connect, 'connect: Cannot connect to "scripted": Request timed out');
  equal(transcript.sent.length, 1);
});

Deno.test("both peers keep a JSON-RPC error's code and words, and fail a malformed result alone", async () => {
  const transcript = await same(
    withLines(scripted((message) => {
      const name = message.params?.name;
      if (name === "fail") {
        return { jsonrpc: "2.0", id: message.id, error: { code: -32000, message: "Failed" } };
      }
      if (name === "odd") {
        return { jsonrpc: "2.0", id: message.id, result: { content: [], isError: "yes" } };
      }
      if (name === "typed") {
        return {
          jsonrpc: "2.0",
          id: message.id,
          result: { content: [], structuredContent: { n: "x" } },
        };
      }
      return undefined;
    })),
    async (connection) => {
      await connection.tools();
      return [
        await settled(connection.forward("fail")),
        await settled(connection.forward("odd")),
        await settled(connection.forward("typed")),
        await settled(connection.call("echo", { text: "still" })),
      ];
    },
  );
  deepEqual(transcript.steps.slice(0, 2), [
    'tool_error: Cannot call "scripted/fail": Failed (JSON-RPC error -32000 from the server)',
    'tool_error: Cannot call "scripted/odd": "isError" must be true or false, got "yes"',
  ]);
  match(transcript.steps[2]!, /^tool_error: .*does not match the tool's output schema/);
  equal(transcript.steps[3], '"still"');
});

Deno.test("both peers pass over answers to ids they never sent and answers out of order", async () => {
  const held: Sent[] = [];
  const transcript = await same(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      server.send({ jsonrpc: "2.0", id: 999, result: { content: [] } });
      server.send({ jsonrpc: "2.0", id: "nope", error: { code: -1, message: "stray" } });
      // The first call is answered after the second.
      if (message.params.arguments.text === "first") {
        held.push(message);
        return null;
      }
      server.send(healthy(message));
      server.send(healthy(held.shift()!));
      return null;
    })),
    async (connection) => {
      const first = settled(connection.call("echo", { text: "first" }));
      await new Promise((resolve) => setTimeout(resolve, 5));
      const second = settled(connection.call("echo", { text: "second" }));
      return [await first, await second, String(connection.closed)];
    },
  );
  deepEqual(transcript.steps, ['"first"', '"second"', "false"]);
});

Deno.test("both peers answer the server's ping, refuse its other requests alike, and read a malformed line as an error", async () => {
  const transcript = await same(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      server.send({ jsonrpc: "2.0", id: "ask-0", method: "ping" });
      server.send({ jsonrpc: "2.0", id: "ask-1", method: "sampling/createMessage", params: {} });
      server.send({ jsonrpc: "2.0", id: 7, method: "roots/list" });
      server.write('{"jsonrpc":"2.0","id":1.5,"result":{}}\nnot JSON at all\n');
      return undefined;
    })),
    async (connection) => [await settled(connection.call("echo", { text: "done" }))],
  );
  equal(transcript.steps[0], '"done"');
  const answers = transcript.sent.filter((message) => !("method" in message));
  deepEqual(answers, [
    { jsonrpc: "2.0", id: "ask-1", error: { code: -32601, message: "Method not found" } },
    { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } },
    { result: {}, jsonrpc: "2.0", id: "ask-0" },
  ]);
});

Deno.test("both peers hand on progress in the order it came, skip a malformed one, and cancel an abandoned call alike", async () => {
  const transcript = await same(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      const token = message.params._meta?.progressToken;
      if (message.params.arguments.text === "slow") return null;
      if (message.params.arguments.text === "late") {
        server.send(healthy(message));
        server.send({
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: token, progress: 9 },
        });
        return null;
      }
      server.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: 1, total: 2 },
      });
      server.send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: token, progress: "bad" },
      });
      server.send(healthy(message));
      return undefined;
    })),
    async (connection) => {
      const heard: number[] = [];
      const result = await settled(
        connection.forward("echo", { text: "x" }, {
          onProgress: ({ progress }) => heard.push(progress),
        }),
      );
      const late: number[] = [];
      const after = await settled(
        connection.forward("echo", { text: "late" }, {
          onProgress: ({ progress }) => late.push(progress),
        }),
      );
      const slow = await settled(connection.call("echo", { text: "slow" }, { timeoutMs: 20 }));
      return [result, heard.join(","), after, late.join(","), slow];
    },
  );
  deepEqual(transcript.steps, [
    '{"content":[{"type":"text","text":"x"}]}',
    "1",
    '{"content":[{"type":"text","text":"late"}]}',
    // Read with its result, a late progress still reaches the listener before the result does.
    "9",
    'call_timeout: Cannot call "scripted/echo": no answer within 20 ms',
  ]);
  const cancelled = transcript.sent.find((message) => message.method === "notifications/cancelled");
  equal(cancelled?.params.requestId, 3);
  match(cancelled?.params.reason, /AbortError/);
});

Deno.test("both peers fail a call whose answer is over the line limit alone, and one they cannot place fails every pending call", async () => {
  const big = "b".repeat(SCRIPT_LINE_LIMIT);
  const transcript = await same(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      if (message.params.arguments.text === "big") {
        return {
          jsonrpc: "2.0",
          id: message.id,
          result: { content: [{ type: "text", text: big }] },
        };
      }
      if (message.params.arguments.text === "nameless") {
        server.write(`{"result":{"content":[{"type":"text","text":"${big}"}]}}\n`);
        return null;
      }
      return undefined;
    })),
    async (connection) => [
      await settled(connection.call("echo", { text: "big" })),
      await settled(connection.call("echo", { text: "nameless" })),
      await settled(connection.call("echo", { text: "after" })),
    ],
  );
  match(
    transcript.steps[0]!,
    /^tool_error: Cannot call "scripted\/echo": the server's answer is \d+ bytes, over the limit of 4096 bytes/,
  );
  match(
    transcript.steps[1]!,
    /^tool_error: Cannot call "scripted\/echo": the server's answer is \d+ bytes/,
  );
  equal(transcript.steps[2], '"after"');
});

Deno.test("both peers fail the pending call and later ones when the server exits mid-call", async () => {
  const transcript = await same(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      server.exit();
      return null;
    })),
    async (connection) => [
      await settled(connection.call("echo", { text: "crash" })),
      await settled(connection.tools()),
      String(connection.closed),
    ],
  );
  deepEqual(transcript.steps, [
    'disconnected: Cannot call "scripted/echo": the server closed the connection',
    'disconnected: Cannot list the tools of "scripted": the server closed the connection',
    "true",
  ]);
  deepEqual(transcript.reported, [
    'disconnected: Lost the connection to "scripted": the server closed the connection',
  ]);
});
