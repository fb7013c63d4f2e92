/**
 * The raw Streamable HTTP wire, for tests that hold the HTTP requests themselves (an SDK client
 * would hide the streams, statuses and headers they check).
 *
 * @module
 */

/** The headers of a JSON-RPC POST to an MCP endpoint. */
export const MCP_POST_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/**
 * The body of an `initialize` request (JSON-RPC id 1).
 *
 * @param protocolVersion The version the client asks for.
 * @param name The client's name.
 * @returns The JSON text.
 */
export function initializeBody(protocolVersion = "2025-06-18", name = "test"): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name, version: "1.0.0" } },
  });
}
