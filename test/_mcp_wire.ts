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

/** The 2026-07-28 protocol revision. */
export const MODERN = "2026-07-28";

/** The per-request `_meta` envelope of a 2026-07-28 request. */
export const MODERN_ENVELOPE: Readonly<Record<string, unknown>> = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "protocol-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * The JSON-RPC message a POST was answered with: a JSON body, or the last data line of an SSE one.
 *
 * @param response The answer.
 * @returns The message.
 */
export async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  const body = text.trimStart().startsWith("{")
    ? text
    : text.split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6);
  return JSON.parse(body);
}

/**
 * POSTs one stateless 2026-07-28 request: the envelope in `_meta` and the routing headers.
 *
 * @param url The `/mcp` URL.
 * @param method The method.
 * @param params Its params (the envelope is added).
 * @param name The `Mcp-Name` header (a tool's name), if any.
 * @returns The answer, unread.
 */
export function postModern(
  url: string,
  method: string,
  params: Record<string, unknown> = {},
  name?: string,
): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      ...MCP_POST_HEADERS,
      "mcp-protocol-version": MODERN,
      "mcp-method": method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: { ...params, _meta: { ...MODERN_ENVELOPE, ...(params._meta as object) } },
    }),
  });
}

/**
 * What a 2026-07-28 server sends for a `subscriptions/listen` to nothing it offers: the
 * acknowledgement naming no notification, then the subscription's end at once.
 */
export function emptySubscriptionAnswers(
  id: number,
  serverInfo: { name: string; version: string },
): Record<string, unknown>[] {
  return [
    {
      jsonrpc: "2.0",
      method: "notifications/subscriptions/acknowledged",
      params: { notifications: {}, _meta: { "io.modelcontextprotocol/subscriptionId": id } },
    },
    {
      jsonrpc: "2.0",
      id,
      result: {
        resultType: "complete",
        _meta: {
          "io.modelcontextprotocol/subscriptionId": id,
          "io.modelcontextprotocol/serverInfo": serverInfo,
        },
      },
    },
  ];
}
