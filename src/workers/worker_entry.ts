/**
 * A Worker module's default export, built once per isolate: shared by the API Worker
 * (`entry.ts`) and the gateway Worker (`gateway_entry.ts`).
 *
 * @module
 */

import { problem } from "../http/problems.ts";

/** A Worker module's default export. */
export interface WorkerEntry {
  /**
   * Serves one request.
   *
   * @param request The request.
   * @param env The bindings and variables.
   * @returns The response.
   */
  fetch(request: Request, env: Record<string, unknown>): Response | Promise<Response>;
}

/**
 * A Worker's default export: builds its deployment once, at startup when the runtime exposes the
 * environment there (Workers count that CPU apart from each request's), else on the first request;
 * a deployment that cannot be built answers every request with why.
 *
 * @param startupEnv The environment at startup (`env` from `cloudflare:workers`), if any.
 * @param build Builds the deployment; throws when a variable is not a valid setting.
 * @param serve Serves one request with it.
 * @returns The Worker's default export.
 */
export function workerEntry<T>(
  startupEnv: Record<string, unknown> | undefined,
  build: (env: Record<string, unknown>) => T,
  serve: (deployment: T, request: Request) => Response | Promise<Response>,
): WorkerEntry {
  const attempt = (env: Record<string, unknown>): { ok: T } | { why: string } => {
    try {
      return { ok: build(env) };
    } catch (e) {
      return { why: (e as Error).message };
    }
  };
  let built = startupEnv === undefined ? undefined : attempt(startupEnv);
  return {
    fetch(request, env) {
      built ??= attempt(env);
      return "ok" in built
        ? serve(built.ok, request)
        : problem("internal_error", `The deployment is misconfigured: ${built.why}`);
    },
  };
}
