/**
 * Code mode on `/v1/route`: a `run` replayed for a host that runs the tools itself. The API keeps
 * nothing between requests: each request carries the same `run` and the MCP results of the calls
 * so far (`results`), the script runs again from the start in the deployment's sandbox, and the
 * answer is the next call it needs (`action: "call"`: the host authorises and runs it) or the
 * run's end (`action: "run"`). A request's `codeLimits` may lower this deployment's bounds,
 * never raise them.
 *
 * @module
 */

import type { RunAction } from "../bridge/action.ts";
import { resultCeiling } from "../bridge/ceiling.ts";
import { boundRun, type Injector } from "../injector.ts";
import { boundResult } from "../session/bound.ts";
import type { ResultStore } from "../session/result_store.ts";
import { CODE_LIMIT_NAMES, type CodeLimits, codeLimits } from "../code_mode/limits.ts";
import type { Sandbox } from "../code_mode/sandbox.ts";
import { recordRun } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import { problem } from "./problems.ts";

/** What a deployment runs scripts with. */
export interface CodeModeDeps {
  /** The sandbox; without one, a run answers that code mode cannot run here. */
  sandbox?: Sandbox;
  /**
   * The most each bound of a run may be here (a request may ask for less).
   * @default {DEFAULT_CODE_LIMITS}
   */
  maxLimits?: Partial<CodeLimits>;
}

/**
 * The bound of a request's `codeLimits` over this deployment's, if one is.
 *
 * @param requested The request's `codeLimits`.
 * @param deps The deployment's code mode.
 * @returns The problem response, or `undefined`.
 *
 * @example Usage
 * ```ts
 * import { limitsOverDeployment } from "./run_route.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(limitsOverDeployment({ timeoutMs: 1000 }, {}), undefined);
 * equal(limitsOverDeployment({ timeoutMs: 10_000_000 }, {})?.status, 422);
 * ```
 */
export function limitsOverDeployment(
  requested: Partial<Record<string, number | undefined>> | undefined,
  deps: CodeModeDeps,
): Response | undefined {
  if (requested === undefined) return undefined;
  const most = codeLimits(deps.maxLimits);
  for (const name of CODE_LIMIT_NAMES) {
    const value = requested[name];
    if (value !== undefined && value > most[name]) {
      const message = `must be at most ${most[name]} on this server`;
      return problem("invalid_config", `Invalid config "codeLimits": "${name}" ${message}`, [{
        pointer: `/options/codeLimits/${name}`,
        message,
      }]);
    }
  }
  return undefined;
}

/**
 * Runs a replayed `run` and answers it: the next call, or the run's answer, its text and
 * structured copy within the result ceiling (the rest kept for `more` in a session that keeps
 * results), counted and recorded in the session.
 *
 * @param injector The injector of the request.
 * @param action The run.
 * @param request The request's results and session, and where a session keeps cut answers.
 * @param deps The deployment's code mode and session store.
 * @returns The response body, or a problem response for results that do not fit the run.
 */
export async function answerRun(
  injector: Injector,
  action: RunAction,
  request: {
    results: readonly unknown[] | undefined;
    session: { store: SessionStore; key: SessionKey; catalogHash: string } | undefined;
    kept?: ResultStore;
  },
  deps: CodeModeDeps,
): Promise<Record<string, unknown> | Response> {
  const answer = await injector.run(action.code, {
    ...(deps.sandbox === undefined ? {} : { sandbox: deps.sandbox }),
    results: request.results ?? [],
  });
  if (answer.action === "call") return { ...answer };
  if (answer.error?.code === "invalid_results") {
    return problem("invalid_request", answer.error.message, [{
      pointer: "/results",
      message: answer.error.message,
    }]);
  }
  const { session, kept } = request;
  const bounded = await boundRun(answer, (a) =>
    boundResult(a, {
      ceiling: resultCeiling(injector.config),
      ...(session === undefined ? {} : {
        session: { store: session.store, key: session.key },
        ...(kept === undefined ? {} : { results: kept }),
      }),
    }));
  if (session !== undefined) {
    await recordRun(session.store, session.key, session.catalogHash, answer);
  }
  const { code: _code, ...body } = bounded;
  return body;
}
