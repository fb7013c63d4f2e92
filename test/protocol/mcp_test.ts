/** The MCP names of `src/protocol/mcp.ts` are the SDK v2.4's own. */

import { deepEqual, equal } from "node:assert/strict";
import * as sdk from "@modelcontextprotocol/client";
import {
  LEGACY_PROTOCOL_VERSIONS,
  RELATED_TASK_META_KEY,
  SERVER_INFO_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from "../../src/protocol/mcp.ts";

Deno.test("the 2025-era protocol versions are the SDK's supported ones, in its order", () => {
  deepEqual(LEGACY_PROTOCOL_VERSIONS, sdk.SUPPORTED_PROTOCOL_VERSIONS);
  equal(LEGACY_PROTOCOL_VERSIONS[0], sdk.LATEST_PROTOCOL_VERSION);
});

Deno.test("the _meta keys are the SDK's", () => {
  equal(RELATED_TASK_META_KEY, sdk.RELATED_TASK_META_KEY);
  equal(SERVER_INFO_META_KEY, sdk.SERVER_INFO_META_KEY);
  equal(SUBSCRIPTION_ID_META_KEY, sdk.SUBSCRIPTION_ID_META_KEY);
});
