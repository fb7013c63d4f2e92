/**
 * The gateway's Streamable HTTP face, on the MCP SDK's server side (v2, which speaks both
 * protocol eras): the instance of `server.ts` per session or request, 2025-era sessions with
 * `Mcp-Session-Id` (in memory, or in a registry such as the Workers' Durable Objects) and
 * 2026-07-28 stateless requests. Runtime-neutral (web-standard Request/Response); stdio is in
 * `stdio.ts`.
 *
 * @module
 */

import {
  createMcpHandler,
  isLegacyRequest,
  legacyStatelessFallback,
  type McpRequestContext,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { type ClientIdentity, hostServer, identityOf, type ToolHost } from "./server.ts";
import type { HostRootsFollower } from "./host_roots.ts";

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
  const modern = createMcpHandler(() => hostServer(host, { changes: "never" }), {
    legacy: "reject",
    onerror,
  });
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
  const sessions = new Map<
    string,
    { tenant: string; transport: Transport; roots?: HostRootsFollower }
  >();
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
        const response = await session.transport.handleRequest(request, { authInfo });
        // The GET stream is how a request outside a call reaches the host: its roots are asked
        // for once it is open (and again on each reconnection).
        if (request.method === "GET" && response.ok) session.roots?.ask();
        return response;
      }
      if (request.method !== "POST") {
        return rpcError(400, "Bad Request: Mcp-Session-Id header is required");
      }
      let roots: HostRootsFollower | undefined;
      const transport: Transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, { tenant, transport, ...(roots === undefined ? {} : { roots }) });
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
      const client = await clientOf(request);
      const server = hostServer(host, {
        session: () => transport.sessionId,
        ...(client === undefined ? {} : { client }),
        roots: "when-asked",
        onRoots: (follower) => roots = follower,
      });
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
    // An instance per request: no stream to ask the host for roots on.
    return hostServer(host, { roots: "never", ...(id === undefined ? {} : { session: id }) });
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

// The clientInfo of an initialize request, read from a copy of its body (bounded by the SDK's
// own reading of it: a body it refuses gives no client here either).
async function clientOf(request: Request): Promise<ClientIdentity | undefined> {
  try {
    const body = await request.clone().json();
    return body?.method === "initialize" ? identityOf(body.params?.clientInfo) : undefined;
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
