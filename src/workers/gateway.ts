/**
 * `/mcp` on the Worker: the gateway over the HTTP upstreams listed in `UNFOLD_UPSTREAMS` (the same
 * JSON as the gateway config file), and `/mcp/NAME` for each of its profiles. Code mode's scripts
 * run in a Worker Loader isolate each (the `LOADER` binding). Trusted definitions
 * need a lock file and `unfold approve`, so they are a Deno feature: the Worker runs trust off. Connections to upstreams live only as long as one listing or
 * one call (a Worker connection cannot outlive its request); listings are reused for a while.
 * 2025-era sessions are Durable Objects: the session ids and their state (described, seen,
 * counters) both live in the session's `SessionObject`.
 *
 * @module
 */

import { parseGatewayConfig, poolOptions } from "../gateway/config/parse.ts";
import { Gateway } from "../gateway/gateway.ts";
import { gatewayHost } from "../gateway/faces/server.ts";
import { openGatewayRoutes, profileTokenProblem } from "../gateway/faces/routes.ts";
import { type OnDemandPool, openOnDemandPool } from "../gateway/pool/upstreams.ts";
import {
  invalidDetail,
  setAsideServers,
  STDIO_ON_WORKER,
  unsetDetail,
  withUnavailable,
} from "../gateway/pool/unavailable.ts";
import { ownRecord } from "../utils/record.ts";
import type { HttpSettings } from "../http/settings.ts";
import { connectHttp } from "../mcp/http_client.ts";
import { createMcpHttpHandler, type SessionRegistry } from "../gateway/faces/http.ts";
import type { SessionStore } from "../session/store.ts";
import { VERSION } from "../version.ts";
import { assetRanker } from "../ranking/deno_ranker.ts";
import { RANKER_HEADER } from "../ranking/ranking_status.ts";
import { type AssetsBinding, type WorkerLoader, WorkerLoaderSandbox } from "./code_sandbox.ts";

/** The `/mcp` handler of one Worker isolate. */
export type WorkerMcp = (request: Request) => Promise<Response>;

/**
 * Builds the `/mcp` handler from the Worker's variables: the first request lists the upstreams.
 *
 * @param env The Worker's variables (`UNFOLD_UPSTREAMS`, `UNFOLD_ALLOWED_ORIGINS`) and its `ASSETS`
 * binding (the ranking data, fetched at the first request to `/mcp` or `/status`).
 * @param settings The HTTP settings (tokens).
 * @param store The Durable Object session store.
 * @returns The handler, or `undefined` when no upstreams are configured.
 * @throws {GatewayConfigError} When `UNFOLD_UPSTREAMS` is not a valid config.
 *
 * @example Usage
 * ```ts
 * import { workerMcp } from "./gateway.ts";
 * import { MemorySessionStore } from "../session/memory_store.ts";
 * import { DEFAULT_SETTINGS } from "../http/settings.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(workerMcp({}, DEFAULT_SETTINGS, new MemorySessionStore()), undefined);
 * ```
 */
export function workerMcp(
  env: Readonly<Record<string, unknown>>,
  settings: HttpSettings,
  store: SessionStore,
): WorkerMcp | undefined {
  const raw = env.UNFOLD_UPSTREAMS;
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  // Looked up by the names a config chose: `${toString}` is a variable, never Object's member.
  const strings = ownRecord(Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => typeof e[1] === "string"),
  ));
  // A server (or a profile's token) that names a variable not set is that server's problem: it
  // is unavailable, said in its state, and the others serve.
  // So is a server entry that cannot be read (`contain`).
  const parsed = parseGatewayConfig(raw, strings, { deferUnset: true, contain: true });
  // A bad UNFOLD_UPSTREAMS (outside its server entries) is the deployment's, said on every
  // request by the entry.
  if (!parsed.ok) throw parsed.error;
  const config = parsed.value;
  const awaiting = config.awaiting ?? [];
  // A stdio server is no Worker's to start: it is unavailable, the Streamable HTTP ones serve.
  const http = config.servers.filter((server) => "url" in server);
  const unavailableServers = [
    ...setAsideServers(config),
    ...config.servers.filter((server) => !("url" in server)).map(({ server }) => ({
      server,
      detail: STDIO_ON_WORKER,
    })),
  ];
  // A profile whose entry cannot be read is not served either: `/mcp/NAME` says why.
  const unavailableProfiles = new Map([
    ...(config.invalid ?? []).filter((e) => e.kind === "profile").map((e) =>
      [e.name, invalidDetail(e.error)] as const
    ),
    ...awaiting.filter((a) => a.kind === "profile").map((a) =>
      [a.name, unsetDetail(a.variables, a.error.pointer)] as const
    ),
  ]);
  const profiles = Object.values(config.options.profiles ?? {}).filter((p) =>
    !unavailableProfiles.has(p.name)
  );
  const clash = profileTokenProblem(settings.tokens, profiles);
  if (clash !== undefined) throw new TypeError(`UNFOLD_UPSTREAMS: ${clash}`);
  // The Deno default, as the API Worker ranks: its data from the static assets, once per isolate.
  const ranker = assetRanker(
    env.ASSETS as { fetch(request: Request): Promise<Response> } | undefined,
  );
  // Code mode's sandbox: an isolate per run, no outbound network (the `LOADER` binding; without
  // it the bridge offers no run).
  const code = env.LOADER === undefined ? {} : {
    sandbox: new WorkerLoaderSandbox(
      env.LOADER as WorkerLoader,
      env.ASSETS as AssetsBinding | undefined,
    ),
  };
  let ready: Promise<{ pool: OnDemandPool; handle: WorkerMcp }> | undefined;
  const start = async () => {
    const pool = withUnavailable(
      await openOnDemandPool(http, (upstream, options) => {
        if (!("url" in upstream)) throw new TypeError("Unreachable: a stdio upstream on a Worker");
        return connectHttp(upstream, options);
      }, poolOptions(config.options)),
      unavailableServers,
    );
    const gateway = await Gateway.open(pool, { options: config.options, store, ranker, ...code });
    // /mcp, /mcp/NAME (a gateway per profile over the same upstreams, its sessions under its own
    // tenant) and the page's reads, under the same checks; an isolate's counters would be a
    // fraction of the deployment's, so the Worker shows none.
    const routes = await openGatewayRoutes({
      gateway,
      host: gatewayHost(gateway, VERSION),
      pool,
      profiles,
      unavailableProfiles,
      deps: { options: config.options, store, ranker, ...code },
      serve: (host) =>
        createMcpHttpHandler(host, { sessions: { kind: "registry", registry: registryOf(store) } }),
      guard: { tokens: settings.tokens, allowedOrigins: settings.allowedOrigins },
      // The page's /explain takes what the bridge takes (UNFOLD_MAX_QUERY_CHARS).
      maxQueryChars: settings.maxQueryChars,
    });
    return {
      pool,
      // The entry sends only /mcp, /mcp/NAME and the page's reads here.
      handle: (request: Request) =>
        routes.handle(request) ??
          Promise.resolve(new Response("Not found: the MCP endpoint is /mcp\n", { status: 404 })),
    };
  };
  return async (request) => {
    ready ??= start().catch((error) => {
      ready = undefined;
      throw error;
    });
    const { pool, handle } = await ready;
    await Promise.all([pool.refresh(), ranker.loaded()]);
    // Which ranker answered, on every response (a stream's headers are copied, not mutated).
    const response = await handle(request);
    const named = new Response(response.body, response);
    named.headers.set(RANKER_HEADER, ranker.status().ranker);
    return named;
  };
}

// Session ids are the sessions of the store: initialize creates one, DELETE removes it.
function registryOf(store: SessionStore): SessionRegistry {
  // The same key the gateway's session routing uses: one Durable Object per MCP session.
  const key = (tenant: string, session: string) => ({ tenant, session });
  return {
    async create(tenant, session) {
      await store.apply(key(tenant, session), { event: { kind: "inject" } });
    },
    async exists(tenant, session) {
      return (await store.get(key(tenant, session))) !== undefined;
    },
    async delete(tenant, session) {
      return await store.delete(key(tenant, session));
    },
  };
}
