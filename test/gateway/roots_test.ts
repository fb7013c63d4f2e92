/**
 * The hosts' roots reach the upstreams (docs/gateway.md "Roots"): the real server-filesystem
 * (started with two directories) behind the real gateway, over stdio and over Streamable HTTP,
 * driven by the SDK's client acting as the host. What server-filesystem allows is read through
 * the bridge's execute of its `list_allowed_directories`; each step waits for the line it writes
 * when it has taken new roots in (the gateway logs its servers' stderr), never for a time.
 *
 * @module
 */

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { deepEqual, equal, match } from "node:assert/strict";
import { ChildLog } from "../_deno.ts";
import { denoEnv, memoryServer, npmServer } from "../mcp/_servers.ts";
import { cliCommand, startHttpGateway } from "./_gateway.ts";

const TAKEN = /\[filesystem\] Updated allowed directories from MCP roots/;
const KEPT = /\[filesystem\] No valid root directories provided by client/;

interface Dirs {
  config: string;
  base: string;
  a: string;
  b: string;
}

// A config of server-filesystem over dirA and dirB (and server-memory, for a profile that does
// not see server-filesystem), in a fresh directory.
async function setUp(profiles?: Record<string, unknown>): Promise<Dirs> {
  const base = await Deno.realPath(await Deno.makeTempDir({ prefix: "unfold-roots-" }));
  const a = `${base}/dirA`;
  const b = `${base}/dirB`;
  await Deno.mkdir(a);
  await Deno.mkdir(b);
  const env = denoEnv();
  const servers: Record<string, unknown> = {
    filesystem: { ...npmServer("@modelcontextprotocol/server-filesystem", a, b), env },
  };
  if (profiles !== undefined) servers.memory = memoryServer(base);
  const config = `${base}/mcp.json`;
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: servers,
      unfold: { startupTimeoutMs: 30_000, ...(profiles === undefined ? {} : { profiles }) },
    }),
  );
  return { config, base, a, b };
}

// A host: the SDK's client, declaring roots or not, answering roots/list with `answer()`.
function host(answer?: () => unknown): Client {
  const client = new Client(
    { name: "roots-test", version: "1.0.0" },
    { capabilities: answer === undefined ? {} : { roots: { listChanged: true } } },
  );
  if (answer !== undefined) client.setRequestHandler("roots/list", () => answer() as never);
  return client;
}

const fileUri = (path: string) => new URL(`file://${path}`).href;

// What server-filesystem allows, through the bridge.
async function allowed(client: Client, bridge = "mcp"): Promise<string[]> {
  const name = "filesystem/list_allowed_directories";
  await client.callTool({ name: bridge, arguments: { action: "describe", name } });
  const result = await client.callTool({
    name: bridge,
    arguments: { action: "execute", name },
  }) as { content: { type: string; text?: string }[]; isError?: boolean };
  equal(result.isError ?? false, false, JSON.stringify(result));
  const text = result.content.map((block) => block.text ?? "").join("\n");
  return text.split("\n").filter((line) => line.startsWith("/")).sort();
}

// Waits until `pattern` has matched `count` lines of the log.
async function lines(log: ChildLog, pattern: RegExp, count: number): Promise<void> {
  for (;;) {
    const next = log.next();
    if (log.lines.filter((line) => pattern.test(line)).length >= count) return;
    if (log.done) throw new Error(`the log ended before ${count} lines ${pattern}`);
    const bound = Promise.withResolvers<void>();
    const timer = setTimeout(
      () => bound.reject(new Error(`no line ${pattern}:\n${log.lines.join("\n")}`)),
      60_000,
    );
    try {
      await Promise.race([next, bound.promise]);
    } finally {
      clearTimeout(timer);
    }
  }
}

// The gateway over stdio, its stderr kept.
async function stdioGateway(config: string, client: Client): Promise<ChildLog> {
  const { command, args } = cliCommand("gateway", "--config", config);
  const transport = new StdioClientTransport({ command, args, env: denoEnv(), stderr: "pipe" });
  const stderr = ReadableStream.from(
    transport.stderr as unknown as AsyncIterable<Uint8Array<ArrayBuffer>>,
  );
  const log = new ChildLog(stderr.pipeThrough(new TextDecoderStream()).getReader());
  await client.connect(transport);
  return log;
}

Deno.test("stdio: server-filesystem is confined to the host's roots, and follows their changes", async () => {
  const dirs = await setUp();
  let roots = [{ uri: fileUri(dirs.a), name: "A" }];
  const client = host(() => ({ roots }));
  const log = await stdioGateway(dirs.config, client);
  try {
    await lines(log, TAKEN, 1);
    deepEqual(await allowed(client), [dirs.a]);
    roots = [{ uri: fileUri(dirs.b), name: "B" }];
    await client.sendRootsListChanged();
    await lines(log, TAKEN, 2);
    deepEqual(await allowed(client), [dirs.b]);
  } finally {
    await client.close();
    await log.ended;
  }
});

Deno.test("stdio: a host without roots leaves server-filesystem its command line's directories", async () => {
  const dirs = await setUp();
  const client = host();
  const log = await stdioGateway(dirs.config, client);
  try {
    // Given an empty list, it says so and keeps what it was started with.
    await lines(log, KEPT, 1);
    deepEqual(await allowed(client), [dirs.a, dirs.b]);
  } finally {
    await client.close();
    await log.ended;
  }
});

Deno.test("stdio: a hostile roots answer is bounded and fails closed: nothing is widened", async () => {
  const dirs = await setUp();
  const hostile: unknown[] = [
    { roots: [{ uri: "https://example.com/" }, { uri: fileUri(dirs.b) }] },
    { roots: Array.from({ length: 10_000 }, () => ({ uri: fileUri(dirs.b) })) },
    { roots: [{ uri: `${fileUri(dirs.b)}/${"x".repeat(1_000_000)}` }] },
    { roots: [{ uri: fileUri(dirs.b), name: "n".repeat(1_000_000) }] },
  ];
  let answer: unknown = { roots: [{ uri: fileUri(dirs.a) }] };
  // Resolved when the gateway asks the host (once per change it is told of).
  let asked = Promise.withResolvers<void>();
  const client = host(() => {
    asked.resolve();
    return answer;
  });
  const log = await stdioGateway(dirs.config, client);
  try {
    await lines(log, TAKEN, 1);
    deepEqual(await allowed(client), [dirs.a]);
    for (const [index, bad] of hostile.entries()) {
      answer = bad;
      asked = Promise.withResolvers<void>();
      await client.sendRootsListChanged();
      await asked.promise;
      if (index === 0) {
        // The first refusal gives server-filesystem an empty list: it keeps dirA, never dirB.
        await lines(log, KEPT, 1);
      }
      deepEqual(await allowed(client), [dirs.a]);
    }
    const refused = log.lines.filter((line) => /roots of .*refused/.test(line));
    equal(refused.length, 1, log.lines.join("\n"));
    match(refused[0]!, /not a file:\/\/ URI/);
    // A good answer after them all is taken: the host's session was refused answers, not closed.
    answer = { roots: [{ uri: fileUri(dirs.b) }] };
    await client.sendRootsListChanged();
    await lines(log, TAKEN, 2);
    deepEqual(await allowed(client), [dirs.b]);
  } finally {
    await client.close();
    await log.ended;
  }
});

Deno.test("http: the sessions of each profile give their roots to the servers the profile sees", async () => {
  const dirs = await setUp({
    files: { servers: ["filesystem"] },
    narrow: { servers: ["filesystem"] },
    notes: { servers: ["memory"] },
  });
  await using gateway = await startHttpGateway(dirs.config);
  const connect = async (profile: string, roots: string[]) => {
    const client = host(() => ({ roots: roots.map((path) => ({ uri: fileUri(path) })) }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.url}/${profile}`)));
    return client;
  };
  // A profile that does not see server-filesystem: its roots do not reach it.
  const notes = await connect("notes", [dirs.b]);
  const files = await connect("files", [dirs.base]);
  await lines(gateway.log, TAKEN, 1);
  deepEqual(await allowed(files), [dirs.base]);
  // One server-filesystem serves both profiles that see it: it is given what both allow.
  const narrow = await connect("narrow", [dirs.a]);
  await lines(gateway.log, TAKEN, 2);
  deepEqual(await allowed(files), [dirs.a]);
  deepEqual(await allowed(narrow), [dirs.a]);
  // The narrower session ends: the other's roots are given again.
  await (narrow.transport as StreamableHTTPClientTransport).terminateSession();
  await narrow.close();
  await lines(gateway.log, TAKEN, 3);
  deepEqual(await allowed(files), [dirs.base]);
  await files.close();
  await notes.close();
});
