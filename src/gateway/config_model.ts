/**
 * The gateway's configuration, declared once: every key of a server entry (stdio or Streamable
 * HTTP, with its `oauth` block), of the `unfold` block and of a profile, as a field (its JSON
 * Schema and its reader, `config_fields.ts`). The types below are inferred from it; the parser
 * (`config.ts`), the JSON Schema for editors and the docs' key table (`config_schema.ts`, with
 * the words of `config_docs.ts`) read it. A new key is one line here, its words there, and its
 * behaviour.
 *
 * @module
 */

import {
  BRIDGE_NAME,
  checkConfig,
  DISCLOSURE_LEVELS,
  MAX_AVAILABLE_CONTEXT_TOKENS,
} from "../config.ts";
import type { ProgressiveConfig } from "../config.ts";
import type { OAuthSettings } from "../mcp/oauth/provider.ts";
import { DESCRIBE_FIRST_MODES } from "../session/session_route.ts";
import { SESSION_NAME } from "../session/store.ts";
import {
  choice,
  down,
  expand,
  fail,
  type Field,
  type JsonSchema,
  list,
  object,
  type Parsed,
  type Place,
  readShape,
  record,
  shapeSchema,
  text,
} from "./config_fields.ts";
import { closestKey } from "../_edit_distance.ts";
import { isRecord } from "../_record.ts";
import { closest, globMatch } from "./_name_match.ts";
import { TRUST_MODES } from "./trust.ts";

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
/** What a server's name may be: it becomes the first part of its tools' ids. */
export const SERVER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

// A key checked but not kept: hosts write `type` ("stdio", "http"…), and `disabled` skips an entry.
const ANY: Field<unknown> & { ignored: true } = { schema: {}, read: (raw) => raw, ignored: true };
const STRING: Field<string> = {
  schema: { type: "string" },
  read: (raw, at) => typeof raw === "string" ? expand(raw, at) : fail(at, "must be a string"),
};
const STRINGS = { ...record(STRING, "must be an object of strings"), fill: () => ({}) };

// A URL, or undefined (URL.parse is not in every runtime the Worker may meet).
function urlOf(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The keys of a stdio server entry. */
export const STDIO = {
  command: { ...text(), required: true },
  args: { ...list(STRING, "must be an array of strings"), fill: (): string[] => [] },
  env: STRINGS,
  cwd: text(),
  type: ANY,
  disabled: ANY,
} as const satisfies Record<string, Field<unknown>>;

const SCOPE = /^[\x21\x23-\x5B\x5D-\x7E]+$/;
/** The keys of a Streamable HTTP server's `oauth` block (`unfold login`). */
export const OAUTH_KEYS = {
  clientId: text(),
  clientSecret: text(),
  scopes: list<string>({
    schema: { type: "string", pattern: SCOPE.source },
    read: (raw, at) =>
      typeof raw === "string" && SCOPE.test(raw)
        ? raw
        : fail(at, "must be a scope: a non-empty string without spaces"),
  }, "must be an array of scopes"),
  clientMetadataUrl: {
    ...text(),
    read(raw: unknown, at: Place): string {
      const value = text().read(raw, at);
      const url = urlOf(value);
      return url?.protocol === "https:" && url.pathname !== "/"
        ? value
        : fail(at, "must be an https: URL with a path (a metadata document)");
    },
  },
};
const OAUTH_OBJECT = object(
  OAUTH_KEYS,
  "the oauth block takes",
  `must be an object with ${Object.keys(OAUTH_KEYS).join(", ")} (each optional)`,
);
const OAUTH: Field<OAuthSettings> = {
  ...OAUTH_OBJECT,
  read(raw, at) {
    const value = OAUTH_OBJECT.read(raw, at);
    if (value.clientSecret !== undefined && value.clientId === undefined) {
      fail(at, 'needs "clientId": a secret belongs to a pre-registered client', "clientSecret");
    }
    return value;
  },
};

/** The keys of a Streamable HTTP server entry. */
export const HTTP = {
  url: {
    ...text(),
    required: true,
    read(raw: unknown, at: Place): string {
      const url = text().read(raw, at);
      const parsed = urlOf(url);
      if (parsed === undefined) return fail(at, `${JSON.stringify(url)} is not a URL`);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
        fail(at, "must be an http: or https: URL");
      }
      return url;
    },
  },
  headers: STRINGS,
  oauth: OAUTH,
  type: ANY,
  disabled: ANY,
} as const satisfies Record<string, Field<unknown>>;

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

const PROFILE_PINNED = names(toolPattern(true));

/** The keys of a profile (`unfold.profiles.NAME`). */
export const PROFILE = {
  servers: names((server, at) => {
    if (!at.servers.includes(server)) unknownServer(server, at);
  }),
  tools: names(toolPattern(false)),
  pinned: {
    ...PROFILE_PINNED,
    read(raw: unknown, at: Place): string[] {
      const ids = PROFILE_PINNED.read(raw, at);
      checkPinnedNames(ids, at);
      return ids;
    },
  },
  availableContextTokens: {
    schema: { type: "integer", minimum: 1 },
    read: (raw: unknown, at: Place): number =>
      typeof raw === "number" && Number.isSafeInteger(raw) && raw > 0
        ? raw
        : fail(at, "must be a positive integer"),
  },
  tokens: list(text(), "must be an array of non-empty strings"),
} as const satisfies Record<string, Field<unknown>>;

/** One profile, as parsed: its name (what `--profile` and `/mcp/NAME` use) and its keys. */
export type Profile = { name: string } & Parsed<typeof PROFILE>;

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
        if (!servers.has(id.slice(0, slash))) {
          fail(
            at,
            `names the server ${JSON.stringify(id.slice(0, slash))}, which is not in mcpServers`,
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
  start: choice(START_MODES),
  idleTimeoutMs: delay(true),
  describeFirst: choice(DESCRIBE_FIRST_MODES),
  overviewIn: choice(OVERVIEW_PLACES),
  upstreamInstructions: choice(UPSTREAM_INSTRUCTIONS_MODES),
  trust: choice(TRUST_MODES),
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

/** The `unfold` block as parsed: `pinned` is always there (none: `[]`), the rest when given. */
export type GatewayOptions = Parsed<typeof UNFOLD>;

/** An upstream started as a child process, spoken to over stdio (`connectStdio`'s config). */
export type StdioUpstream = { server: string } & Parsed<typeof STDIO>;
/** An upstream reached over Streamable HTTP (`connectHttp`'s config, and its OAuth settings). */
export type HttpUpstream = { server: string } & Parsed<typeof HTTP>;
/** One upstream server. */
export type UpstreamConfig = StdioUpstream | HttpUpstream;

/** A server entry of `mcpServers`: stdio or Streamable HTTP by its keys, or `"disabled": true`. */
export const SERVER: Field<UpstreamConfig | undefined> = {
  schema: {
    anyOf: [
      shapeSchema(STDIO),
      shapeSchema(HTTP),
      { type: "object", properties: { disabled: { const: true } }, required: ["disabled"] },
    ],
  },
  read(raw, at) {
    if (!isRecord(raw)) return fail(at, "must be an object");
    if (raw.disabled === true) return undefined;
    // A mistyped key ("comand") is named with the key it meant before anything else is judged.
    const keys = [...new Set([...Object.keys(STDIO), ...Object.keys(HTTP)])];
    for (const key of Object.keys(raw)) {
      const meant = keys.includes(key) ? undefined : closestKey(key, keys);
      if (meant !== undefined) {
        fail(at, `unknown field: did you mean ${JSON.stringify(meant)}?`, key);
      }
    }
    const stdio = Object.hasOwn(raw, "command");
    if (stdio === Object.hasOwn(raw, "url")) {
      fail(at, 'needs either "command" (a stdio server) or "url" (a Streamable HTTP server)');
    }
    const unknown = Object.keys(raw).find((key) => !Object.hasOwn(stdio ? STDIO : HTTP, key));
    if (unknown !== undefined) {
      fail(at, `unknown field for a ${stdio ? "stdio" : "Streamable HTTP"} server`, unknown);
    }
    const server = at.path[at.path.length - 1]!;
    return stdio
      ? { server, ...readShape(STDIO, raw, at) }
      : { server, ...readShape(HTTP, raw, at) };
  },
};

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
