/**
 * The Cloudflare Workers entry: the HTTP API with sessions in Durable Objects. Configure with
 * `UNFOLD_*` variables (secrets for `UNFOLD_API_TOKEN`) and the `SESSIONS` and `CATALOGS` bindings in
 * wrangler.toml.
 *
 * @module
 */

import { env as startupEnv } from "cloudflare:workers";
import { createApp, type UnfoldApp } from "../http/app.ts";
import { problem } from "../http/problems.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { type CatalogNamespace, DurableCatalogStore } from "./durable_catalogs.ts";
import { DurableSessionStore, type SessionNamespace } from "./durable_store.ts";
import { type WorkerMcp, workerMcp } from "./gateway.ts";

export { CatalogObject } from "./catalog_object.ts";
export { SessionObject } from "./session_object.ts";

// The estimated bytes of catalogues one isolate keeps in memory.
const ISOLATE_CATALOG_BYTES = 32 * 1024 * 1024;

// Built at startup, while the module is evaluated (Workers count that CPU apart from each
// request's), when the runtime exposes the environment there; else by the first request.
let app: Deployment | string | undefined = startupEnv === undefined ? undefined : build(startupEnv);

// The HTTP API, and the gateway (DESIGN §7) when UNFOLD_UPSTREAMS lists upstreams.
interface Deployment {
  api: UnfoldApp;
  mcp: WorkerMcp | undefined;
}

export default {
  /**
   * Serves one request.
   *
   * @param request The request.
   * @param env The bindings and variables.
   * @returns The response.
   */
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response> {
    app ??= build(env);
    if (typeof app === "string") {
      return problem("internal_error", `The deployment is misconfigured: ${app}`);
    }
    if (app.mcp !== undefined && new URL(request.url).pathname === "/mcp") {
      return app.mcp(request);
    }
    return app.api.fetch(request);
  },
};

// The app for an environment, or why it cannot be built.
function build(env: Record<string, unknown>): Deployment | string {
  try {
    const store = new DurableSessionStore(env.SESSIONS as SessionNamespace);
    const settings = settingsFromEnv(env);
    const api = createApp({
      store,
      settings,
      warmUp: true,
      catalogs: {
        ...(env.CATALOGS === undefined
          ? {}
          : { store: new DurableCatalogStore(env.CATALOGS as CatalogNamespace) }),
        // An isolate has 128 MB: catalogues beyond this are reloaded from their objects.
        maxBytes: ISOLATE_CATALOG_BYTES,
      },
    });
    return { api, mcp: workerMcp(env, settings, store) };
  } catch (e) {
    return (e as Error).message;
  }
}
