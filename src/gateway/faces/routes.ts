/**
 * The gateway's routes over HTTP, shared by the Deno command and the Worker: `/mcp` (every tool),
 * `/mcp/NAME` (a profile), and the page's reads `/status`, `/view`, `/explain`, all behind one
 * guard whose token decides what the caller reaches. The gateway-wide token (`UNFOLD_API_TOKEN`)
 * opens everything; a profile's own token (`profiles.NAME.tokens`) opens `/mcp/NAME` alone, and
 * the page's reads answer it for that profile. The token is checked before the profile's name is
 * looked up, so a caller without one cannot tell a profile that exists from one that does not.
 *
 * @module
 */

import { requestGuard, unauthorized } from "../../http/guard.ts";
import { problem } from "../../http/problems.ts";
import type { ToolHost } from "./server.ts";
import type { Gateway, GatewayDeps } from "../gateway.ts";
import type { GuardOptions } from "./guard.ts";
import { openProfileFaces } from "./profiles.ts";
import type { Profile } from "../config/profiles.ts";
import { type LiveCounters, STATUS_PATHS, statusHandler } from "./status.ts";
import type { UpstreamPool } from "../pool/upstreams.ts";

/** What {@linkcode openGatewayRoutes} serves. */
export interface GatewayRouteSources {
  /** The gateway `/mcp` serves (the whole config's, or the one profile the command serves). */
  gateway: Gateway;
  /** The same gateway as the MCP face sees it. */
  host: ToolHost;
  /** Its upstreams, which the profiles' gateways share. */
  pool: UpstreamPool;
  /** The profiles served at `/mcp/NAME`. */
  profiles: readonly Profile[];
  /**
   * The profiles of the config not served, each with why (a token names a variable not set, so
   * its clients could not all be told apart): `/mcp/NAME` answers why, `/status` lists them.
   * @default {none}
   */
  unavailableProfiles?: ReadonlyMap<string, string>;
  /** The profile the whole gateway is, when it serves one alone (`unfold gateway --profile`). */
  servedProfile?: string;
  /** What each profile's gateway is opened with. */
  deps: Omit<GatewayDeps, "profile">;
  /** Builds the HTTP face of one host (`createMcpHttpHandler`), with its profile but `/mcp`'s. */
  serve: (host: ToolHost, profile?: Profile) => {
    handle: (request: Request, tenant: string) => Promise<Response>;
    close?: () => Promise<void>;
  };
  /** The origin checks and the gateway-wide tokens (the profiles' own are added here). */
  guard: GuardOptions;
  /** The live counters `/status` shows to a gateway-wide caller, if any. */
  counters?: LiveCounters;
  /** The longest query `/explain` takes. */
  maxQueryChars?: number;
}

/** The gateway's routes. */
export interface GatewayRoutes {
  /** Answers a request to one of the routes; `undefined` for any other path. */
  handle: (request: Request) => Promise<Response> | undefined;
  /** Rebuilds the profiles' gateways (after new approvals). */
  refresh: () => Promise<void>;
  /** Closes the faces' sessions and the profiles' gateways (not the shared upstreams). */
  close: () => Promise<void>;
}

/**
 * Opens the routes: the whole gateway's face and a face per profile.
 *
 * @param sources The gateway, its profiles, its face builder and its guard.
 * @returns The routes.
 *
 * @example Usage
 * ```ts ignore
 * const routes = await openGatewayRoutes({ gateway, host, pool, profiles, deps, serve, guard });
 * const response = await routes.handle(request) ?? notFound();
 * ```
 */
export async function openGatewayRoutes(sources: GatewayRouteSources): Promise<GatewayRoutes> {
  const { gateway, profiles, deps } = sources;
  const guard = requestGuard({ ...sources.guard, scopes: profileScopes(profiles) });
  const whole = sources.serve(sources.host);
  const { faces, refresh, close } = await openProfileFaces(
    sources.pool,
    profiles,
    deps,
    sources.serve,
    sources.maxQueryChars,
  );
  const unavailable = sources.unavailableProfiles ?? new Map<string, string>();
  const wholeStatus = statusHandler({
    gateway,
    options: deps.options,
    profiles: () => [
      ...[...faces.values()].map((face) => face.summary()),
      ...[...unavailable].map(([name, why]) => ({ name, tools: 0, unavailable: why })),
    ],
    ...(sources.servedProfile === undefined ? {} : { profile: sources.servedProfile }),
    ...(sources.counters === undefined ? {} : { counters: sources.counters }),
    ...(sources.maxQueryChars === undefined ? {} : { maxQueryChars: sources.maxQueryChars }),
    ...(deps.ranker === undefined ? {} : { ranker: deps.ranker }),
  });
  const handle = async (request: Request, path: string): Promise<Response> => {
    const admitted = await guard.caller(request);
    if (!admitted.ok) return admitted.error;
    const { tenant, scope } = admitted.value;
    if (path === "/mcp") {
      return scope === undefined ? whole.handle(request, tenant) : unauthorized();
    }
    if (STATUS_PATHS.has(path)) {
      if (scope === undefined) return wholeStatus(request);
      return faces.get(scope)?.status(request) ?? unauthorized();
    }
    const name = profileName(path.slice("/mcp/".length));
    // A profile's token opens its own profile: any other name, known or not, is refused alike.
    if (scope !== undefined && scope !== name) return unauthorized();
    const face = faces.get(name);
    if (face !== undefined) return face.mcp(request, tenant);
    const why = unavailable.get(name);
    if (why !== undefined) {
      return problem(
        "profile_unavailable",
        `The profile ${JSON.stringify(name)} is not served: ${why}`,
      );
    }
    return problem(
      "not_found",
      `There is no profile ${
        JSON.stringify(name.slice(0, 128))
      } on this gateway: the MCP endpoints are /mcp (every tool) and /mcp/NAME for each profile of its config`,
    );
  };
  return {
    handle: (request) => {
      const path = new URL(request.url).pathname;
      const ours = path === "/mcp" || path.startsWith("/mcp/") || STATUS_PATHS.has(path);
      return ours ? handle(request, path) : undefined;
    },
    refresh,
    close: async () => void await Promise.all([whole.close?.(), close()]),
  };
}

/**
 * Why the tokens cannot tell callers apart, if they cannot: a token that two profiles share, or
 * that a profile shares with the gateway-wide tokens, would open more than its profile. The
 * message names the profiles, never the token.
 *
 * @param tokens The gateway-wide tokens.
 * @param profiles The profiles.
 * @returns The problem, or `undefined` when every token opens one thing.
 *
 * @example Usage
 * ```ts
 * import { profileTokenProblem } from "./routes.ts";
 * import { equal, match } from "node:assert/strict";
 *
 * equal(profileTokenProblem(["all"], [{ name: "a", tokens: ["a1"] }]), undefined);
 * match(profileTokenProblem(["all"], [{ name: "a", tokens: ["all"] }]) ?? "", /UNFOLD_API_TOKEN/);
 * ```
 */
export function profileTokenProblem(
  tokens: readonly string[],
  profiles: readonly Profile[],
): string | undefined {
  const owner = new Map<string, string | undefined>(tokens.map((token) => [token, undefined]));
  for (const profile of profiles) {
    for (const token of profile.tokens ?? []) {
      if (!owner.has(token)) {
        owner.set(token, profile.name);
        continue;
      }
      const other = owner.get(token);
      return `the profile ${JSON.stringify(profile.name)} has a token that ${
        other === undefined ? "UNFOLD_API_TOKEN lists" : `the profile ${JSON.stringify(other)} has`
      }: each profile token must open its profile alone`;
    }
  }
  return undefined;
}

// The profiles' own tokens, by profile.
function profileScopes(profiles: readonly Profile[]): Map<string, readonly string[]> {
  return new Map(
    profiles.flatMap((p) => p.tokens === undefined ? [] : [[p.name, p.tokens] as const]),
  );
}

// The name in /mcp/NAME, percent-decoded when it decodes.
function profileName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // not a name any profile has
  }
}
