/**
 * `/mcp/NAME` beside `/mcp`: one gateway per profile over the upstreams the whole config opened
 * (lent, so closing a profile's gateway leaves them open), and the answer for a name that is no
 * profile. Shared by the Deno command and the Worker.
 *
 * @module
 */

import { problem } from "../http/problems.ts";
import type { ToolHost } from "./face.ts";
import { VERSION } from "../version.ts";
import { Gateway, type GatewayDeps } from "./gateway.ts";
import { gatewayHost } from "./host.ts";
import { guardMcp, type GuardOptions } from "./guard.ts";
import type { Profile } from "./profiles.ts";
import type { UpstreamPool } from "./upstreams.ts";

/** The profiles' endpoints. */
export interface ProfileFaces {
  /** Answers `/mcp/NAME`: the part of the path after `/mcp/`, and the request. */
  route: (name: string, request: Request) => Promise<Response>;
  /** Rebuilds every profile's catalogue (the approved definitions changed). */
  refresh: () => Promise<void>;
  /** Closes every profile's sessions and gateway (not the shared upstreams). */
  close: () => Promise<void>;
}

/**
 * Opens a gateway per profile over a shared pool, each served under its own tenant by the face
 * `serve` builds, behind the same guard as `/mcp`.
 *
 * @param pool The upstreams of the whole config.
 * @param profiles The profiles.
 * @param deps What every gateway shares (options, store, ranker, trust, log).
 * @param serve Builds the HTTP face of one host (`createMcpHttpHandler`).
 * @param guard The origin and token checks of `/mcp`.
 * @returns The endpoints.
 *
 * @example Usage
 * ```ts ignore
 * const faces = await openProfileFaces(pool, Object.values(options.profiles ?? {}), deps, (host) =>
 *   createMcpHttpHandler(host, { sessions: { kind: "memory" } }), { tokens: [] });
 * ```
 */
export async function openProfileFaces(
  pool: UpstreamPool,
  profiles: readonly Profile[],
  deps: Omit<GatewayDeps, "profile">,
  serve: (host: ToolHost) => {
    handle: (request: Request, tenant: string) => Promise<Response>;
    close?: () => Promise<void>;
  },
  guard: GuardOptions,
): Promise<ProfileFaces> {
  const faces = await Promise.all(profiles.map(async (profile) => {
    const view = await Gateway.open(borrowPool(pool), { ...deps, profile });
    const face = serve(gatewayHost(view, VERSION));
    const handle = guardMcp(
      (request, tenant) => face.handle(request, profileTenant(tenant, profile.name)),
      guard,
    );
    return { name: profile.name, handle, view, face };
  }));
  return {
    route: profileRouter(new Map(faces.map(({ name, handle }) => [name, handle]))),
    refresh: async () => void await Promise.all(faces.map(({ view }) => view.refresh())),
    close: async () =>
      void await Promise.all(faces.map(async ({ view, face }) => {
        await face.close?.();
        await view.close();
      })),
  };
}

/**
 * The pool lent to a profile's gateway: closing that gateway leaves the pool to its owner.
 *
 * @param pool The pool.
 * @returns The same pool, whose `close` does nothing.
 *
 * @example Usage
 * ```ts ignore
 * const view = await Gateway.open(borrowPool(pool), { options, store, profile });
 * ```
 */
export function borrowPool(pool: UpstreamPool): UpstreamPool {
  return {
    tools: () => pool.tools(),
    statuses: () => pool.statuses(),
    // The servers' notes and live listings too, so a profile's overview is the one stdio shows.
    ...(pool.instructions === undefined ? {} : { instructions: () => pool.instructions!() }),
    ...(pool.listedLive === undefined ? {} : { listedLive: () => pool.listedLive!() }),
    forward: (tool, args, options) => pool.forward(tool, args, options),
    onChange: (listener) => pool.onChange(listener),
    close: () => Promise.resolve(),
  };
}

/**
 * The tenant a profile's sessions live under: sessions of two profiles never meet, even where
 * they share one session store.
 *
 * @param tenant The caller's tenant.
 * @param profile The profile's name.
 * @returns The tenant for that profile.
 *
 * @example Usage
 * ```ts
 * import { profileTenant } from "./profile_faces.ts";
 * import { notEqual } from "node:assert/strict";
 *
 * notEqual(profileTenant("t", "a"), profileTenant("t", "b"));
 * ```
 */
export function profileTenant(tenant: string, profile: string): string {
  return `${tenant}\u0000profile:${profile}`;
}

/**
 * Routes `/mcp/NAME` to its profile's handler; any other name is a 404 problem. The names are not
 * listed: the 404 is answered before any token is checked.
 *
 * @param faces The handler of each profile, by name.
 * @returns The router: the part of the path after `/mcp/`, and the request.
 *
 * @example Usage
 * ```ts
 * import { profileRouter } from "./profile_faces.ts";
 * import { equal } from "node:assert/strict";
 *
 * const route = profileRouter(new Map([["work", () => Promise.resolve(new Response("work"))]]));
 * equal(await (await route("work", new Request("http://127.0.0.1/mcp/work"))).text(), "work");
 * equal((await route("nope", new Request("http://127.0.0.1/mcp/nope"))).status, 404);
 * ```
 */
export function profileRouter(
  faces: ReadonlyMap<string, (request: Request) => Promise<Response>>,
): (name: string, request: Request) => Promise<Response> {
  return (name, request) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // not a name any profile has
    }
    const face = faces.get(decoded);
    if (face !== undefined) return face(request);
    return Promise.resolve(problem(
      "not_found",
      `There is no profile ${
        JSON.stringify(decoded.slice(0, 128))
      } on this gateway: the MCP endpoints are /mcp (every tool) and /mcp/NAME for each profile of its config`,
    ));
  };
}
