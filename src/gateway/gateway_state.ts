/**
 * What the gateway serves at one moment, built from its upstreams as they are now: the catalogue
 * (profile, trust and quarantine applied), each upstream's state with its refused, unapproved and
 * missing pinned tools, and what the host is shown. Rebuilt at each upstream change.
 *
 * @module
 */

import { canonicalJson, type Hasher } from "../canonical_json.ts";
import type { McpCatalog } from "../catalog.ts";
import type { Injector } from "../injector.ts";
import type { RankerFactory } from "../ranking/ranker.ts";
import { toolId } from "../tool.ts";
import type { GatewayOptions } from "./config/parse.ts";
import { type MissingPin, missingPins } from "./pinned_check.ts";
import { present, type Presentation, type PresentationView } from "./presentation.ts";
import type { KnownHost } from "./host_profiles.ts";
import { inProfile, narrowOptions, type Profile, profileSeesServer } from "./config/profiles.ts";
import { admitTools } from "./quarantine.ts";
import { checkTrust, type TrustSource } from "./trust/policy.ts";
import { fieldChanges, type Unapproved } from "./trust/lock.ts";
import type { UpstreamPool, UpstreamStatus } from "./pool/upstreams.ts";
import { unlistedServers } from "./pool/start_wait.ts";
import type { Sandbox } from "../code_mode/sandbox.ts";
import { servedCodeMode } from "./code_mode_served.ts";

// The statuses (and so /status and the page) carry the values of the first tools' changed fields,
// each cut: a server listing thousands of new tools must not make every status that big.
const STATUS_CHANGES = 20;
const STATUS_CHANGE_CHARS = 4_000;

/** What a build reads besides the pool: the gateway's options, ranker, profile and trust. */
export interface StateSources {
  /** The `unfold` block. */
  options: GatewayOptions;
  /** Ranks `search`. */
  ranker?: RankerFactory;
  /** The profile served: only its tools exist. */
  profile?: Profile;
  /** The definitions the user approved. */
  trust?: TrustSource;
  /** Runs the scripts of `run`: without one, the bridge offers no `run`. */
  sandbox?: Sandbox;
  /**
   * Whether the read-only discovery tool is listed beside the bridge (`false`: the bridge alone).
   * @default {true}
   */
  discovery?: boolean;
}

/** The gateway's state at one moment. */
export interface GatewayState {
  /** The tools whose definitions are not approved. */
  unapproved: Unapproved[];
  /** Those held back until approved (trust `pin`), by id. */
  held: ReadonlyMap<string, Unapproved>;
  /** The catalogue. */
  catalog: McpCatalog;
  /** The injector over it, with the gateway's configuration. */
  injector: Injector;
  /** The catalogue's hash: its session generation. */
  catalogHash: string;
  /** What a host unfold does not know is shown. */
  presentation: Presentation;
  /** What a known host is shown (built once per host and state). */
  presentationFor(host: KnownHost | undefined): Presentation;
  /**
   * What a host's `tools/list` would be with every server that restarts counted as up: two
   * states with the same key differ only by servers restarting, which is no change to announce.
   */
  steadyKey(host: KnownHost | undefined): string;
  /**
   * Whether every upstream has had its first listing: listed live, or failed to (a lazy one
   * stopped counts as listed). Until then the gateway announces no change of its tools.
   */
  allListed: boolean;
  /** Each upstream's state, with its refused, unapproved and missing pinned tools. */
  statuses: UpstreamStatus[];
  /** The pinned ids that their server's listing lacks. */
  missingPins: MissingPin[];
  /** The servers still starting whose tools are not known yet (a bridge call may wait for them). */
  unlisted: readonly string[];
}

/**
 * Builds the state from the upstreams as they are now.
 *
 * @param pool The upstreams.
 * @param sources The options, ranker, profile and trust.
 * @param hash Hashes the catalogue.
 * @returns The state.
 *
 * @example Usage
 * ```ts
 * import { buildState } from "./gateway_state.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const state = await buildState(pool, { options: { pinned: ["a/c"] } }, sha256Hex);
 * equal(state.catalog.size, 1);
 * deepEqual(state.statuses[0]?.missingPins, [{ id: "a/c", listing: "live", closest: "a/b" }]);
 * ```
 */
export async function buildState(
  pool: UpstreamPool,
  sources: StateSources,
  hash: Hasher,
): Promise<GatewayState> {
  const { ranker, profile, trust } = sources;
  // Code mode is offered where a sandbox runs the scripts.
  const options = servedCodeMode(
    profile === undefined ? sources.options : narrowOptions(sources.options, profile),
    sources.sandbox !== undefined,
  );
  // Outside the profile, a tool does not exist: filtered before anything can name it.
  const listed = profile === undefined
    ? pool.tools()
    : pool.tools().filter((tool) => inProfile(profile, tool));
  const { unapproved, held, note } = await checkTrust(listed, trust, hash);
  const { catalog, quarantined } = admitTools(
    held.size === 0 ? listed : listed.filter((tool) => !held.has(toolId(tool))),
    ranker,
  );
  const counts = new Map<string, number>();
  for (const tool of catalog.tools) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  // Grouped once, so the statuses cost one pass over the tools, not one per server.
  const flaggedBy = Map.groupBy(unapproved, (tool) => tool.server);
  const pooled = pool.statuses();
  const live = pool.listedLive?.() ??
    new Set(pooled.filter((s) => s.state === "ready").map((s) => s.server));
  // A profile without its own pins takes the config's that are in it: the others are not missing.
  const pinned = profile === undefined ? options.pinned : options.pinned.filter((id) => {
    const slash = id.indexOf("/");
    return inProfile(profile, { server: id.slice(0, slash), name: id.slice(slash + 1) });
  });
  const pins = missingPins(pinned, listed, catalog, pooled, (server) => live.has(server));
  const pinsBy = Map.groupBy(pins, (pin) => pin.server);
  const statuses = pooled
    .filter((status) => profile === undefined || profileSeesServer(profile, status.server))
    .map((status) => {
      const refused = quarantined.filter((tool) => tool.server === status.server)
        .map(({ name, reason }) => ({ name, reason }));
      const earlier = (status.quarantined ?? []).filter((tool) =>
        profile === undefined || inProfile(profile, { server: status.server, name: tool.name })
      );
      const flagged = (flaggedBy.get(status.server) ?? []).map((tool, i) => ({
        name: tool.name,
        change: tool.change,
        fields: tool.fields,
        held: held.size > 0,
        ...(i < STATUS_CHANGES ? { changes: fieldChanges(tool, STATUS_CHANGE_CHARS) } : {}),
      }));
      const missing = (pinsBy.get(status.server) ?? []).map(({ server: _, ...pin }) => pin);
      const withPins = missing.length === 0 ? status : { ...status, missingPins: missing };
      if (refused.length === 0 && flagged.length === 0 && profile === undefined) return withPins;
      const { quarantined: _, unapproved: __, ...rest } = withPins;
      return {
        ...rest,
        tools: profile === undefined && flagged.length === 0
          ? status.tools - refused.length
          : counts.get(status.server) ?? 0,
        ...(earlier.length + refused.length === 0 ? {} : { quarantined: [...earlier, ...refused] }),
        ...(flagged.length === 0 ? {} : { unapproved: flagged }),
      };
    });
  // A server's own notes name it: a profile quotes only those of the servers it sees.
  const notes = pool.instructions?.();
  const seenNotes = profile === undefined || notes === undefined
    ? notes
    : new Map([...notes].filter(([server]) => profileSeesServer(profile, server)));
  const view: PresentationView = {
    ...(profile === undefined ? {} : { profile: profile.name }),
    ...(sources.discovery === undefined ? {} : { discovery: sources.discovery }),
  };
  const presentation = present(catalog, options, statuses, seenNotes, note, view);
  const byHost = new Map<string, Presentation>();
  const presentationFor = (host: KnownHost | undefined) => {
    if (host === undefined) return presentation;
    let shown = byHost.get(host.name);
    if (shown === undefined) {
      shown = present(catalog, options, statuses, seenNotes, note, { ...view, host });
      byHost.set(host.name, shown);
    }
    return shown;
  };
  // A server listed once and now lost or restarting is counted as up; one restarting after a
  // failed start (its detail kept) as failed: what it is between two tries is no change.
  const steady = statuses.map((status): UpstreamStatus => {
    if (status.state === "lost" || (status.state === "starting" && live.has(status.server))) {
      const { detail: _, ...rest } = status;
      return { ...rest, state: "ready" };
    }
    if (status.state === "starting" && status.detail !== undefined) {
      return { ...status, state: "failed" };
    }
    return status;
  });
  const keys = new Map<string, string>();
  const steadyKey = (host: KnownHost | undefined) => {
    const name = host?.name ?? "";
    let key = keys.get(name);
    if (key === undefined) {
      const shown = present(catalog, options, steady, seenNotes, note, {
        ...view,
        ...(host === undefined ? {} : { host }),
      });
      key = JSON.stringify(shown.tools);
      keys.set(name, key);
    }
    return key;
  };
  // A server that will not list (unavailable as configured) or has ended its first start (one
  // restarting) has given what its first start gives.
  const firstListed = (status: UpstreamStatus) =>
    live.has(status.server) || status.restarting !== undefined ||
    ["failed", "needs_login", "stopped", "lost", "unavailable"].includes(status.state);
  return {
    unapproved,
    held,
    catalog,
    injector: presentation.injector,
    catalogHash: await hash(`[${catalog.tools.map(canonicalJson).join(",")}]`),
    presentation,
    presentationFor,
    steadyKey,
    allListed: statuses.every(firstListed),
    statuses,
    missingPins: pins,
    unlisted: unlistedServers(statuses),
  };
}
