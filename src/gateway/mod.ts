/**
 * unfold's gateway: one MCP server over the MCP servers a user already has. Its `tools/list` is
 * the bridge tool (with the catalogue overview, always loaded) plus any pinned tools; executes are
 * forwarded to the upstreams with cancellation and progress; sessions remember what the model was
 * sent. Serve it over stdio (`serveHostStdio`) or Streamable HTTP (`createMcpHttpHandler`, both
 * protocol eras), or run `unfold gateway --config mcp.json` (`deno task install` puts it on the PATH).
 *
 * ```ts ignore
 * import { Gateway, gatewayHost, openLivePool, parseGatewayConfig, createMcpHttpHandler } from "./mod.ts";
 * import { MemorySessionStore } from "../session/mod.ts";
 *
 * const parsed = parseGatewayConfig(await Deno.readTextFile("mcp.json"), Deno.env.toObject());
 * if (!parsed.ok) throw new Error(parsed.error.message);
 * const config = parsed.value;
 * const pool = await openLivePool(config.servers, connector);
 * const gateway = await Gateway.open(pool, { options: config.options, store: new MemorySessionStore() });
 * const { handle } = createMcpHttpHandler(gatewayHost(gateway, "0.1.0"), { sessions: { kind: "memory" } });
 * Deno.serve((request) => handle(request, ""));
 * ```
 *
 * The exports are the functions of the steps above (`parseGatewayConfig`, `openLivePool`,
 * `Gateway`, `gatewayHost`, `createMcpHttpHandler`, `serveHostStdio`, and `guardMcp`, the HTTP
 * face's guard) and every type their parameters and results name, so that each public type names
 * only public ones (`deno doc --lint`): the configuration (`GatewayConfig`, `GatewayOptions`, the upstream entries,
 * `Profile`, `TrustMode`, the lock, `ParseOptions` and what `deferUnset` gives:
 * `AwaitingVariables`, `UnsetVariableError`), the pool (`Connector`, `PoolOptions`, `UpstreamPool`,
 * `UpstreamStatus`, snapshots), the gateway (`GatewayDeps`, `CallContext`, `CallOutcome`,
 * `Presentation`, `MissingPin`, and the host a client is: `ClientIdentity`, `KnownHost`) and the
 * faces (`ToolHost`, `McpHttpOptions`, `SessionMode`,
 * `HostStdioOptions`, and the stdio connection, `openHostStdio` and its `HostStdio`, opened before
 * the gateway so that an early end of stdin is seen) and the hosts' roots on their way to the
 * upstreams (`RootsHub`, `RootsHubOptions`, `RootsScope`, `HostRoots`, and the clock a test
 * times it by, `Scheduler`). Defaults (`STARTUP_TIMEOUT_MS`, …), the lazy pool and the
 * bridge's output schema are the CLI's and the Worker's internals: each
 * option documents its default.
 *
 * @module
 */

export type {
  AwaitingVariables,
  GatewayConfig,
  GatewayConfigResult,
  GatewayOptions,
  HttpUpstream,
  ParseOptions,
  StartMode,
  StdioUpstream,
  UpstreamConfig,
} from "./config/parse.ts";
export { GatewayConfigError, parseGatewayConfig, UnsetVariableError } from "./config/parse.ts";
export type { CallContext, CallOutcome, GatewayDeps } from "./gateway.ts";
export type { ClientIdentity, KnownHost } from "./host_profiles.ts";
export { Gateway } from "./gateway.ts";
export { gatewayHost } from "./faces/server.ts";
export type { GuardOptions } from "./faces/guard.ts";
export { guardMcp } from "./faces/guard.ts";
export type { MissingPin } from "./pinned_check.ts";
export type { Presentation, ToolDefinition } from "./presentation.ts";
export type { Profile } from "./config/profiles.ts";
export type { OAuthSettings } from "../mcp/oauth/provider.ts";
export type { TrustMode, TrustSource } from "./trust/policy.ts";
export type {
  DefinitionField,
  FieldChange,
  LegacyLockEntry,
  Lock,
  LockEntry,
  Unapproved,
} from "./trust/lock.ts";
export type {
  Connector,
  PoolForwardOptions,
  PoolOptions,
  Snapshot,
  SnapshotStore,
  UpstreamPool,
  UpstreamStatus,
} from "./pool/upstreams.ts";
export { openLivePool } from "./pool/live_pool.ts";
export type { HostedCall, HostedProgress, HostedTool, ToolHost } from "./faces/server.ts";
export type { McpHttpHandler, McpHttpOptions, SessionMode, SessionRegistry } from "./faces/http.ts";
export { createMcpHttpHandler } from "./faces/http.ts";
export type { HostStdio, HostStdioOptions } from "./faces/stdio.ts";
export type { HostRoots, RootsHubOptions, RootsScope } from "./roots/hub.ts";
export { RootsHub } from "./roots/hub.ts";
export type { Scheduler } from "../utils/deadline.ts";
export { openHostStdio, serveHostStdio } from "./faces/stdio.ts";
