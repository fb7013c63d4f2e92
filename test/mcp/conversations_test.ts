/**
 * A connection (the SDK's `Client` under it, reading as the stdio client reads) in conversation
 * with a scripted server: the messages it sends, the results, the error codes and words, for a
 * healthy server and for each fault (malformed answers, unknown ids, the server's own requests,
 * answers out of order, progress after a result, lines over the limit, an exit mid-call, an
 * unsupported version).
 */

import { deepEqual, equal, match } from "node:assert/strict";
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

/** What one conversation came to: the steps' outcomes, what was reported, what was sent. */
interface Transcript {
  connect: string | undefined;
  identity?: unknown;
  steps: string[];
  reported: string[];
  sent: Sent[];
}

// Runs a conversation.
async function converse(
  script: Script,
  steps: (connection: McpConnection, run: Run) => Promise<string[]>,
  options: Parameters<typeof connectScripted>[1] = {},
): Promise<Transcript> {
  const run = await connectScripted(script, options);
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

// The messages sent without the client's pings, its request ids counted again: the connection
// pings a server that sent an answer it could not place (it probes it), and each ping takes an id.
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

Deno.test("the client sends the 2025 handshake and requests as the SDK does, and reads the answers", async () => {
  const transcript = await converse(withLines(scripted(() => undefined)), async (connection) => [
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

Deno.test("the client refuses a server that answers with an unsupported protocol version", async () => {
  const transcript = await converse(
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

Deno.test("the client times the handshake out, without cancelling it", async () => {
  const transcript = await converse(
    withLines(scripted((message) => message.method === "initialize" ? null : undefined)),
    () => Promise.resolve([]),
    { requestTimeoutMs: 30 },
  );
  equal(transcript.connect, 'connect: Cannot connect to "scripted": Request timed out');
  equal(transcript.sent.length, 1);
});

Deno.test("the client keeps a JSON-RPC error's code and words, and fails a malformed result alone", async () => {
  const transcript = await converse(
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

Deno.test("the client passes over answers to ids it never sent and answers out of order", async () => {
  const held: Sent[] = [];
  const transcript = await converse(
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
      const second = settled(connection.call("echo", { text: "second" }));
      return [await first, await second, String(connection.closed)];
    },
  );
  deepEqual(transcript.steps, ['"first"', '"second"', "false"]);
});

Deno.test("the client answers the server's ping, refuses its other requests, and reads a malformed line as an error", async () => {
  const transcript = await converse(
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

Deno.test("the client hands on progress in the order it came, skips a malformed one, and cancels an abandoned call", async () => {
  const transcript = await converse(
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

Deno.test("the client fails a call whose answer is over the line limit alone, and one it cannot place fails every pending call", async () => {
  const big = "b".repeat(SCRIPT_LINE_LIMIT);
  const transcript = await converse(
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

Deno.test("the client fails alone a call answered over the limit with a character across the cut, or not in UTF-8", async () => {
  const encoder = new TextEncoder();
  const transcript = await converse(
    withLines(scripted((message, server) => {
      if (message.method !== "tools/call") return undefined;
      const text = message.params.arguments.text;
      if (text === "straddle") {
        // Its id last, as the SDK writes a response; the last 4,096 bytes kept begin inside "é".
        const suffix = `"}]},"jsonrpc":"2.0","id":${message.id}}\n`;
        const line = (pad: string) =>
          encoder.encode(
            `{"result":{"content":[{"type":"text","text":"${
              "é".repeat(SCRIPT_LINE_LIMIT)
            }${pad}${suffix}`,
          );
        const inside = (bytes: Uint8Array) => bytes[bytes.length - 1 - 4_096]! >> 6 === 0b10;
        const bytes = inside(line("")) ? line("") : line("a");
        equal(inside(bytes), true, "the cut falls inside a character");
        server.write(bytes);
        return null;
      }
      if (text === "latin1") {
        server.write(Uint8Array.from([
          ...encoder.encode(
            `{"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"caf`,
          ),
          0xe9,
          ...encoder.encode('"}]}}\n'),
        ]));
        return null;
      }
      return undefined;
    })),
    async (connection) => [
      await settled(connection.call("echo", { text: "straddle" })),
      await settled(connection.call("echo", { text: "latin1" })),
      await settled(connection.call("echo", { text: "after" })),
    ],
  );
  match(
    transcript.steps[0]!,
    /^tool_error: Cannot call "scripted\/echo": the server's answer is \d+ bytes, over the limit of 4096 bytes/,
  );
  equal(
    transcript.steps[1],
    `tool_error: Cannot call "scripted/echo": the server's answer is not UTF-8`,
  );
  equal(transcript.steps[2], '"after"');
  deepEqual(transcript.reported, []);
});

Deno.test("the client fails the pending call and later ones when the server exits mid-call", async () => {
  const transcript = await converse(
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
