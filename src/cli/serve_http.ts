/**
 * `unfold gateway --http`: the gateway served as Streamable HTTP on one address. `/mcp` is the
 * gateway, `/mcp/NAME` each profile's own, and what the page (`/`) reads (`/status`, `/view`,
 * `/explain`) sits behind the same origin and token checks (`gateway_routes.ts`).
 *
 * @module
 */

import { serveWithDeliverySignal } from "../deno/delivery_signal.ts";
import { createMcpHttpHandler } from "../gateway/faces/http.ts";
import type { ToolHost } from "../gateway/faces/server.ts";
import type { Gateway, GatewayDeps } from "../gateway/gateway.ts";
import { openGatewayRoutes } from "../gateway/faces/routes.ts";
import { type Profile, profileSeesServer } from "../gateway/config/profiles.ts";
import type { RootsHub } from "../gateway/roots/hub.ts";
import type { LiveCounters } from "../gateway/faces/status.ts";
import type { UpstreamPool } from "../gateway/pool/upstreams.ts";
import { isLoopbackName } from "../http/guard.ts";
import { pageHandler } from "../http/page.ts";
import type { HttpSettings } from "../http/settings.ts";
import { bounded, CLOSE_BUDGET_MS } from "./_closing.ts";
import type { Result } from "../result.ts";

// What the page's line adds when the routes it reads need a token.
const PAGE_TOKEN_NOTE =
  " (it asks for a token: UNFOLD_API_TOKEN's, or a profile's own for that profile alone)";

/** What {@linkcode serveHttp} serves, and where. */
export interface HttpSources {
  /** The gateway as the MCP face sees it. */
  host: ToolHost;
  /** The gateway, for the page's routes. */
  gateway: Gateway;
  /** Its upstreams, which the profiles' gateways share. */
  pool: UpstreamPool;
  /** The profiles served at `/mcp/NAME` (none when the command serves one profile). */
  profiles: readonly Profile[];
  /** The config's profiles not served, with why (`GatewayRouteSources.unavailableProfiles`). */
  unavailableProfiles?: ReadonlyMap<string, string>;
  /** The profile the command serves alone (`--profile`), which `/status` names. */
  servedProfile?: string;
  /** What each profile's gateway is opened with. */
  deps: Omit<GatewayDeps, "profile">;
  /** The live counters the page shows. */
  counters: LiveCounters;
  /** Tokens, origins, sessions and query limits. */
  settings: Pick<HttpSettings, "tokens" | "allowedOrigins" | "maxSessions" | "maxQueryChars">;
  /** The address. */
  listen: { hostname: string; port: number };
  /** Where lines go (the address once listening, errors of the faces). */
  log: (line: string) => void;
  /**
   * Where the hosts' roots go: each profile's sessions in the scope of the servers it sees
   * (`host` carries the scope of `/mcp`).
   * @default {roots are not passed on}
   */
  roots?: RootsHub;
}

/** A gateway being served. */
export interface HttpServing {
  /** Rebuilds the profiles' gateways (after new approvals). */
  refresh: () => Promise<void>;
  /** Stops serving, within the close budget. */
  close: () => Promise<void>;
}

/**
 * Serves the gateway over Streamable HTTP.
 *
 * @param sources The gateway, its profiles, the settings and the address.
 * @returns The serving gateway, or the one line saying why the address cannot be served (in use,
 * not permitted): its faces are closed then.
 *
 * @example Usage
 * ```ts
 * import { serveHttp } from "./serve_http.ts";
 * import { Gateway } from "../gateway/gateway.ts";
 * import { gatewayHost } from "../gateway/faces/server.ts";
 * import { CountingStore } from "../gateway/faces/status.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const store = new CountingStore(new MemorySessionStore());
 * const deps = { options: { pinned: [] }, store };
 * const gateway = await Gateway.open(pool, deps);
 * const lines: string[] = [];
 * const served = await serveHttp({
 *   host: gatewayHost(gateway, "1.0.0"),
 *   gateway,
 *   pool,
 *   profiles: [],
 *   deps,
 *   counters: store.counters,
 *   settings: { tokens: [], allowedOrigins: [], maxSessions: 10, maxQueryChars: 1000 },
 *   listen: { hostname: "127.0.0.1", port: 0 },
 *   log: (line) => lines.push(line),
 * });
 * equal(served.ok, true);
 * match(lines[0] ?? "", /^serving 1 tools at http:\/\/127\.0\.0\.1:\d+\/mcp/);
 * match(lines[1] ?? "", /^the page: http:\/\/127\.0\.0\.1:\d+\/$/);
 * if (served.ok) await served.value.close();
 * await gateway.close();
 * ```
 */
export async function serveHttp(
  sources: HttpSources,
): Promise<Result<HttpServing, string>> {
  const { gateway, settings, listen: address, log } = sources;
  const sessions = {
    sessions: { kind: "memory" as const, maxSessions: settings.maxSessions },
    onError: (e: Error) => log(e.message),
  };
  // /mcp, /mcp/NAME (one gateway per profile over the same upstreams) and the page's reads.
  const routes = await openGatewayRoutes({
    gateway,
    host: sources.host,
    pool: sources.pool,
    profiles: sources.profiles,
    ...(sources.unavailableProfiles === undefined
      ? {}
      : { unavailableProfiles: sources.unavailableProfiles }),
    ...(sources.servedProfile === undefined ? {} : { servedProfile: sources.servedProfile }),
    deps: sources.deps,
    serve: (host, profile) => {
      const roots = sources.roots;
      // A profile's hosts' roots reach the servers the profile sees.
      const scoped = roots === undefined || profile === undefined
        ? host
        : { ...host, roots: roots.scope((server) => profileSeesServer(profile, server)) };
      return createMcpHttpHandler(scoped, sessions);
    },
    guard: {
      tokens: settings.tokens,
      allowedOrigins: settings.allowedOrigins,
      loopbackOnly: isLoopbackName(address.hostname),
    },
    counters: sources.counters,
    maxQueryChars: settings.maxQueryChars,
  });
  const page = pageHandler();
  const tokenNeeded = settings.tokens.length > 0 || sources.profiles.some((p) => p.tokens);
  let server;
  try {
    server = serveWithDeliverySignal({
      port: address.port,
      hostname: address.hostname,
      onListen: ({ hostname, port }) => {
        const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
        log(`serving ${gateway.catalog.size} tools at http://${shown}:${port}/mcp`);
        // Said here because the page's files open without a token and only its reads need one.
        log(`the page: http://${shown}:${port}/${tokenNeeded ? PAGE_TOKEN_NOTE : ""}`);
      },
    }, async (request) => {
      return (await routes.handle(request)) ?? (await page(request)) ??
        new Response("Not found: the MCP endpoint is /mcp, the page is /\n", { status: 404 });
    });
  } catch (error) {
    // A port taken or refused is the user's to change: one line, and the faces closed.
    const taken = error instanceof Deno.errors.AddrInUse;
    if (!taken && !(error instanceof Deno.errors.PermissionDenied)) throw error;
    await bounded(routes.close(), CLOSE_BUDGET_MS);
    return {
      ok: false,
      error: `cannot serve on ${address.hostname}:${address.port}: ${
        taken ? "the port is in use" : "not permitted"
      }; choose another with --port (0 takes any free one)`,
    };
  }
  const running = server;
  return {
    ok: true,
    value: {
      refresh: routes.refresh,
      close: () => bounded(Promise.all([routes.close(), running.shutdown()]), CLOSE_BUDGET_MS),
    },
  };
}
