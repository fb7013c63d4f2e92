/**
 * Servers of the config that cannot be started as they are written (an environment variable they
 * name is not set, or their entry cannot be read: `config/contained.ts`): a server's problem is
 * that server's. Such a server is never started; it is in the pool's states as `unavailable`,
 * with what the user must do, so that the overview,
 * `/status`, `unfold inspect` and stderr name it, and a call of its tools says why, while every
 * other server and profile serves. Either pool (live or on demand) is wrapped the same way, so
 * the Deno command and the Worker keep the same promise.
 *
 * @module
 */

import type { McpTool } from "../../tool.ts";
import type { GatewayConfig, GatewayConfigError } from "../config/parse.ts";
import { unavailable, type UpstreamPool, type UpstreamStatus } from "./upstreams.ts";

/** A configured server left out of the pool, and why. */
export interface UnavailableServer {
  /** Its name in `mcpServers`. */
  server: string;
  /** What is wrong with its entry and what the user does about it (its `detail`). */
  detail: string;
}

/**
 * Why a server that names variables not set cannot start, and what to do: the line its state
 * carries.
 *
 * @param variables The variables not set, in the order of the entry (at least one).
 * @param pointer Where the entry first names one (a JSON pointer into the config).
 * @returns The detail.
 *
 * @example Usage
 * ```ts
 * import { unsetDetail } from "./unavailable.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(
 *   unsetDetail(["REMOTE_TOKEN"], "/mcpServers/remote/headers/Authorization"),
 *   "the environment variable REMOTE_TOKEN is not set (/mcpServers/remote/headers/Authorization names it): set it where unfold is started, then start unfold again",
 * );
 * ```
 */
export function unsetDetail(variables: readonly string[], pointer: string): string {
  const names = variables.length === 1
    ? `variable ${variables[0]} is`
    : `variables ${variables.slice(0, -1).join(", ")} and ${variables.at(-1)} are`;
  return `the environment ${names} not set (${pointer} names ${
    variables.length === 1 ? "it" : "them"
  }): set ${
    variables.length === 1 ? "it" : "them"
  } where unfold is started, then start unfold again`;
}

/** Why a stdio server of the gateway Worker's `UNFOLD_UPSTREAMS` is not started: its detail. */
export const STDIO_ON_WORKER =
  'it is a stdio server, and a Worker reaches only Streamable HTTP servers ("url"): serve it with the unfold command, or give its entry the url of a Streamable HTTP endpoint';

// The most characters of a problem or a pointer an invalid entry's detail quotes: the file's own
// text (a URL, a key) may be of any length; the overview shows 300 characters of a detail.
const QUOTED_CHARS = 160;
const clipped = (text: string) =>
  text.length <= QUOTED_CHARS ? text : `${text.slice(0, QUOTED_CHARS - 1)}…`;

/**
 * Why a server (or a profile) whose entry cannot be read is not started, and what to do: the
 * line its state carries.
 *
 * @param error The entry's first problem, at its JSON pointer.
 * @returns The detail.
 *
 * @example Usage
 * ```ts
 * import { invalidDetail } from "./unavailable.ts";
 * import { GatewayConfigError } from "../config/parse.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(
 *   invalidDetail(new GatewayConfigError("/mcpServers/a/comand", 'unknown field: did you mean "command"?')),
 *   'its entry is invalid at /mcpServers/a/comand: unknown field: did you mean "command"?; correct it in the config, then start unfold again',
 * );
 * ```
 */
export function invalidDetail(error: GatewayConfigError): string {
  return `its entry is invalid at ${clipped(error.pointer)}: ${
    clipped(error.problem)
  }; correct it in the config, then start unfold again`;
}

/**
 * The servers a parsed config sets aside, with why: those whose entry cannot be read
 * (`invalid`), then those that name variables not set (`awaiting`), each in the order of the
 * file. What the CLI and the Worker list as `unavailable`.
 *
 * @param config The parsed config.
 * @returns The servers left out of the pool.
 *
 * @example Usage
 * ```ts
 * import { setAsideServers } from "./unavailable.ts";
 * import { parseGatewayConfig } from "../config/parse.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const parsed = parseGatewayConfig({ mcpServers: { a: { url: 5 }, b: { url: "${B}" } } }, {}, { contain: true, deferUnset: true });
 * deepEqual(parsed.ok && setAsideServers(parsed.value).map((s) => s.server), ["a", "b"]);
 * ```
 */
export function setAsideServers(
  config: Pick<GatewayConfig, "invalid" | "awaiting">,
): UnavailableServer[] {
  return [
    ...(config.invalid ?? []).filter((e) => e.kind === "server").map(({ name, error }) => ({
      server: name,
      detail: invalidDetail(error),
    })),
    ...(config.awaiting ?? []).filter((a) => a.kind === "server").map((a) => ({
      server: a.name,
      detail: unsetDetail(a.variables, a.error.pointer),
    })),
  ];
}

/**
 * The pool with the servers that cannot start beside its own: their states follow the pool's
 * (`unavailable`, no tools), and a call of one of their tools is refused with why. Nothing else
 * of the pool changes.
 *
 * @param pool The pool of the servers that start.
 * @param servers The servers left out.
 * @returns The pool, or the same pool when none is left out.
 *
 * @example Usage
 * ```ts
 * import { withUnavailable } from "./unavailable.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 0 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const whole = withUnavailable(pool, [{ server: "b", detail: "the environment variable B is not set" }]);
 * deepEqual(whole.statuses().map((s) => s.state), ["ready", "unavailable"]);
 * ```
 */
export function withUnavailable<P extends UpstreamPool>(
  pool: P,
  servers: readonly UnavailableServer[],
): P {
  if (servers.length === 0) return pool;
  const statuses = (): UpstreamStatus[] =>
    servers.map(({ server, detail }) => ({ server, state: "unavailable", detail, tools: 0 }));
  const left = new Map(servers.map((s) => [s.server, s]));
  return {
    ...pool,
    statuses: () => [...pool.statuses(), ...statuses()],
    forward: (tool: McpTool, args, options) => {
      const out = left.get(tool.server);
      if (out === undefined) return pool.forward(tool, args, options);
      return Promise.reject(
        unavailable(tool, {
          server: out.server,
          state: "unavailable",
          detail: out.detail,
          tools: 0,
        }),
      );
    },
  };
}
