/**
 * The server faces of the gateway, over the MCP SDK's server side (v2, which speaks both protocol
 * eras): a server instance per connection or session, Streamable HTTP for both eras (2025-era
 * sessions with `Mcp-Session-Id`, 2026-07-28 stateless requests), with the tools coming from a
 * {@linkcode ToolHost}. Runtime-neutral (web-standard Request/Response); stdio is in
 * `stdio_face.ts`.
 *
 * @module
 */

import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  type McpRequestContext,
  ProtocolError,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { answerToolCall, type ClientIdentity, type ToolHost } from "../tool_host.ts";

export type { ClientIdentity, HostedCall, HostedTool, ToolHost } from "../tool_host.ts";

/**
 * Makes one SDK server instance over a host: `tools/list`, `tools/call` with progress and
 * cancellation, the host's instructions, and `list_changed` while it is connected.
 *
 * @param host The tools.
 * @param session The 2025-era session it serves, if any.
 * @param client The client it serves, when known before its `initialize` is answered (the
 * instructions depend on it; once initialized, the client's own `clientInfo` is used).
 * @returns The server, not yet connected.
 *
 * @example Usage
 * ```ts
 * import { hostServer } from "./http.ts";
 * import { ok } from "node:assert/strict";
 *
 * const server = hostServer({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "Use the echo tool",
 *   tools: () => [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
 *   call: (_name, args) => Promise.resolve({ ok: true, result: { content: [{ type: "text", text: JSON.stringify(args) }] } }),
 *   onToolsChanged: () => () => {},
 * });
 * ok(server);
 * ```
 */
export function hostServer(host: ToolHost, session?: string, client?: ClientIdentity): Server {
  const server = new Server(host.serverInfo, {
    // Logging is declared for the 2025-era clients that set a level; the gateway logs nothing.
    capabilities: { tools: { listChanged: true }, logging: {} },
    instructions: host.instructions(client),
  });
  // Who the client is: what it said at initialize (or in its 2026-07-28 envelope), else the
  // identity the face read before the server was made.
  const identity = (): ClientIdentity | undefined => {
    const info = server.getClientVersion();
    return info === undefined ? client : { name: info.name, version: info.version };
  };
  server.setRequestHandler("tools/list", async () => ({
    tools: await host.tools(identity()) as never,
  }));
  server.setRequestHandler("tools/call", async (request, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    const answer = await answerToolCall(
      host,
      request.params,
      {
        tenant: ctx.http?.authInfo?.clientId ?? "",
        ...(session === undefined ? {} : { sessionId: session }),
        signal: ctx.mcpReq.signal,
        ...(identity() === undefined ? {} : { client: identity()! }),
        // The instance's era (the SDK binds it per connection or request): its result schema.
        era: (server.getNegotiatedProtocolVersion() ?? "") >= "2026-07-28" ? "modern" : "legacy",
      },
      token === undefined
        ? undefined
        : { token, notify: (note) => ctx.mcpReq.notify(note as never) },
    );
    if (!answer.ok) throw new ProtocolError(answer.code, answer.message);
    return answer.result as never;
  });
  let unsubscribe = () => {};
  server.oninitialized = () => {
    // A client repeating `notifications/initialized` is listened to once, not once more each time.
    unsubscribe();
    unsubscribe = host.onToolsChanged(
      () => void server.sendToolListChanged().catch(() => {}),
      identity,
    );
  };
  server.onclose = () => unsubscribe();
  return server;
}

/** Where 2025-era HTTP sessions live. */
export type SessionMode =
  | { kind: "memory"; maxSessions?: number }
  | { kind: "registry"; registry: SessionRegistry };

/**
 * Session ids kept outside the process (a Durable Object per session on Workers): each 2025-era
 * request is then served by a fresh server instance, and the GET stream is not offered.
 */
export interface SessionRegistry {
  /** Records a new session. */
  create(tenant: string, session: string): Promise<void>;
  /** Whether a session is live. */
  exists(tenant: string, session: string): Promise<boolean>;
  /** Ends a session; whether it was live. */
  delete(tenant: string, session: string): Promise<boolean>;
}

/** Serves `/mcp` for one tenant's request. */
export type McpHttpHandler = (request: Request, tenant: string) => Promise<Response>;

/** Options of {@linkcode createMcpHttpHandler}. */
export interface McpHttpOptions {
  /** Where 2025-era sessions live. */
  sessions: SessionMode;
  /**
   * Reports errors that are not the caller's.
   * @default {ignore}
   */
  onError?: (error: Error) => void;
}

const DEFAULT_MAX_SESSIONS = 1_000;

/**
 * The Streamable HTTP handler of `/mcp`: 2026-07-28 requests are stateless (one server instance
 * per request); 2025-era requests get sessions (`Mcp-Session-Id`, GET stream for
 * `list_changed`, DELETE) in memory, or in a registry.
 *
 * @param host The tools.
 * @param options Where sessions live.
 * @returns The handler, and `close()` that ends every session.
 *
 * @example Usage
 * ```ts
 * import { createMcpHttpHandler } from "./http.ts";
 * import { equal } from "node:assert/strict";
 *
 * const { handle, close } = createMcpHttpHandler({
 *   serverInfo: { name: "demo", version: "1.0.0" },
 *   instructions: () => "",
 *   tools: () => [],
 *   call: () => Promise.resolve({ ok: false, message: "no tools" }),
 *   onToolsChanged: () => () => {},
 * }, { sessions: { kind: "memory" } });
 * const response = await handle(new Request("http://localhost/mcp", { method: "GET" }), "");
 * equal(response.status, 400); // a GET needs a session
 * await close();
 * ```
 */
export function createMcpHttpHandler(
  host: ToolHost,
  options: McpHttpOptions,
): { handle: McpHttpHandler; close: () => Promise<void> } {
  const onerror = options.onError ?? (() => {});
  const modern = createMcpHandler(() => hostServer(host), { legacy: "reject", onerror });
  const unsubscribe = host.onToolsChanged(() => modern.notify.toolsChanged());
  const legacy = options.sessions.kind === "memory"
    ? memorySessions(host, options.sessions.maxSessions ?? DEFAULT_MAX_SESSIONS)
    : registrySessions(host, options.sessions.registry, onerror);
  return {
    async handle(request, tenant) {
      const authInfo = { token: "", clientId: tenant, scopes: [] };
      if (request.method === "POST" && !(await isUtf8(request))) {
        return rpcError(400, "Parse error: the request body is not UTF-8", -32_700);
      }
      if (request.method === "POST" && !(await isLegacyRequest(request))) {
        return modern.fetch(request, { authInfo });
      }
      return legacy.handle(request, tenant);
    },
    async close() {
      unsubscribe();
      await legacy.close();
      await modern.close();
    },
  };
}

interface LegacySessions {
  handle(request: Request, tenant: string): Promise<Response>;
  close(): Promise<void>;
}

// The SDK's sessionful transport, one per session, held in this process. Past the limit the
// tenant holding the most sessions gives up its least recently used one: a tenant opening
// sessions in a loop evicts its own, never another's that is in use.
function memorySessions(host: ToolHost, maxSessions: number): LegacySessions {
  type Transport = WebStandardStreamableHTTPServerTransport;
  const sessions = new Map<string, { tenant: string; transport: Transport }>();
  // Each tenant's sessions, least recently used first.
  const byTenant = new Map<string, Map<string, Transport>>();
  const forget = (sid: string) => {
    const session = sessions.get(sid);
    if (session === undefined) return;
    sessions.delete(sid);
    const own = byTenant.get(session.tenant);
    own?.delete(sid);
    if (own?.size === 0) byTenant.delete(session.tenant);
  };
  const touch = (sid: string, tenant: string, transport: Transport) => {
    let own = byTenant.get(tenant);
    if (own === undefined) byTenant.set(tenant, own = new Map());
    own.delete(sid);
    own.set(sid, transport);
  };
  const evict = () => {
    let largest: Map<string, Transport> | undefined;
    for (const own of byTenant.values()) if (own.size > (largest?.size ?? 0)) largest = own;
    const oldest = largest?.entries().next().value;
    if (oldest === undefined) return;
    forget(oldest[0]);
    void oldest[1].close();
  };
  return {
    async handle(request, tenant) {
      const authInfo = { token: "", clientId: tenant, scopes: [] };
      const id = request.headers.get("mcp-session-id");
      if (id !== null) {
        const session = sessions.get(id);
        if (session === undefined || session.tenant !== tenant) return sessionNotFound();
        touch(id, tenant, session.transport);
        return await session.transport.handleRequest(request, { authInfo });
      }
      if (request.method !== "POST") {
        return rpcError(400, "Bad Request: Mcp-Session-Id header is required");
      }
      const transport: Transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, { tenant, transport });
          touch(sid, tenant, transport);
          while (sessions.size > maxSessions) evict();
        },
        onsessionclosed: (sid) => forget(sid),
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) forget(transport.sessionId);
      };
      // The session id is known only once initialize is handled: the server reads it per call.
      // The instructions depend on the client, named in the initialize this request carries.
      const server = hostServerFor(host, () => transport.sessionId, await clientOf(request));
      await server.connect(transport);
      return await transport.handleRequest(request, { authInfo });
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      byTenant.clear();
      await Promise.all(open.map((session) => session.transport.close()));
    },
  };
}

// Sessions whose ids live in a registry: every request gets a fresh stateless instance.
function registrySessions(
  host: ToolHost,
  registry: SessionRegistry,
  onerror: (error: Error) => void,
): LegacySessions {
  const serve = legacyStatelessFallback((ctx: McpRequestContext) => {
    const id = ctx.requestInfo?.headers.get("mcp-session-id") ?? undefined;
    return hostServer(host, id ?? undefined);
  }, onerror);
  return {
    async handle(request, tenant) {
      const authInfo = { token: "", clientId: tenant, scopes: [] };
      const id = request.headers.get("mcp-session-id");
      if (request.method === "DELETE") {
        if (id === null) return rpcError(400, "Bad Request: Mcp-Session-Id header is required");
        return (await registry.delete(tenant, id))
          ? new Response(null, { status: 204 })
          : sessionNotFound();
      }
      if (request.method !== "POST") {
        return new Response(null, { status: 405, headers: { allow: "POST, DELETE" } });
      }
      if (id !== null) {
        if (!(await registry.exists(tenant, id))) return sessionNotFound();
        return await serve(request, { authInfo });
      }
      if (!(await isInitialize(request))) {
        return rpcError(400, "Bad Request: Mcp-Session-Id header is required");
      }
      const session = crypto.randomUUID();
      const response = await serve(request, { authInfo });
      if (!response.ok) return response;
      await registry.create(tenant, session);
      const answered = new Headers(response.headers);
      answered.set("mcp-session-id", session);
      return new Response(response.body, { status: response.status, headers: answered });
    },
    close: () => Promise.resolve(),
  };
}

function hostServerFor(
  host: ToolHost,
  session: () => string | undefined,
  client?: ClientIdentity,
): Server {
  return hostServer(
    {
      serverInfo: host.serverInfo,
      instructions: (who) => host.instructions(who),
      tools: (who) => host.tools(who),
      call: (name, args, call) => {
        const id = session();
        return host.call(name, args, id === undefined ? call : { ...call, sessionId: id });
      },
      onToolsChanged: (listener, who) => host.onToolsChanged(listener, who),
    },
    undefined,
    client,
  );
}

// The clientInfo of an initialize request, read from a copy of its body (bounded by the SDK's
// own reading of it: a body it refuses gives no client here either).
async function clientOf(request: Request): Promise<ClientIdentity | undefined> {
  try {
    const body = await request.clone().json();
    const info = body?.method === "initialize" ? body.params?.clientInfo : undefined;
    if (typeof info?.name !== "string") return undefined;
    return {
      name: info.name.slice(0, 200),
      ...(typeof info.version === "string" ? { version: info.version.slice(0, 200) } : {}),
    };
  } catch {
    return undefined;
  }
}

async function isInitialize(request: Request): Promise<boolean> {
  try {
    const body = await request.clone().json();
    return typeof body === "object" && body !== null && body.method === "initialize";
  } catch {
    return false;
  }
}

// Whether a body's bytes are UTF-8, as JSON text is (RFC 8259): the SDK decodes leniently, turning
// other bytes into U+FFFD, so that a tool name or an argument would reach the host changed. A body
// that cannot be read is left to the SDK, which says so.
async function isUtf8(request: Request): Promise<boolean> {
  let bytes: ArrayBuffer;
  try {
    bytes = await request.clone().arrayBuffer();
  } catch {
    return true;
  }
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

function sessionNotFound(): Response {
  return rpcError(404, "Session not found");
}

function rpcError(status: number, message: string, code = -32_000): Response {
  return new Response(
    JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }),
    { status, headers: { "content-type": "application/json" } },
  );
}
