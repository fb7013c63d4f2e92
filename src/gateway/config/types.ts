/**
 * The public types of the gateway's configuration: what a config parses to. They are what zod
 * infers from the declaration (`model.ts`, `servers.ts`), written out because JSR and
 * `deno doc --lint` take no inferred type in a public API; `deno check` fails when the two differ
 * (the checks at the end of `model.ts`), so a key added there asks for its member here. Each
 * key's words are the declaration's (the docs' table, `docs/gateway.md`).
 *
 * @module
 */

import type { CodeLimits } from "../../code_mode/limits.ts";
import type { OAuthSettings } from "../../mcp/oauth/provider.ts";

/** The `unfold` block as parsed: `pinned` is always there (none: `[]`), the rest when given. */
export interface GatewayOptions {
  /** Whole number, 1 to 10,000,000. Default: 100,000 (`DEFAULT_CONFIG`). */
  availableContextTokens?: number;
  /** Number in (0, 100]: the overview's share of the context. Default: 6. */
  inventoryThresholdPercent?: number;
  /** Levels the overview may use: `manifest`, `brief`, `names`, `inventory`. Default: all four. */
  disclosure?: ("manifest" | "brief" | "names" | "inventory")[];
  /**
   * `0` (no ceiling), or a whole number 100 to 10,000,000: the most tokens one answer carries.
   * Default: 10 % of `availableContextTokens`, at least 1,000, at most 25,000.
   */
  maxResultTokens?: number;
  /**
   * `0` (no ceiling), or whole bytes up to 1 GiB: images, audio and blobs in one answer.
   * Default: 1,048,576 (1 MiB).
   */
  maxResultBytes?: number;
  /** Ids `server/tool` of configured servers, listed directly. Default: none (`[]`). */
  pinned: string[];
  /** 1 to 64 of `A-Z a-z 0-9 _ -`. Default: `mcp`. */
  bridgeName?: string;
  /** Positive ms, at most 2,147,483,647, or `null` for none. Default: 300,000. */
  callTimeoutMs?: number | null;
  /** Positive ms, at most 2,147,483,647. Default: 5,000 (`STARTUP_TIMEOUT_MS`). */
  startupTimeoutMs?: number;
  /** Positive ms, at most 2,147,483,647. Default: 1,000 (`RESTART_DEFAULTS`). */
  restartDelayMs?: number;
  /** Positive ms, at most 2,147,483,647. Default: 60,000 (`RESTART_DEFAULTS`). */
  restartMaxDelayMs?: number;
  /** `"eager"`, `"lazy"`. Default: `"eager"`. */
  start?: "eager" | "lazy";
  /** Whole positive ms, at most 2,147,483,647 (lazy only). Default: 600,000 (`IDLE_TIMEOUT_MS`). */
  idleTimeoutMs?: number;
  /** `"enforce"`, `"off"`. Default: `"enforce"`. */
  describeFirst?: "enforce" | "off";
  /**
   * `true`, `false`: search learns which tools the user runs after a search (`unfold forget`).
   * Default: `true`.
   */
  learn?: boolean;
  /**
   * `"both"`, `"instructions"`, `"description"`. Default: `"description"` for hosts
   * not known; a known host: where it shows the overview whole.
   */
  overviewIn?: "both" | "instructions" | "description";
  /** `"brief"` (at most 300 characters each), `"none"`. Default: `"brief"`. */
  upstreamInstructions?: "brief" | "none";
  /** `"off"`, `"notify"`, `"pin"`. Default: `"notify"`. */
  trust?: "off" | "notify" | "pin";
  /** A path, relative to the config's folder. Default: `unfold.lock.json` beside the config. */
  lockFile?: string;
  /**
   * `"off"`, `"read-only"` (a script calls only tools whose approved definition says
   * `readOnlyHint: true`), `"all"`. Default: `"read-only"` where a sandbox runs scripts (the
   * `unfold` command; the Worker with its `LOADER` binding), else `"off"`.
   */
  codeMode?: "off" | "read-only" | "all";
  /** The bounds of one run (`timeoutMs`, `maxCalls`, …). Default: `DEFAULT_CODE_LIMITS`. */
  codeLimits?: { [K in keyof CodeLimits]?: number };
  /** Profiles by name (an object without a prototype: look a name up with `Object.hasOwn`). */
  profiles?: Record<string, Profile>;
}

/** One profile (`unfold.profiles.NAME`), as parsed. */
export interface Profile {
  /** Its name: what `--profile` and `/mcp/NAME` use. */
  name: string;
  /** The servers it uses. Default: all of them. */
  servers?: string[];
  /** Patterns `server/tool`: `*` within a part, `!` excludes. Default: every tool of its servers. */
  tools?: string[];
  /** Its own pinned tools. Default: the config's pinned tools that are in the profile. */
  pinned?: string[];
  /** Its own context size, in tokens. Default: the config's. */
  availableContextTokens?: number;
  /** Its own `learn`. Default: the config's. */
  learn?: boolean;
  /** Its own `codeMode`. Default: the config's. */
  codeMode?: "off" | "read-only" | "all";
  /** Its own `maxResultTokens`. Default: the config's. */
  maxResultTokens?: number;
  /** Its own `maxResultBytes`. Default: the config's. */
  maxResultBytes?: number;
  /** Bearer tokens of its own clients (`${VAR}` expanded). Default: none. */
  tokens?: string[];
}

/** An upstream started as a child process, spoken to over stdio (`connectStdio`'s config). */
export interface StdioUpstream {
  /** Its name in `mcpServers`: the first part of its tools' ids. */
  server: string;
  /** The program of a stdio server. */
  command: string;
  /** Its arguments. Default: none. */
  args: string[];
  /** Environment variables for it, over a safe subset of the gateway's (no prototype). */
  env: Record<string, string>;
  /** Its working directory. Default: the gateway's. */
  cwd?: string;
}

/** An upstream reached over Streamable HTTP (`connectHttp`'s config, and its OAuth settings). */
export interface HttpUpstream {
  /** Its name in `mcpServers`: the first part of its tools' ids. */
  server: string;
  /** The MCP endpoint of a Streamable HTTP server (`http:` or `https:`). */
  url: string;
  /** Headers sent with every request (its own credentials; no prototype). */
  headers: Record<string, string>;
  /** How `unfold login` signs in: `clientId`, `clientSecret`, `scopes`, `clientMetadataUrl`. */
  oauth?: OAuthSettings;
}

/** One upstream server. */
export type UpstreamConfig = StdioUpstream | HttpUpstream;
