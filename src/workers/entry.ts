/**
 * The Cloudflare Workers entry: the HTTP API with sessions in Durable Objects. Configure with
 * `UNFOLD_*` variables (secrets for `UNFOLD_API_TOKEN`) and the `SESSIONS` binding in wrangler.toml.
 *
 * @module
 */

import { createApp, type UnfoldApp } from "../http/app.ts";
import { problem } from "../http/problems.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { DurableSessionStore, type SessionNamespace } from "./durable_store.ts";
import { type WorkerMcp, workerMcp } from "./gateway.ts";

export { SessionObject } from "./session_object.ts";

let app: UnfoldApp | undefined;
let mcp: WorkerMcp | undefined;

export default {
  /**
   * Serves one request.
   *
   * @param request The request.
   * @param env The bindings and variables.
   * @returns The response.
   */
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> {
    if (app === undefined) {
      try {
        const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
        const settings = settingsFromEnv(env);
        app = createApp({ store, settings });
        mcp = workerMcp(env, settings, store);
      } catch (e) {
        app = undefined;
        return problem(
          "internal_error",
          `The deployment is misconfigured: ${(e as Error).message}`,
        );
      }
    }
    // The gateway (DESIGN §7) when UNFOLD_UPSTREAMS lists upstreams.
    if (mcp !== undefined && new URL(request.url).pathname === "/mcp") return mcp(request);
    return app.fetch(request);
  },
};
