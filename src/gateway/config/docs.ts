/**
 * The words of each config key of `config_model.ts` and `config_servers.ts`: what it takes and its default, for the docs'
 * key table and the JSON Schema's descriptions. Apart from the model so that the Workers, which
 * parse the config, do not carry the docs; typed by the model's keys, so a key without its words
 * does not compile.
 *
 * @module
 */

import type { CONFIG, PROFILE, UNFOLD } from "./model.ts";
import type { HTTP, OAUTH_KEYS, STDIO } from "./servers.ts";

/** What a key takes, and its default when it has one. */
export type KeyWords = readonly [values: string, fallback?: string];

type Words<S> = { readonly [K in keyof S]: KeyWords };

/** The words of every key, by the object it belongs to. */
export const CONFIG_WORDS: {
  config: Words<typeof CONFIG>;
  stdio: Words<typeof STDIO>;
  http: Words<typeof HTTP>;
  oauth: Words<typeof OAUTH_KEYS>;
  unfold: Words<typeof UNFOLD>;
  profile: Words<typeof PROFILE>;
} = {
  config: {
    $schema: ["the JSON Schema of this file, for editors (`docs/unfold.schema.json`)"],
    mcpServers: ["the upstream servers by name (1 to 64 of `A-Z a-z 0-9 _ . -`)"],
    unfold: ["how the gateway presents the upstreams"],
  },
  stdio: {
    command: ["the program of a stdio server"],
    args: ["its arguments", "none"],
    env: ["environment variables for it, over a safe subset of the gateway's", "none"],
    cwd: ["its working directory", "the gateway's"],
    type: ["what other hosts write (`stdio`); ignored"],
    disabled: ["`true` leaves the server out", "`false`"],
  },
  http: {
    url: ["the MCP endpoint of a Streamable HTTP server (`http:` or `https:`)"],
    headers: ["headers sent with every request (its own credentials)", "none"],
    oauth: [
      "how `unfold login` signs in: `clientId`, `clientSecret`, `scopes`, `clientMetadataUrl`",
    ],
    type: ["what other hosts write (`http`, `streamable-http`); ignored"],
    disabled: ["`true` leaves the server out", "`false`"],
  },
  oauth: {
    clientId: ["a client ID registered with the authorization server beforehand"],
    clientSecret: ["its secret, for a confidential client (needs `clientId`)"],
    scopes: ["scopes to ask for when the server names none"],
    clientMetadataUrl: ["an https: URL of this client's metadata document"],
  },
  unfold: {
    availableContextTokens: ["whole number, 1 to 10,000,000", "100,000 (`DEFAULT_CONFIG`)"],
    inventoryThresholdPercent: ["number in (0, 100]: the overview's share of the context", "6"],
    disclosure: [
      "levels the overview may use: `manifest`, `brief`, `names`, `inventory`",
      "all four",
    ],
    pinned: ["ids `server/tool` of configured servers, listed directly", "none"],
    bridgeName: ["1 to 64 of `A-Z a-z 0-9 _ -`", "`mcp`"],
    callTimeoutMs: ["positive ms, at most 2,147,483,647, or `null` for none", "300,000"],
    startupTimeoutMs: ["positive ms, at most 2,147,483,647", "5,000 (`STARTUP_TIMEOUT_MS`)"],
    restartDelayMs: ["positive ms, at most 2,147,483,647", "1,000 (`RESTART_DEFAULTS`)"],
    restartMaxDelayMs: ["positive ms, at most 2,147,483,647", "60,000 (`RESTART_DEFAULTS`)"],
    profiles: ["profiles by name ([Profiles](#profiles))", "none"],
    trust: ['`"off"`, `"notify"`, `"pin"`', '`"notify"`'],
    lockFile: ["a path, relative to the config's folder", "`unfold.lock.json` beside the config"],
    describeFirst: ['`"enforce"`, `"off"`', '`"enforce"`'],
    overviewIn: ['`"both"`, `"instructions"`, `"description"`', '`"description"`'],
    upstreamInstructions: [
      '`"brief"` (at most 300 characters each), `"none"`',
      '`"brief"` (`UPSTREAM_INSTRUCTIONS_CHARS`)',
    ],
    start: ['`"eager"`, `"lazy"`', '`"eager"`'],
    idleTimeoutMs: [
      "whole positive ms, at most 2,147,483,647 (lazy only)",
      "600,000 (`IDLE_TIMEOUT_MS`)",
    ],
  },
  profile: {
    servers: ["the servers it uses", "all of them"],
    tools: ["patterns `server/tool`: `*` within a part, `!` excludes", "every tool of its servers"],
    pinned: ["its own pinned tools", "the config's pinned tools that are in the profile"],
    availableContextTokens: ["its own context size, in tokens", "the config's"],
    tokens: ["bearer tokens of its own clients (`${VAR}` expanded)", "none"],
  },
};
