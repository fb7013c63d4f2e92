/**
 * The MCP hosts whose handling of a server unfold knows, measured by running each pinned version
 * against a scripted model (`test/hosts/`, `bench/hosts.ts`): how a host is recognised (its
 * `clientInfo.name` at `initialize`, or the profile `unfold setup` made for it), where it gives the
 * model the overview whole and once, how long a tool description it keeps, and what it calls the
 * bridge. A host not listed here gets the gateway's defaults. Pure data.
 *
 * The doors: every face hands the client it serves to the gateway (`ToolHost` in `tool_host.ts`);
 * the stdio and HTTP faces read it at `initialize`.
 *
 * @module
 */

import { FIRST_LISTING_WAIT_MS } from "./pool/start_wait.ts";

/** What the gateway knows of the client it serves. */
export interface ClientIdentity {
  /** `clientInfo.name` at `initialize`. */
  name?: string;
  /** `clientInfo.version`. */
  version?: string;
}

/** A host unfold knows. */
export interface KnownHost {
  /** The name `unfold setup` takes, and the profile it makes. */
  readonly name: "claude-code" | "codex" | "gemini";
  /** The `clientInfo.name` it sends. */
  readonly clientNames: readonly string[];
  /** Where the overview reaches its model whole and once. */
  readonly overviewIn: "instructions" | "description";
  /** The most characters of a tool description it keeps (it cuts the rest), if it cuts. */
  readonly descriptionChars?: number;
  /** The most characters of the server instructions it keeps, if it cuts. */
  readonly instructionsChars?: number;
  /**
   * How its model names a tool of a server, as `unfold setup` names the server (`unfold`).
   *
   * @param server The server's name in the host's config.
   * @param tool The tool's name on the server.
   * @returns The words for the model.
   */
  readonly toolName: (server: string, tool: string) => string;
  /** The most characters of the instructions' first line it shows before the tools load. */
  readonly firstLineChars?: number;
  /** How long it waits for a server's start before it goes on without it (its default). */
  readonly waitsMs: number;
  /** The versions it was measured with. */
  readonly measured: string;
}

/**
 * How long the stdio gateway waits for its upstreams' first listings before it answers the host,
 * unless `startupTimeoutMs` says otherwise: Claude Code waits 5 s (`MCP_CONNECT_TIMEOUT_MS`) for a
 * server's connection and then sends its model's first request without it, and the gateway's own
 * start takes a second of that. Servers still starting then are named, and join with one
 * `list_changed`.
 */
export const HOST_ANSWER_MS = 2_500;

// What the gateway keeps of a host's wait for its own start (Deno, the modules, the handshake).
const START_HEADROOM_MS = 2_500;

/**
 * How long the stdio gateway waits for its upstreams' first listings before it answers a host
 * (unless `startupTimeoutMs` says otherwise): within the host's own wait for a server, less the
 * gateway's own start, and never longer than a search waits for a server's first listing. Claude
 * Code waits 5 s (2.5 s here), Codex 10 s (`startup_timeout_sec`: 7.5 s), Gemini CLI 10 minutes
 * (`MCP_DEFAULT_TIMEOUT_MSEC`: the 30 s a search waits); a host unfold does not know gets
 * {@linkcode HOST_ANSWER_MS}.
 *
 * @param host The host, if known (by the profile `unfold setup` made for it: the gateway starts
 * its servers before the host says who it is).
 * @returns The wait in milliseconds.
 *
 * @example Usage
 * ```ts
 * import { hostAnswerMs, knownHost } from "./host_profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(hostAnswerMs(knownHost(undefined, "codex")), 7_500);
 * equal(hostAnswerMs(undefined), 2_500);
 * ```
 */
export function hostAnswerMs(host?: KnownHost): number {
  if (host === undefined) return HOST_ANSWER_MS;
  return Math.max(0, Math.min(host.waitsMs - START_HEADROOM_MS, FIRST_LISTING_WAIT_MS));
}

/** The name of the server entry `unfold setup` writes (`ENTRY_NAME` of `src/cli/setup.ts`). */
export const SETUP_ENTRY = "unfold";

/**
 * The hosts, measured. Claude Code cuts a tool description and the server instructions alike at
 * 2,048 characters ("… [truncated]"), and shows the instructions once, in a `<system-reminder>`; Codex defers every MCP tool behind its own
 * `tool_search` and shows the instructions as the namespace's description in a developer message
 * as soon as the server is up; Gemini CLI sends every tool's description whole in every request
 * (its instructions reach the model only when the folder is trusted).
 */
export const KNOWN_HOSTS: readonly KnownHost[] = Object.freeze([
  {
    name: "claude-code",
    clientNames: ["claude-code"],
    overviewIn: "instructions",
    descriptionChars: 2_048,
    instructionsChars: 2_048,
    toolName: (server, tool) => `mcp__${server}__${tool}`,
    waitsMs: 5_000,
    measured: "Claude Code 2.1.197",
  },
  {
    name: "codex",
    clientNames: ["codex-mcp-client"],
    overviewIn: "instructions",
    toolName: (server, tool) => `${tool} (namespace mcp__${server})`,
    // "Added deferred tool namespaces" shows 247 characters of the first line, then "...".
    firstLineChars: 247,
    waitsMs: 10_000,
    measured: "Codex CLI 0.169.0",
  },
  {
    name: "gemini",
    clientNames: ["gemini-cli-mcp-client"],
    overviewIn: "description",
    toolName: (server, tool) => `mcp_${server}_${tool}`,
    waitsMs: 600_000,
    measured: "Gemini CLI 0.61.0",
  },
]);

/**
 * The known host a client is: by its `clientInfo.name`, else by the profile the gateway serves
 * when `unfold setup` named it for a host.
 *
 * @param client The client, when it said who it is.
 * @param profile The profile served, if any.
 * @returns The host, or `undefined` for one unfold does not know.
 *
 * @example Usage
 * ```ts
 * import { knownHost } from "./host_profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(knownHost({ name: "claude-code", version: "2.1.197" })?.name, "claude-code");
 * equal(knownHost(undefined, "gemini")?.name, "gemini");
 * equal(knownHost({ name: "cursor-vscode" }, "work"), undefined);
 * ```
 */
export function knownHost(client?: ClientIdentity, profile?: string): KnownHost | undefined {
  const name = client?.name;
  if (name !== undefined) {
    const host = KNOWN_HOSTS.find((h) => h.clientNames.includes(name));
    if (host !== undefined) return host;
  }
  return KNOWN_HOSTS.find((h) => h.name === profile);
}

/**
 * How the model of a client names the bridge: by the host's own name for it where the gateway
 * serves the profile `unfold setup` made for that host (so the host's entry is `unfold`), else
 * without a name the host may have changed.
 *
 * @param bridgeName The bridge's name on the gateway.
 * @param host The host, if known.
 * @param profile The profile served.
 * @returns The words, e.g. `the mcp__unfold__mcp tool` or `this server's "mcp" tool`.
 *
 * @example Usage
 * ```ts
 * import { bridgeWords, KNOWN_HOSTS } from "./host_profiles.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(bridgeWords("mcp", KNOWN_HOSTS[0], "claude-code"), "the mcp__unfold__mcp tool");
 * equal(bridgeWords("mcp", undefined, undefined), 'this server\'s "mcp" tool');
 * ```
 */
export function bridgeWords(bridgeName: string, host?: KnownHost, profile?: string): string {
  if (host !== undefined && profile === host.name) {
    return `the ${host.toolName(SETUP_ENTRY, bridgeName)} tool`;
  }
  return `this server's ${JSON.stringify(bridgeName)} tool`;
}
