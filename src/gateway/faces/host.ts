/**
 * The gateway as a {@linkcode ToolHost}: what the MCP server faces serve (the session key is the
 * caller's tenant and its `Mcp-Session-Id`).
 *
 * @module
 */

import type { ToolHost } from "../tool_host.ts";
import type { Gateway } from "../gateway.ts";

/**
 * Wraps a gateway for the server faces.
 *
 * @param gateway The gateway.
 * @param version The version the server reports.
 * @returns The host.
 *
 * @example Usage
 * ```ts ignore
 * import { gatewayHost } from "./host.ts";
 * import { createMcpHttpHandler } from "./http.ts";
 *
 * const { handle } = createMcpHttpHandler(gatewayHost(gateway, "0.1.0"), { sessions: { kind: "memory" } });
 * ```
 */
export function gatewayHost(gateway: Gateway, version: string): ToolHost {
  return {
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
