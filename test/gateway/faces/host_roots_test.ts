/**
 * The host faces ask their host for roots (`faces/host_roots.ts`), and an upstream connection
 * offers them (`mcp/_connection.ts`): the SDK's client and server over in-memory transports,
 * with the roots hub between them, as the gateway wires them.
 *
 * @module
 */

import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { deepEqual, equal } from "node:assert/strict";
import { hostServer, type ToolHost } from "../../../src/gateway/faces/server.ts";
import { RootsHub } from "../../../src/gateway/roots/hub.ts";
import { connectTransport } from "../../../src/mcp/client.ts";
import { createMcpHttpHandler } from "../../../src/gateway/faces/http.ts";
import { initializeBody, MCP_POST_HEADERS } from "../../_mcp_wire.ts";

function toolHost(hub: RootsHub, sees: (server: string) => boolean = () => true): ToolHost {
  return {
    serverInfo: { name: "unfold", version: "0" },
    instructions: () => "",
    tools: () => [],
    call: () => Promise.resolve({ ok: false, message: "no tools" }),
    onToolsChanged: () => () => {},
    roots: hub.scope(sees),
  };
}

// A host that declares roots (or not), answering with `roots`, counting the asks.
async function connectHost(
  host: ToolHost,
  answer: (() => unknown) | undefined,
  options: Parameters<typeof hostServer>[1] = {},
) {
  const server = hostServer(host, options);
  const client = new Client(
    { name: "host", version: "1" },
    { capabilities: answer === undefined ? {} : { roots: { listChanged: true } } },
  );
  const asks = { count: 0 };
  if (answer !== undefined) {
    client.setRequestHandler("roots/list", () => {
      asks.count++;
      return answer() as never;
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  return { client, server, asks };
}

// Resolves at the next change the hub tells an upstream of.
function nextChange(hub: RootsHub, server = "fs"): Promise<void> {
  const { promise, resolve } = Promise.withResolvers<void>();
  const stop = hub.upstream(server).onChanged(() => {
    stop();
    resolve();
  });
  return promise;
}

Deno.test("a host that declares roots is asked after initialized, and again on list_changed", async () => {
  const hub = new RootsHub();
  let roots = [{ uri: "file:///a" }];
  const changed = nextChange(hub);
  const { client, asks } = await connectHost(toolHost(hub), () => ({ roots }));
  await changed;
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a" }]);
  equal(asks.count, 1);
  roots = [{ uri: "file:///b" }];
  const again = nextChange(hub);
  await client.sendRootsListChanged();
  await again;
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///b" }]);
  equal(asks.count, 2);
  // The host goes: its roots go with it.
  const gone = nextChange(hub);
  await client.close();
  await gone;
  deepEqual(hub.rootsFor("fs"), []);
});

Deno.test("changes while an ask runs cause one more ask, not one each", async () => {
  const hub = new RootsHub();
  // Each ask's answer, held until the test gives it; `asked[n]` resolves at the n-th ask.
  const answers = [Promise.withResolvers<unknown>(), Promise.withResolvers<unknown>()];
  const asked = [Promise.withResolvers<void>(), Promise.withResolvers<void>()];
  let n = 0;
  const first = nextChange(hub);
  const { client, asks } = await connectHost(toolHost(hub), () => {
    const i = n++;
    asked[i]?.resolve();
    return answers[i]?.promise ?? { roots: [] };
  });
  await asked[0]!.promise;
  // The first ask is out: five changes meanwhile.
  for (let i = 0; i < 5; i++) await client.sendRootsListChanged();
  answers[0]!.resolve({ roots: [{ uri: "file:///one" }] });
  await first;
  // One more ask, for the five.
  await asked[1]!.promise;
  const second = nextChange(hub);
  answers[1]!.resolve({ roots: [{ uri: "file:///two" }] });
  await second;
  equal(asks.count, 2);
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///two" }]);
  await client.close();
});

Deno.test("a host without roots narrows nothing", async () => {
  const hub = new RootsHub();
  const rooted = hub.scope(() => true).open(() => "other");
  rooted.declared();
  rooted.answered({ roots: [{ uri: "file:///a" }] });
  const { client } = await connectHost(toolHost(hub), undefined);
  await client.listTools();
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a" }]);
  await client.close();
});

Deno.test("a face that asks itself asks once told to (the HTTP face, at its GET stream)", async () => {
  const hub = new RootsHub();
  let ask: (() => void) | undefined;
  const { client, asks } = await connectHost(toolHost(hub), () => ({ roots: [] }), {
    roots: "when-asked",
    onRoots: (follower) => ask = follower.ask,
  });
  equal(asks.count, 0);
  const asked = Promise.withResolvers<void>();
  client.setRequestHandler("roots/list", () => {
    asks.count++;
    asked.resolve();
    return { roots: [{ uri: "file:///h" }] };
  });
  ask!();
  await asked.promise;
  equal(asks.count, 1);
  await client.close();
});

Deno.test("an HTTP host that never opens its stream counts as not answering", async () => {
  const due: (() => void)[] = [];
  const lines: string[] = [];
  const hub = new RootsHub({
    schedule: (run) => {
      due.push(run);
      return () => {};
    },
    log: (line) => lines.push(line),
  });
  const given = nextChange(hub);
  const rooted = hub.scope(() => true).open(() => "other");
  rooted.declared();
  rooted.answered({ roots: [{ uri: "file:///a" }] });
  await given;
  const narrowed = nextChange(hub);
  const { client, asks } = await connectHost(toolHost(hub), () => ({ roots: [] }), {
    roots: "when-asked",
  });
  // Declared (at initialized), not answered: it narrows to nothing (fail closed) while awaited.
  await narrowed;
  deepEqual(hub.rootsFor("fs"), []);
  equal(due.length, 1);
  due[0]!();
  equal(asks.count, 0);
  equal(lines.length, 1);
  equal(lines[0]!.includes("it opened no stream for the gateway's requests"), true);
  deepEqual(hub.rootsFor("fs"), []);
  await client.close();
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a" }]);
});

Deno.test("an upstream connection offers the hub's roots and tells the server of changes", async () => {
  const hub = new RootsHub();
  const upstream = new McpServer({ name: "fs", version: "1" });
  const heard = { changes: 0, next: Promise.withResolvers<void>() };
  upstream.server.setNotificationHandler("notifications/roots/list_changed", () => {
    heard.changes++;
    heard.next.resolve();
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await upstream.connect(serverSide);
  const connection = await connectTransport({ server: "fs", transport: clientSide }, {
    roots: hub.upstream("fs"),
  });
  deepEqual(upstream.server.getClientCapabilities()?.roots, { listChanged: true });
  deepEqual(await upstream.server.listRoots(), { roots: [] });
  const host = hub.scope(() => true).open(() => "h");
  host.declared();
  host.answered({ roots: [{ uri: "file:///w", name: "w" }] });
  await heard.next.promise;
  equal(heard.changes, 1);
  deepEqual(await upstream.server.listRoots(), { roots: [{ uri: "file:///w", name: "w" }] });
  // Closed, it tells no more.
  await connection.close();
  host.answered({ roots: [{ uri: "file:///x" }] });
  equal(heard.changes, 1);
});

Deno.test("without roots, an upstream connection declares none (as before)", async () => {
  const upstream = new McpServer({ name: "plain", version: "1" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await upstream.connect(serverSide);
  const connection = await connectTransport({ server: "plain", transport: clientSide });
  equal(upstream.server.getClientCapabilities()?.roots, undefined);
  await connection.close();
});

Deno.test("HTTP sessions hold a roots connection from initialized to their end, never more", async () => {
  const hub = new RootsHub();
  const { handle, close } = createMcpHttpHandler(toolHost(hub), {
    sessions: { kind: "memory", maxSessions: 3 },
  });
  const post = async (body: string, session?: string) => {
    const response = await handle(
      new Request("http://localhost/mcp", {
        method: "POST",
        headers: {
          ...MCP_POST_HEADERS,
          ...(session === undefined
            ? {}
            : { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" }),
        },
        body,
      }),
      "",
    );
    await response.body?.cancel();
    return response;
  };
  // Refused initializes leave nothing behind.
  for (let i = 0; i < 50; i++) {
    await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
  }
  equal(hub.connections, 0);
  // Six sessions initialized: the three kept hold one each.
  for (let i = 0; i < 6; i++) {
    const session = (await post(initializeBody("2025-06-18", "t"))).headers.get("mcp-session-id");
    await post(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }), session!);
  }
  equal(hub.connections, 3);
  await close();
  equal(hub.connections, 0);
});
