/**
 * The gateway's lines on its log about the catalogue it built: each tool quarantined or not
 * approved, each profile pattern that matches nothing, and each pinned tool found missing, said
 * once (not at every re-list) and bounded however many tools an upstream lists.
 *
 * @module
 */

import type { McpTool } from "../tool.ts";
import type { GatewayState } from "./gateway_state.ts";
import { pinNotice } from "./pinned_check.ts";
import { type Profile, unmatchedPatterns } from "./config/profiles.ts";
import { approveHint, describeUnapproved, type TrustSource } from "./trust/policy.ts";
import { commandSpan } from "../utils/shell_words.ts";

// How many lines are remembered so a re-list does not log them again.
const MAX_LOGGED = 10_000;
// How many quarantine and approval lines one rebuild writes before it counts the rest.
const MAX_LOGGED_AT_ONCE = 50;

/** What the log reads besides each state. */
export interface GatewayLogSources {
  /** Where the lines go. */
  log: (line: string) => void;
  /** The profile served, whose patterns are checked against the listed tools. */
  profile?: Profile;
  /** The approvals, named in the lines about tools not approved. */
  trust?: TrustSource;
  /** Whether each tool not approved gets its own line. @default {true} */
  logUnapproved?: boolean;
}

/**
 * Writes the lines about each state the gateway builds, each once.
 *
 * @example Usage
 * ```ts
 * import { GatewayLog } from "./gateway_log.ts";
 * import { buildState } from "./gateway_state.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const lines: string[] = [];
 * const log = new GatewayLog({ log: (line) => lines.push(line) });
 * const state = await buildState(pool, { options: { pinned: ["a/c"] } }, sha256Hex);
 * log.opened(state, pool.tools());
 * deepEqual(lines, []);
 * log.rebuilt(await buildState(pool, { options: { pinned: ["a/d"] } }, sha256Hex), pool.tools());
 * deepEqual(lines, ['the pinned tool "a/d" is not listed by "a", so it is left out of tools/list: correct "unfold.pinned" (the closest id is "a/b")']);
 * ```
 */
export class GatewayLog {
  readonly #sources: GatewayLogSources;
  #logged = new Set<string>();
  // The missing pins as last said: a pin is said again only once it was found and went missing.
  #pins = new Set<string>();

  /**
   * Makes the log.
   *
   * @param sources Where the lines go, and the profile and trust they name.
   */
  constructor(sources: GatewayLogSources) {
    this.#sources = sources;
  }

  /**
   * Logs the first state's tools, all but its missing pins: the one who opened the gateway reads
   * those from the state and says them as fits (the CLI exits on a wrong pin at start).
   *
   * @param state The first state.
   * @param tools Every tool the upstreams list.
   */
  opened(state: GatewayState, tools: readonly McpTool[]): void {
    this.#pins = this.#pinNotices(state);
    this.#tools(state, tools);
  }

  /**
   * Logs what is new in a rebuilt state, its missing pins included.
   *
   * @param state The state.
   * @param tools Every tool the upstreams list.
   */
  rebuilt(state: GatewayState, tools: readonly McpTool[]): void {
    const pins = this.#pinNotices(state);
    for (const line of pins) if (!this.#pins.has(line)) this.#sources.log(line);
    this.#pins = pins;
    this.#tools(state, tools);
  }

  // Each quarantined tool is logged once, not at every re-list.
  #tools(state: GatewayState, tools: readonly McpTool[]): void {
    const { log, trust, profile } = this.#sources;
    let fresh = 0;
    for (const status of state.statuses) {
      for (const tool of status.quarantined ?? []) {
        // A server listing thousands of broken tools gets a bounded log: the rest are counted.
        const line = `${status.server}/${tool.name} quarantined: ${tool.reason}`;
        if (this.#once(line) && ++fresh <= MAX_LOGGED_AT_ONCE) log(line);
      }
    }
    if (profile !== undefined) {
      const ready = state.statuses.filter((s) => s.state === "ready").map((s) => s.server);
      for (const line of unmatchedPatterns(profile, tools, ready)) {
        if (this.#once(line)) log(line);
      }
    }
    // Without a trust source no tool is unapproved: the hint always has its command.
    if (trust !== undefined && this.#sources.logUnapproved !== false) {
      const review = trust.inspect === undefined ? "" : ` (${commandSpan(trust.inspect)})`;
      const treated = trust.mode === "pin" ? "held until approved" : "still usable, flagged";
      for (const tool of state.unapproved) {
        const hint = commandSpan(approveHint(trust, [`${tool.server}/${tool.name}`]));
        const line = `${
          describeUnapproved(tool)
        }: ${treated}; review it${review}, then run ${hint}`;
        if (this.#once(line) && ++fresh <= MAX_LOGGED_AT_ONCE) log(line);
      }
    }
    if (fresh > MAX_LOGGED_AT_ONCE) {
      log(
        `${fresh - MAX_LOGGED_AT_ONCE} more tools quarantined or not approved: see ${
          commandSpan(trust?.inspect ?? "unfold inspect")
        }`,
      );
    }
  }

  // A profile's own pins are its patterns too, said by the profile's check: not twice.
  #pinNotices(state: GatewayState): Set<string> {
    const own = new Set(this.#sources.profile?.pinned ?? []);
    return new Set(state.missingPins.filter((pin) => !own.has(pin.id)).map(pinNotice));
  }

  // Whether the line is new; remembered, within a bound.
  #once(line: string): boolean {
    if (this.#logged.has(line)) return false;
    if (this.#logged.size >= MAX_LOGGED) this.#logged.clear();
    this.#logged.add(line);
    return true;
  }
}
