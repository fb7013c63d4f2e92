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
 * Why these names: an embedder does exactly the steps above, so the export list is those
 * functions (`parseGatewayConfig`, `openLivePool`, `Gateway`, `gatewayHost`,
 * `createMcpHttpHandler`, `serveHostStdio`, `guardMcp` for the HTTP face's guard) and the types
 * their parameters and results name (`deno doc --lint` fails on a public type that names an
 * unexported one): the configuration (`GatewayConfig`, `GatewayOptions`, the upstream entries,
 * `Profile`, `TrustMode`, the lock, `ParseOptions` and what `deferUnset` gives:
 * `AwaitingVariables`, `UnsetVariableError`), the pool (`Connector`, `PoolOptions`, `UpstreamPool`,
 * `UpstreamStatus`, snapshots), the gateway (`GatewayDeps`, `CallContext`, `CallOutcome`,
 * `Presentation`, `MissingPin`, the host it serves: `ClientIdentity`, `KnownHost`) and the faces (`ToolHost`, `McpHttpOptions`, `SessionMode`,
 * `HostStdioOptions`). Defaults (`STARTUP_TIMEOUT_MS`, …), the lazy pool, the stdio wire's
 * builder and the bridge's output schema are the CLI's and the Worker's internals: each
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
export { gatewayHost } from "./faces/host.ts";
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
export type {
  HostedCall,
  HostedTool,
  McpHttpHandler,
  McpHttpOptions,
  SessionMode,
  SessionRegistry,
  ToolHost,
} from "./faces/http.ts";
export { createMcpHttpHandler } from "./faces/http.ts";
export type { HostStdioOptions } from "./faces/stdio.ts";
export { serveHostStdio } from "./faces/stdio.ts";
export type { StdioWire } from "./faces/stdio_wire.ts";
