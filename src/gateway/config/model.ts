/**
 * The gateway's configuration, declared once: every key of the `unfold` block and of a
 * profile, and the whole file (its server entries are `config_servers.ts`'), as fields (the JSON
 * Schema of a value and its reader, `_config_fields.ts`). The parser (`config.ts`), the JSON
 * Schema for editors, the docs' key table and the public types written out (`config_schema.ts`,
 * with the words of `config_docs.ts`) read them; those types are checked against the inferred
 * ones here. A new key is one line here, its words there, and its behaviour.
 *
 * @module
 */

import {
  BRIDGE_NAME,
  checkConfig,
  DISCLOSURE_LEVELS,
  MAX_AVAILABLE_CONTEXT_TOKENS,
} from "../../config.ts";
import type { ProgressiveConfig } from "../../config.ts";
import { DESCRIBE_FIRST_MODES } from "../../session/describe_first.ts";
import { SESSION_NAME } from "../../session/store.ts";
import {
  type Check,
  choice,
  down,
  fail,
  type Field,
  type JsonSchema,
  list,
  object,
  type Parsed,
  type Place,
  record,
  refine,
  type Same,
  text,
} from "./_fields.ts";
import { SERVER, SERVER_NAME } from "./servers.ts";
import type { GatewayOptions, Profile } from "./types.ts";
import { closest, globMatch } from "./_name_match.ts";
import { DEFAULT_TRUST, TRUST_MODES } from "../trust/policy.ts";

/** When the upstreams' processes run: see the `start` key. */
export type StartMode = "eager" | "lazy";
/** Every {@linkcode StartMode}, the default first. */
export const START_MODES: readonly StartMode[] = ["eager", "lazy"];
/** How long a lazy upstream may go without a call before it is stopped, by default: 10 min. */
export const IDLE_TIMEOUT_MS = 600_000;
/** Where the overview may go: see the `overviewIn` key. */
export const OVERVIEW_PLACES: readonly ("both" | "instructions" | "description")[] = [
  "both",
  "instructions",
  "description",
];
/** How an upstream's own instructions may be shown. */
export const UPSTREAM_INSTRUCTIONS_MODES: readonly ("brief" | "none")[] = ["brief", "none"];
/** The most characters of one upstream's instructions the overview shows. */
export const UPSTREAM_INSTRUCTIONS_CHARS = 300;
/** How long the gateway waits for its upstreams at start, by default: 5 s. */
export const STARTUP_TIMEOUT_MS = 5_000;
/** The restart backoff by default: 1 s, doubled at each failure in a row, at most 60 s. */
export const RESTART_DEFAULTS: Readonly<{ initialDelayMs: number; maxDelayMs: number }> = Object
  .freeze({ initialDelayMs: 1_000, maxDelayMs: 60_000 });
/** The longest delay the config may set: what a timer can hold. */
export const MAX_DELAY_MS = 2 ** 31 - 1;
const unknownServer = (server: string, at: Place): never =>
  fail(
    at,
    `names the server ${JSON.stringify(server)}, which is not in mcpServers${
      closest(server, at.servers)
    }`,
  );

// A profile's lists: non-empty strings, each checked, kept once each.
function names(check: (item: string, at: Place) => void = () => {}): Field<string[]> {
  return {
    schema: { type: "array", items: { type: "string", minLength: 1 } },
    read(raw, at) {
      if (!Array.isArray(raw) || raw.some((item) => typeof item !== "string" || item === "")) {
        fail(at, "must be an array of non-empty strings");
      }
      (raw as string[]).forEach((item, i) => check(item, down(at, String(i))));
      return [...new Set(raw as string[])];
    },
  };
}

// A tool pattern of a profile: `server/glob`, `!` excluding (tools), no `*` (pinned).
function toolPattern(pinned: boolean) {
  return (item: string, at: Place): void => {
    const pattern = !pinned && item.startsWith("!") ? item.slice(1) : item;
    const slash = pattern.indexOf("/");
    if (slash < 1 || slash === pattern.length - 1) {
      fail(at, 'must be "server/tool" (tools: "*" globs, "!" excludes)');
    }
    if (pinned && pattern.includes("*")) fail(at, "must be a tool id, not a pattern");
    const server = pattern.slice(0, slash);
    if (!at.servers.some((s) => globMatch(server, s))) unknownServer(server, at);
  };
}

// A pinned tool is listed as server__tool: two ids that make the same name would be two tools
// of one name, and calls would reach only one of them.
function checkPinnedNames(pinned: readonly string[], at: Place): void {
  const seen = new Map<string, string>();
  pinned.forEach((id, i) => {
    const slash = id.indexOf("/");
    const name = `${id.slice(0, slash)}__${id.slice(slash + 1)}`;
    const other = seen.get(name);
    if (other !== undefined) {
      fail(
        at,
        `${JSON.stringify(id)} and ${JSON.stringify(other)} would both be listed as ${
          JSON.stringify(name)
        }: pin only one of them`,
        String(i),
      );
    }
    seen.set(name, id);
  });
}

/** The keys of a profile (`unfold.profiles.NAME`). */
// A profile's bearer tokens: `${VAR}` expanded, never empty or with white space (a header could
// not carry it), each kept once.
const TOKEN: Field<string> = {
  ...refine(text(false), (token, at) => {
    if (!/^\S+$/.test(token)) fail(at, "must be a non-empty token without spaces");
  }),
  schema: { type: "string", pattern: "^\\S+$" },
};
const TOKEN_LIST = list(TOKEN, "must be an array of strings (${VAR} reads the environment)");
const TOKENS: Field<string[]> = {
  ...TOKEN_LIST,
  read: (raw, at) => [...new Set(TOKEN_LIST.read(raw, at))],
};

export const PROFILE = {
  servers: names((server, at) => {
    if (!at.servers.includes(server)) unknownServer(server, at);
  }),
  tools: names(toolPattern(false)),
  pinned: refine(names(toolPattern(true)), checkPinnedNames),
  availableContextTokens: {
    schema: { type: "integer", minimum: 1 },
    read: (raw: unknown, at: Place): number =>
      typeof raw === "number" && Number.isSafeInteger(raw) && raw > 0
        ? raw
        : fail(at, "must be a positive integer"),
  },
  tokens: TOKENS,
} as const satisfies Record<string, Field<unknown>>;

const PROFILE_OBJECT = object(PROFILE, "a profile takes");

// A key of the injector's own configuration, checked by its own rules (`checkConfig`).
function core<K extends keyof ProgressiveConfig>(
  key: K,
  schema: JsonSchema,
): Field<ProgressiveConfig[K]> & { injector: K };
function core<K extends keyof ProgressiveConfig, T>(
  key: K,
  schema: JsonSchema,
  first: Field<T>,
): Field<T> & { injector: K };
function core<K extends keyof ProgressiveConfig, T>(
  key: K,
  schema: JsonSchema,
  first?: Field<T>,
): Field<T> & { injector: K } {
  return {
    schema,
    injector: key,
    read(raw, at) {
      const value = first === undefined ? raw : first.read(raw, at);
      const checked = checkConfig({ [key]: value } as Partial<ProgressiveConfig>);
      return checked.ok ? value as T : fail(at, checked.error.message);
    },
  };
}

// A delay in milliseconds that a timer can hold.
function delay(whole = false): Field<number> {
  return {
    schema: { type: whole ? "integer" : "number", exclusiveMinimum: 0, maximum: MAX_DELAY_MS },
    read: (raw, at) =>
      typeof raw === "number" && raw > 0 && raw <= MAX_DELAY_MS && (!whole || Number.isInteger(raw))
        ? raw
        : fail(
          at,
          `must be a ${
            whole ? "whole " : ""
          }positive number of milliseconds, at most ${MAX_DELAY_MS}`,
        ),
  };
}

/** The keys of the `unfold` block: how the gateway presents the upstreams. */
export const UNFOLD = {
  availableContextTokens: core("availableContextTokens", {
    type: "integer",
    minimum: 1,
    maximum: MAX_AVAILABLE_CONTEXT_TOKENS,
  }),
  inventoryThresholdPercent: core(
    "inventoryThresholdPercent",
    { type: "number", exclusiveMinimum: 0, maximum: 100 },
  ),
  disclosure: core(
    "disclosure",
    { type: "array", items: { enum: DISCLOSURE_LEVELS }, minItems: 1, uniqueItems: true },
    list(choice(DISCLOSURE_LEVELS), "must be an array of levels"),
  ),
  pinned: {
    schema: { type: "array", items: { type: "string", pattern: "^[^/]+/[\\s\\S]" } },
    fill: (): string[] => [],
    read(raw: unknown, at: Place): string[] {
      if (!Array.isArray(raw)) fail(at, 'must be an array of tool ids "server/tool"');
      const servers = new Set(at.servers);
      raw.forEach((id, i) => {
        const slash = typeof id === "string" ? id.indexOf("/") : -1;
        if (typeof id !== "string" || slash < 1 || slash === id.length - 1) {
          fail(at, 'must be a tool id "server/tool"', String(i));
        }
        const server = id.slice(0, slash);
        if (!servers.has(server)) {
          fail(
            at,
            `names the server ${JSON.stringify(server)}, which is not in mcpServers`,
            String(i),
          );
        }
      });
      const ids = [...new Set(raw as string[])];
      checkPinnedNames(ids, at);
      return ids;
    },
  },
  bridgeName: core("bridgeName", {
    type: "string",
    pattern: BRIDGE_NAME.source,
  }),
  callTimeoutMs: {
    schema: { type: ["number", "null"], exclusiveMinimum: 0, maximum: MAX_DELAY_MS },
    read: (raw: unknown, at: Place): number | null =>
      raw === null || (typeof raw === "number" && raw > 0 && raw <= MAX_DELAY_MS)
        ? raw
        : fail(at, "must be a positive number of milliseconds, or null for no timeout"),
  },
  startupTimeoutMs: delay(),
  restartDelayMs: delay(),
  restartMaxDelayMs: delay(),
  start: choice(START_MODES, "eager"),
  idleTimeoutMs: delay(true),
  describeFirst: choice(DESCRIBE_FIRST_MODES, "enforce"),
  overviewIn: choice(OVERVIEW_PLACES, "description"),
  upstreamInstructions: choice(UPSTREAM_INSTRUCTIONS_MODES, "brief"),
  trust: choice(TRUST_MODES, DEFAULT_TRUST),
  lockFile: {
    schema: { type: "string", minLength: 1 },
    read: (raw: unknown, at: Place): string =>
      typeof raw === "string" && raw !== "" ? raw : fail(at, "must be a non-empty path"),
  },
  profiles: record<Profile>(
    {
      schema: PROFILE_OBJECT.schema,
      read: (raw, at) => ({ name: at.path[at.path.length - 1]!, ...PROFILE_OBJECT.read(raw, at) }),
    },
    "must be an object of profiles by name",
    {
      pattern: SESSION_NAME,
      problem: "a profile name is 1 to 128 of A-Z a-z 0-9 . _ : - (it becomes /mcp/NAME)",
    },
  ),
} as const satisfies Record<string, Field<unknown>>;

// The public types are these, written out (`config_types.ts`) so that JSR and `deno doc` need
// no inference: this fails to compile until `scripts/build_config_schema.ts` writes them again.
type _WrittenOut = Check<[
  Same<GatewayOptions, Parsed<typeof UNFOLD>>,
  Same<Profile, { name: string } & Parsed<typeof PROFILE>>,
]>;

/** The keys of a whole config: the host's `mcpServers`, unfold's block, and a schema for editors. */
export const CONFIG = {
  $schema: text(),
  mcpServers: {
    ...record(SERVER, "must be an object of servers by name", {
      pattern: SERVER_NAME,
      problem:
        "a server name is 1 to 64 of A-Z a-z 0-9 _ . - (it becomes the first part of tool ids)",
    }),
    required: true,
  },
  unfold: object(UNFOLD, "the unfold block takes"),
} as const satisfies Record<string, Field<unknown>>;

/** The keys of the `unfold` block that are the injector's own configuration, passed through. */
export const INJECTOR_KEYS = Object.keys(UNFOLD).filter((key) =>
  "injector" in UNFOLD[key as keyof typeof UNFOLD]
) as (keyof typeof UNFOLD & keyof ProgressiveConfig)[];

/** The keys a profile sets in place of the `unfold` block's: those both have. */
export const PROFILE_OVERRIDES = Object.keys(PROFILE).filter((key) =>
  key in UNFOLD
) as (keyof typeof PROFILE & keyof typeof UNFOLD)[];
