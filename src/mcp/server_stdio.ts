/**
 * The gateway's stdio face: one MCP server over the process's stdin and stdout, for desktop hosts
 * that launch their servers (Deno and Node only). One session per connection.
 *
 * @module
 */

import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { hostServer, type ToolHost } from "./server.ts";

/**
 * Serves a host over stdio until stdin closes. Everything but protocol messages must go to
 * stderr.
 *
 * @param host The tools.
 * @param options `onError` receives transport errors; `onClose` runs when the client goes away.
 * @returns A handle whose `close()` ends the connection.
 *
 * @example Usage
 * ```ts ignore
 * import { serveHostStdio } from "./server_stdio.ts";
 *
 * serveHostStdio(gateway, { onClose: () => gateway.close() });
 * ```
 */
export function serveHostStdio(
  host: ToolHost,
  options: { onError?: (error: Error) => void; onClose?: () => void } = {},
): { close(): Promise<void> } {
  const session = crypto.randomUUID();
  return serveStdio(() => {
    const server = hostServer(host, session);
    // The entry may build an instance for a discovery probe and discard it: only the instance
    // the client initialized ends the connection when it closes.
    let initialized = false;
    const ready = server.oninitialized;
    server.oninitialized = () => {
      initialized = true;
      ready?.();
    };
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      if (initialized) options.onClose?.();
    };
    return server;
  }, { ...(options.onError ? { onerror: options.onError } : {}) });
}
