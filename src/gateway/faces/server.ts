/**
 * The gateway's MCP server: the SDK's `Server` over a {@linkcode ToolHost} (the gateway, through
 * {@linkcode gatewayHost}), the one instance every face serves: stdio (`stdio.ts`, the SDK's
 * `serveStdio`) and Streamable HTTP (`http.ts`, `createMcpHandler` and the session transports),
 * both protocol eras. Its `tools/call` is the one way a call is answered: progress in order and
 * all of it before the result, cancellation through the request's signal, a name that is no tool
 * as JSON-RPC invalid params, the caller's era passed on (its result schema is the gateway's to
 * honour, `tool_calls.ts`). Who the client is (`clientInfo` at `initialize`, or a 2026-07-28
 * request's envelope) reaches the host with every call, listing and instructions: what is shown
 * depends on the host (`../host_profiles.ts`). A host that declares roots is followed
 * (`host_roots.ts`) when the host carries a roots scope: every face's instance but the one per
 * request.
 *
 * @module
 */

import { ProtocolError, Server, type ServerContext } from "@modelcontextprotocol/server";
import type { McpTool } from "../../tool.ts";
import type { CallToolResultLike } from "../../tool_result.ts";
import { BOUNDED_VALIDATOR } from "../../mcp/_validator.ts";
import type { Gateway } from "../gateway.ts";
import type { ClientIdentity } from "../host_profiles.ts";
import type { RootsScope } from "../roots/hub.ts";
import {
  followHostRoots,
  type HostRootsFollower,
  type RootsAsk,
  rootsLabel,
} from "./host_roots.ts";

export type { ClientIdentity } from "../host_profiles.ts";

/** A tool as `tools/list` lists it: a catalogue entry without its server. */
export type HostedTool = Omit<McpTool, "server">;

/** One progress step of a call. */
export interface HostedProgress {
  /** How far the call is. */
  progress: number;
  /** How far it will go, when known. */
  total?: number;
  /** What it is doing. */
  message?: string;
}

/** What one call brings: who, which session, cancellation and progress. */
export interface HostedCall {
  /** The caller's namespace (a hash of its bearer token, or `""`). */
  tenant: string;
  /** The 2025-era session, when there is one (`Mcp-Session-Id`, or one per stdio connection). */
  sessionId?: string;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
  /**
   * The caller's protocol era: the result must fit that era's schema (the 2025 era's is
   * stricter: its `structuredContent` is an object). Unknown: the looser 2026-07-28 one.
   */
  era?: "legacy" | "modern";
  /** The client, when it said who it is. */
  client?: ClientIdentity;
  /** Sends progress to the client, when it asked for progress. */
  onProgress?: (progress: HostedProgress) => void;
}

/** What the server faces serve: the gateway, or anything shaped like it. */
export interface ToolHost {
  /** The server's name and version. */
  readonly serverInfo: { name: string; version: string };
  /**
   * The server instructions for a client.
   *
   * @param client The client, when it said who it is (`clientInfo` at `initialize`).
   */
  instructions(client?: ClientIdentity): string;
  /**
   * The `tools/list` answer for a client, or a promise of it (the gateway's waits for a change
   * being taken in).
   *
   * @param client The client, when it said who it is.
   */
  tools(client?: ClientIdentity): HostedTool[] | Promise<HostedTool[]>;
  /**
   * Answers a `tools/call`.
   *
   * @param name The tool's name.
   * @param args Its arguments.
   * @param call The caller, session, cancellation and progress.
   * @returns The result, or `ok: false` for a name that is no tool (a JSON-RPC error).
   */
  call(
    name: string,
    args: unknown,
    call: HostedCall,
  ): Promise<{ ok: true; result: CallToolResultLike } | { ok: false; message: string }>;
  /**
   * Listens for changes of the `tools/list` answer a client is given.
   *
   * @param listener Called after each change.
   * @param client Who is listening, when known (a getter: a face learns it at `initialize`).
   * @returns A function that stops listening.
   */
  onToolsChanged(listener: () => void, client?: () => ClientIdentity | undefined): () => void;
  /**
   * Where the hosts' roots go, when they are passed on to the upstreams (`../roots/hub.ts`).
   * @default {roots are not asked for}
   */
  readonly roots?: RootsScope;
}

/**
 * When an instance tells its client that the tools changed: after `notifications/initialized`
 * (a 2025-era connection), from the start (a 2026-07-28 stdio connection: that era has no
 * `initialized`, and the SDK hands the notification to the connection's subscriptions), or never
 * (an instance per HTTP request: the handler notifies its subscriptions itself).
 */
export type ChangeNotices = "after-initialized" | "at-once" | "never";

/** Options of {@linkcode hostServer}. */
export interface HostServerOptions {
  /** The 2025-era session the instance serves, or a way to read it once it is known. */
  session?: string | (() => string | undefined);
  /**
   * When the instance tells its client of tool changes.
   * @default {"after-initialized"}
   */
  changes?: ChangeNotices;
  /**
   * The client it serves, when known before its `initialize` is answered (the instructions depend
   * on it; once initialized, the client's own `clientInfo` is used).
   */
  client?: ClientIdentity;
  /**
   * When the instance asks its host for roots (when the host has a roots scope).
   * @default {"never" with `changes: "never"` (an instance per request), else "after-initialized"}
   */
  roots?: RootsAsk;
  /** Receives what follows the host's roots, for a face that asks itself (`"when-asked"`). */
  onRoots?: (follower: HostRootsFollower) => void;
}

/**
 * Wraps a gateway for the server faces (the session key is the caller's tenant and its session).
 *
 * @param gateway The gateway.
 * @param version The version the server reports.
 * @param roots Where its hosts' roots go, when they are passed on.
 * @returns The host.
 *
 * @example Usage
 * ```ts ignore
 * import { gatewayHost } from "./server.ts";
 * import { createMcpHttpHandler } from "./http.ts";
 *
 * const { handle } = createMcpHttpHandler(gatewayHost(gateway, "0.1.0"), { sessions: { kind: "memory" } });
 * ```
 */
export function gatewayHost(gateway: Gateway, version: string, roots?: RootsScope): ToolHost {
  return {
    ...(roots === undefined ? {} : { roots }),
    serverInfo: { name: "unfold", version },
    instructions: (client) => gateway.instructions(client),
    // Once every upstream change seen so far is taken in: a host that lists right after a call
    // failed on a lost server reads the overview that says so, not the one before.
    tools: (client) => gateway.settled().then(() => gateway.tools(client)),
    call: (name, args, call) =>
      gateway.call(name, args, {
        signal: call.signal,
        ...(call.client === undefined ? {} : { client: call.client }),
        ...(call.era === undefined ? {} : { era: call.era }),
        ...(call.sessionId === undefined
          ? {}
          : { session: { tenant: call.tenant, session: call.sessionId } }),
        ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
      }),
    onToolsChanged: (listener, client) => gateway.onToolsChanged(listener, client),
  };
}

// JSON-RPC invalid params: the answer to a name that is no tool.
const UNKNOWN_TOOL = -32_602;
const CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo";

/**
 * Makes one SDK server instance over a host: `tools/list`, `tools/call` with progress and
 * cancellation, the host's instructions, and `list_changed` while it is connected.
 *
 * @param host The tools.
 * @param options The session it serves and when it tells of changes.
 * @returns The server, not yet connected.
 *
 * @example Usage
 * ```ts
 * import { hostServer } from "./server.ts";
 * import { InMemoryTransport } from "@modelcontextprotocol/server";
 * import { Client } from "@modelcontextprotocol/client";
 * import { equal } from "node:assert/strict";
 *
 * const server = hostServer({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "Use the echo tool",
 *   tools: () => [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
 *   call: (_name, args) => Promise.resolve({ ok: true, result: { content: [{ type: "text", text: JSON.stringify(args) }] } }),
 *   onToolsChanged: () => () => {},
 * });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const client = new Client({ name: "c", version: "1" });
 * await client.connect(clientSide);
 * const result = await client.callTool({ name: "echo", arguments: { a: 1 } });
 * equal((result.content as { text: string }[])[0]?.text, '{"a":1}');
 * await client.close();
 * ```
 */
export function hostServer(host: ToolHost, options: HostServerOptions = {}): Server {
  const server = new Server(host.serverInfo, {
    // Logging is declared for the 2025-era clients that set a level; the gateway logs nothing.
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: host.instructions(options.client),
    // The one JSON Schema validator, as the client's: bounded, and no schema compiled to code.
    jsonSchemaValidator: BOUNDED_VALIDATOR,
  });
  const session = options.session;
  // Who the client is: what it said at initialize, else what the face read before the server
  // was made (a 2026-07-28 request's own envelope comes first, per call).
  const identity = (): ClientIdentity | undefined =>
    identityOf(server.getClientVersion()) ?? options.client;
  server.setRequestHandler("tools/list", async (_request, ctx) => ({
    tools: await host.tools(clientOf(ctx) ?? identity()) as never,
  }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const sessionId = typeof session === "function" ? session() : session;
    const client = clientOf(ctx) ?? identity();
    const answer = await callTool(host, request.params, ctx, {
      tenant: ctx.http?.authInfo?.clientId ?? "",
      ...(sessionId === undefined ? {} : { sessionId }),
      signal: ctx.mcpReq.signal,
      // The instance's era (the SDK binds it per connection or request): its result schema.
      era: (server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28" ? "modern" : "legacy",
      ...(client === undefined ? {} : { client }),
    });
    if (!answer.ok) throw new ProtocolError(UNKNOWN_TOOL, answer.message);
    return answer.result as never;
  });
  let unsubscribe = () => {};
  const listen = () => {
    // A client repeating `notifications/initialized` is listened to once, not once more each time.
    unsubscribe();
    unsubscribe = host.onToolsChanged(
      () => void server.sendToolListChanged().catch(() => {}),
      identity,
    );
  };
  const changes = options.changes ?? "after-initialized";
  const ask = options.roots ?? (changes === "never" ? "never" : "after-initialized");
  // An instance per request (or one told never to ask) opens no session of the roots hub.
  const roots = host.roots === undefined || changes === "never" || ask === "never"
    ? undefined
    : followHostRoots(server, host.roots, rootsLabel(session), ask);
  if (roots !== undefined) options.onRoots?.(roots);
  if (changes === "after-initialized") {
    server.oninitialized = () => {
      listen();
      roots?.initialized();
    };
  } else {
    if (changes === "at-once") listen();
    roots?.initialized();
  }
  server.onclose = () => {
    unsubscribe();
    roots?.close();
  };
  return server;
}

/**
 * A client's identity as the gateway keeps it: its name and version, each cut to 200 characters.
 *
 * @param info What the client sent as its `clientInfo` (any value: it is the client's).
 * @returns The identity, or `undefined` when it names no client.
 *
 * @example Usage
 * ```ts
 * import { identityOf } from "./server.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * deepEqual(identityOf({ name: "claude-code", version: "2.1.0" }), { name: "claude-code", version: "2.1.0" });
 * equal(identityOf({ version: "1" }), undefined);
 * ```
 */
export function identityOf(info: unknown): ClientIdentity | undefined {
  const { name, version } = (info ?? {}) as { name?: unknown; version?: unknown };
  if (typeof name !== "string") return undefined;
  return {
    name: name.slice(0, 200),
    ...(typeof version === "string" ? { version: version.slice(0, 200) } : {}),
  };
}

// The client a 2026-07-28 request names in its envelope.
function clientOf(ctx: ServerContext): ClientIdentity | undefined {
  return identityOf(
    (ctx.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_KEY],
  );
}

// Answers a `tools/call` from a host. Progress is sent in order, and all of it before the answer:
// a client drops progress that arrives after the result.
async function callTool(
  host: ToolHost,
  request: { name: string; arguments?: unknown },
  ctx: ServerContext,
  call: Omit<HostedCall, "onProgress">,
): Promise<{ ok: true; result: CallToolResultLike } | { ok: false; message: string }> {
  const token = ctx.mcpReq._meta?.progressToken;
  let sent = Promise.resolve();
  const answer = await host.call(request.name, request.arguments ?? {}, {
    ...call,
    ...(token === undefined ? {} : {
      onProgress: (step: HostedProgress) => {
        sent = sent.then(() =>
          ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken: token, ...step },
          })
        ).catch(() => {});
      },
    }),
  });
  await sent;
  return answer;
}
