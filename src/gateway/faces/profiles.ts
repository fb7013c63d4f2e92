/**
 * The profiles' faces beside the whole gateway's: one gateway per profile over the upstreams the
 * whole config opened (lent, so closing a profile's gateway leaves them open), with its MCP
 * handler and its own page reads (`/status`, `/view`, `/explain` of that profile alone). Shared by
 * the Deno command and the Worker; `gateway_routes.ts` puts them behind the guard.
 *
 * @module
 */

import { DEFAULT_CONFIG } from "../../config.ts";
import type { ToolHost } from "./server.ts";
import { VERSION } from "../../version.ts";
import { Gateway, type GatewayDeps } from "../gateway.ts";
import { gatewayHost } from "./server.ts";
import { narrowOptions, type Profile } from "../config/profiles.ts";
import { type ProfileSummary, statusHandler } from "./status.ts";
import type { UpstreamPool } from "../pool/upstreams.ts";

/** What one profile answers, for a caller the guard admitted to it. */
export interface ProfileFace {
  /** Serves `/mcp/NAME` for the caller's tenant. */
  mcp: (request: Request, tenant: string) => Promise<Response>;
  /** Serves `/status`, `/view` and `/explain` of this profile alone. */
  status: (request: Request) => Promise<Response>;
  /** The profile as the whole gateway's `/status` lists it. */
  summary: () => ProfileSummary;
}

/** The profiles' faces. */
export interface ProfileFaces {
  /** The faces by profile name. */
  faces: ReadonlyMap<string, ProfileFace>;
  /** Rebuilds every profile's catalogue (the approved definitions changed). */
  refresh: () => Promise<void>;
  /** Closes every profile's sessions and gateway (not the shared upstreams). */
  close: () => Promise<void>;
}

/**
 * Opens a gateway per profile over a shared pool, each served under its own tenant by the face
 * `serve` builds.
 *
 * @param pool The upstreams of the whole config.
 * @param profiles The profiles.
 * @param deps What every gateway shares (options, store, ranker, trust, log).
 * @param serve Builds the HTTP face of one host (`createMcpHttpHandler`), given its profile.
 * @param maxQueryChars The longest query `/explain` takes.
 * @returns The faces.
 *
 * @example Usage
 * ```ts ignore
 * const { faces } = await openProfileFaces(pool, Object.values(options.profiles ?? {}), deps,
 *   (host) => createMcpHttpHandler(host, { sessions: { kind: "memory" } }));
 * ```
 */
export async function openProfileFaces(
  pool: UpstreamPool,
  profiles: readonly Profile[],
  deps: Omit<GatewayDeps, "profile">,
  serve: (host: ToolHost, profile?: Profile) => {
    handle: (request: Request, tenant: string) => Promise<Response>;
    close?: () => Promise<void>;
  },
  maxQueryChars?: number,
): Promise<ProfileFaces> {
  const opened = await Promise.all(profiles.map(async (profile) => {
    const view = await Gateway.open(borrowPool(pool), { ...deps, profile });
    const face = serve(gatewayHost(view, VERSION), profile);
    // The counters are the whole process's, every profile's sessions summed: a profile's page
    // reads show none.
    const options = narrowOptions(deps.options, profile);
    const status = statusHandler({
      gateway: view,
      options,
      profile: profile.name,
      ...(maxQueryChars === undefined ? {} : { maxQueryChars }),
      ...(deps.ranker === undefined ? {} : { ranker: deps.ranker }),
    });
    const mcp = (request: Request, tenant: string) =>
      face.handle(request, profileTenant(tenant, profile.name));
    const summary = () => ({
      name: profile.name,
      tools: view.catalog.size,
      availableContextTokens: options.availableContextTokens ??
        DEFAULT_CONFIG.availableContextTokens,
    });
    return { name: profile.name, view, face, mcp, status, summary };
  }));
  return {
    faces: new Map(
      opened.map(({ name, mcp, status, summary }) => [name, { mcp, status, summary }]),
    ),
    refresh: async () => void await Promise.all(opened.map(({ view }) => view.refresh())),
    close: async () =>
      void await Promise.all(opened.map(async ({ view, face }) => {
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
 * import { profileTenant } from "./profiles.ts";
 * import { notEqual } from "node:assert/strict";
 *
 * notEqual(profileTenant("t", "a"), profileTenant("t", "b"));
 * ```
 */
export function profileTenant(tenant: string, profile: string): string {
  return `${tenant}\u0000profile:${profile}`;
}
