/**
 * The MCP names both sides speak without the SDK: the client of an upstream (`src/mcp/`) and the
 * gateway's stdio server (`src/gateway/`). Each is the MCP SDK v2.4's own, written out so that
 * neither side loads the SDK for it (`test/protocol/mcp_test.ts` holds them equal).
 *
 * @module
 */

/**
 * The 2025-era protocol versions, newest first: the SDK v2.4's `SUPPORTED_PROTOCOL_VERSIONS`. The
 * client offers the first and accepts any; the server answers an `initialize` with the version
 * asked for when it is listed, else the first.
 *
 * @example Usage
 * ```ts
 * import { LEGACY_PROTOCOL_VERSIONS } from "./mcp.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(LEGACY_PROTOCOL_VERSIONS[0], "2025-11-25");
 * ```
 */
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/**
 * The `_meta` key of the task a message belongs to (2025-11-25).
 *
 * @example Usage
 * ```ts
 * import { RELATED_TASK_META_KEY } from "./mcp.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(RELATED_TASK_META_KEY, "io.modelcontextprotocol/related-task");
 * ```
 */
export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";

/**
 * The `_meta` key where a 2026-07-28 result names its server.
 *
 * @example Usage
 * ```ts
 * import { SERVER_INFO_META_KEY } from "./mcp.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(SERVER_INFO_META_KEY, "io.modelcontextprotocol/serverInfo");
 * ```
 */
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";

/**
 * The `_meta` key naming the subscription a 2026-07-28 `subscriptions/listen` message is about.
 *
 * @example Usage
 * ```ts
 * import { SUBSCRIPTION_ID_META_KEY } from "./mcp.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(SUBSCRIPTION_ID_META_KEY, "io.modelcontextprotocol/subscriptionId");
 * ```
 */
export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId";
