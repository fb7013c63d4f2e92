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
    measured: "Claude Code 2.1.197",
  },
  {
    name: "codex",
    clientNames: ["codex-mcp-client"],
    overviewIn: "instructions",
    toolName: (server, tool) => `${tool} (namespace mcp__${server})`,
    measured: "Codex CLI 0.169.0",
  },
  {
    name: "gemini",
    clientNames: ["gemini-cli-mcp-client"],
    overviewIn: "description",
    toolName: (server, tool) => `mcp_${server}_${tool}`,
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
