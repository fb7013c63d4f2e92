/**
 * The Cloudflare Workers entry of the gateway (`wrangler.gateway.toml`): `/mcp` over the HTTP
 * upstreams in `UNFOLD_UPSTREAMS` (DESIGN §7). Every other path (`/v1`, `/openapi.json`,
 * `/healthz`) is the API Worker's, reached through the `API` service binding; the sessions are the
 * API Worker's Durable Objects (`SESSIONS` bound with its `script_name`), so
 * `GET /v1/sessions/{Mcp-Session-Id}` shows an MCP session's counters. Its own Worker: the MCP SDK
 * it needs would triple the API Worker's bundle and startup.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { problem } from "../http/problems.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { forwardToApi, withApiSessions } from "./api_binding.ts";
import { DurableSessionStore, type SessionNamespace } from "./durable_store.ts";
import { workerMcp } from "./gateway.ts";
import { workerEntry } from "./worker_entry.ts";
import { STATUS_PATHS } from "../gateway/faces/status.ts";

// Exported though no binding of this Worker names them: a gateway deployed before it bound the API
// Worker's objects keeps its classes (its migrations name them), and their alarms expire what
// those old objects hold. Retired: nothing can call them, so only their alarms are bundled.
export {
  RetiredCatalogObject as CatalogObject,
  RetiredSessionObject as SessionObject,
} from "./retired_objects.ts";

export default workerEntry(
  startupEnv,
  (env) => {
    const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
    // undefined when UNFOLD_UPSTREAMS lists no upstreams.
    const mcp = workerMcp(env, settingsFromEnv(env), store);
    return { api: forwardToApi(env), mcp: mcp && withApiSessions(mcp) };
  },
  ({ api, mcp }, request) => {
    const path = new URL(request.url).pathname;
    // With upstreams, the page's /status is the gateway's; without, the API's.
    const mcpPath = path === "/mcp" || path.startsWith("/mcp/");
    if (!mcpPath && (mcp === undefined || !STATUS_PATHS.has(path))) return api(request);
    return mcp === undefined
      ? problem("not_found", "There is no /mcp: set UNFOLD_UPSTREAMS to the upstreams' JSON")
      : mcp(request);
  },
);
