/**
 * Starts the gateway Worker as it is deployed: `wrangler.gateway.toml` first (the Worker that
 * answers), then `wrangler.toml`, the API Worker its `API` service binding and its `SESSIONS`
 * objects name, in one `wrangler dev`.
 *
 * @module
 */

import { type Running, startWrangler } from "../e2e/_processes.ts";

/**
 * Starts the gateway Worker with the API Worker behind it.
 *
 * @param vars The gateway Worker's variables (wrangler gives `--var` to the first config only).
 * @returns The running gateway Worker.
 */
export function startGatewayWorker(vars: Record<string, string> = {}): Promise<Running> {
  return startWrangler("wrangler.gateway.toml", vars, undefined, ["--config", "wrangler.toml"]);
}
