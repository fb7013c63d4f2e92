/**
 * unfold's gateway: one MCP server over the MCP servers a user already has. Its `tools/list` is
 * the bridge tool (with the catalogue overview, always loaded) plus any pinned tools; executes are
 * forwarded to the upstreams with cancellation and progress; sessions remember what the model was
 * sent. Serve it over stdio (`serveHostStdio`) or Streamable HTTP (`createMcpHttpHandler`, both
 * protocol eras), or run `unfold gateway --config mcp.json` (`deno task install` puts it on the PATH).
 *
 * ```ts ignore
 * import { Gateway, gatewayHost, openLivePool, parseGatewayConfig, createMcpHttpHandler } from "./mod.ts";
 * import { MemorySessionStore } from "../../mod.ts";
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
 * @module
 */

export type {
  GatewayConfig,
  GatewayConfigResult,
  GatewayOptions,
  HttpUpstream,
  StartMode,
  StdioUpstream,
  UpstreamConfig,
} from "./config.ts";
export type { OAuthSettings } from "../mcp/oauth/provider.ts";
export {
  GatewayConfigError,
  IDLE_TIMEOUT_MS,
  parseGatewayConfig,
  RESTART_DEFAULTS,
  START_MODES,
  STARTUP_TIMEOUT_MS,
} from "./config.ts";
export type { CallContext, CallOutcome, GatewayDeps } from "./gateway.ts";
export type { MissingPin } from "./pinned_check.ts";
export type { Profile } from "./profiles.ts";
export type { Lock, LockEntry, TrustMode, TrustSource, Unapproved } from "./trust.ts";
export { DEFAULT_TRUST, LOCK_FILE_NAME, TRUST_MODES } from "./trust.ts";
export { Gateway } from "./gateway.ts";
export { gatewayHost } from "./host.ts";
export type { GuardOptions } from "./guard.ts";
export { guardMcp } from "./guard.ts";
export type { Presentation, ToolDefinition } from "./presentation.ts";
export { ALWAYS_LOAD, BRIDGE_OUTPUT_SCHEMA, pinnedName, present } from "./presentation.ts";
export type {
  Connector,
  OnDemandPool,
  OnDemandPoolOptions,
  PoolOptions,
  Snapshot,
  SnapshotStore,
  UpstreamPool,
  UpstreamStatus,
} from "./upstreams.ts";
export { openLivePool } from "./live_pool.ts";
export { openOnDemandPool } from "./upstreams.ts";
export type {
  HostedCall,
  HostedTool,
  McpHttpHandler,
  McpHttpOptions,
  SessionMode,
  SessionRegistry,
  ToolHost,
} from "./face.ts";
export { createMcpHttpHandler } from "./face.ts";
export type { HostStdioOptions } from "./stdio_face.ts";
export { serveHostStdio } from "./stdio_face.ts";
export type { StdioWire, StdioWireOptions } from "./stdio_wire.ts";
export { MAX_HOST_MESSAGE_BYTES, openStdioWire } from "./stdio_wire.ts";
