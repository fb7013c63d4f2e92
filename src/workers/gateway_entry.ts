/**
 * The Cloudflare Workers entry of the gateway (`wrangler.gateway.toml`): `/mcp` over the HTTP
 * upstreams in `UNFOLD_UPSTREAMS` (DESIGN §7), beside the same HTTP API, so that
 * `GET /v1/sessions/{Mcp-Session-Id}` shows an MCP session's counters. Its own Worker: the MCP SDK
 * it needs would triple the API Worker's bundle and startup.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { problem } from "../http/problems.ts";
import { workerApi, workerEntry } from "./api.ts";
import { workerMcp } from "./gateway.ts";
import { STATUS_PATHS } from "../gateway/status.ts";

export { CatalogObject } from "./catalog_object.ts";
export { SessionObject } from "./session_object.ts";

export default workerEntry(
  startupEnv,
  (env) => {
    const api = workerApi(env);
    // undefined when UNFOLD_UPSTREAMS lists no upstreams.
    return { ...api, mcp: workerMcp(env, api.settings, api.store) };
  },
  ({ api, mcp }, request) => {
    const path = new URL(request.url).pathname;
    // With upstreams, the page's /status is the gateway's; without, the API's.
    const mcpPath = path === "/mcp" || path.startsWith("/mcp/");
    if (!mcpPath && (mcp === undefined || !STATUS_PATHS.has(path))) {
      return api.fetch(request);
    }
    return mcp === undefined
      ? problem("not_found", "There is no /mcp: set UNFOLD_UPSTREAMS to the upstreams' JSON")
      : mcp(request);
  },
);
