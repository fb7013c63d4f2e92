/**
 * The gateway's configuration, declared once with zod: every key of the `unfold` block and of a
 * profile, and the whole file (its server entries are `servers.ts`'), each with its words. The
 * parser (`parse.ts`) reads a file by it; the JSON Schema for editors and the docs' key table
 * (`schema.ts`) are written from it; the public types (`types.ts`) are checked against what it
 * parses to (the end of this file).
 *
 * Adding a key is its line here — `name: key(schema, "what it takes", "its default")`, the
 * schema with its messages (`_declare.ts` has the pieces: `text()` for `${VAR}`, `rule()`,
 * `once()`, `filled()`, `byName()`) — and its behaviour. `deno check` then asks for its member
 * in `types.ts` (written out: JSR and `deno doc` take no inferred type), and
 * `deno run --allow-read --allow-write=docs scripts/build_config_schema.ts` writes the schema and
 * the table again (`test/gateway/config/schema_test.ts` fails until then). A key of the
 * injector's own configuration is `core(...)`: passed through to it and judged by its rules.
 *
 * @module
 */

import * as z from "zod/mini";
import {
  BRIDGE_NAME,
  checkConfig,
  DISCLOSURE_LEVELS,
  MAX_AVAILABLE_CONTEXT_TOKENS,
  MAX_RESULT_BYTES,
  type ProgressiveConfig,
} from "../../config.ts";
import {
  CODE_LIMIT_NAMES,
  CODE_LIMIT_RANGES,
  CODE_MODES,
  type CodeMode,
} from "../../code_mode/limits.ts";
import { DESCRIBE_FIRST_MODES } from "../../session/describe_first.ts";
import { SESSION_NAME } from "../../session/store.ts";
import { DEFAULT_TRUST, TRUST_MODES } from "../trust/policy.ts";
import { byName, filled, key, type Named, once, rule, shape, text } from "./_declare.ts";
import { reading } from "./_reading.ts";
import {
  distinctNames,
  isToolId,
  notIn,
  PROFILE,
  RESULT_BYTES_FALLBACK,
  RESULT_BYTES_WORDS,
  RESULT_TOKENS_FALLBACK,
  RESULT_TOKENS_WORDS,
  serverOf,
} from "./profile_keys.ts";
import { type Entry, HTTP, SERVER, SERVER_NAME, STDIO } from "./servers.ts";
import type { GatewayOptions, HttpUpstream, Profile, StdioUpstream } from "./types.ts";

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

/**
 * The gateway's `codeMode` when the config says none, where a sandbox runs scripts: scripts may
 * call read-only tools (`code_mode_served.ts`).
 */
export const GATEWAY_CODE_MODE: CodeMode = "read-only";

/** The value a key of a few values (in `UNFOLD.shape`) stands for when absent. */
export function fallbackOf<T>(schema: z.ZodMiniType<T>): Exclude<T, undefined> {
  return z.globalRegistry.get(schema)!.default as Exclude<T, undefined>;
}

// One of a few strings, and the value its absence stands for.
function choice<T extends string>(values: readonly T[], fallback: T) {
  const error = `must be one of ${values.map((v) => JSON.stringify(v)).join(", ")}`;
  return z.exactOptional(z.enum(values as [T, ...T[]], { error }))
    .register(z.globalRegistry, { default: fallback });
}

// A delay in milliseconds that a timer can hold.
function delay(whole = false) {
  const error = `must be a ${whole ? "whole " : ""}positive number of milliseconds, at most ` +
    `${MAX_DELAY_MS}`;
  const ms = whole ? z.int({ error }) : z.number({ error });
  return z.exactOptional(ms.check(z.gt(0), z.lte(MAX_DELAY_MS)));
}
const MS = "positive ms, at most 2,147,483,647";

const INJECTED = new WeakSet<z.core.$ZodType>();
// A key of the injector's own configuration, passed through to it: `schema` (what editors are
// told) is refused in the injector's words (`checkConfig`), and its rules judge the value last.
function core<T extends z.ZodMiniType>(
  name: keyof ProgressiveConfig,
  schema: (error: z.core.$ZodErrorMap) => T,
) {
  const said = (value: unknown) => {
    const checked = checkConfig({ [name]: value } as Partial<ProgressiveConfig>);
    return checked.ok ? undefined : checked.error.message;
  };
  const judged = z.exactOptional(schema((issue) => said(issue.input)).check(rule(said)));
  INJECTED.add(judged);
  return judged;
}

// The bounds of a run by name, each a whole number in its range; a problem is said in the
// injector's words of the bound alone (`checkConfig` of `{codeLimits: {name: value}}`).
function codeLimitsSchema(error: z.core.$ZodErrorMap) {
  const bounds = Object.fromEntries(CODE_LIMIT_NAMES.map((name) => {
    const [low, high] = CODE_LIMIT_RANGES[name];
    const said = ((issue: { input?: unknown }) =>
      error({ ...issue, input: { [name]: issue.input } } as never)) as z.core.$ZodErrorMap;
    return [
      name,
      z.exactOptional(
        z.int({ error: said }).check(z.gte(low, { error: said }), z.lte(high, { error: said })),
      ),
    ];
  })) as Record<(typeof CODE_LIMIT_NAMES)[number], z.ZodMiniExactOptional<z.ZodMiniInt>>;
  return z.strictObject(bounds, { error });
}

const LEVEL = `must be one of ${DISCLOSURE_LEVELS.map((v) => JSON.stringify(v)).join(", ")}`;
const LEVELS = z.array(z.enum(DISCLOSURE_LEVELS, { error: LEVEL }), {
  error: "must be an array of levels",
}).register(z.globalRegistry, { minItems: 1, uniqueItems: true });

// The block's pinned tools: ids `server/tool` of configured servers.
const PINNED_ID = 'must be a tool id "server/tool"';
const PINNED = z.array(
  z.string({ error: PINNED_ID }).check(
    z.refine(isToolId, { error: PINNED_ID, abort: true }),
    rule((id) =>
      reading().servers.includes(serverOf(id)) ? undefined : notIn(serverOf(id), [], false)
    ),
  ).register(z.globalRegistry, { pattern: "^[^/]+/[\\s\\S]" }),
  { error: 'must be an array of tool ids "server/tool"' },
).check(distinctNames);

/** The keys of the `unfold` block: how the gateway presents the upstreams. */
export const UNFOLD = shape({
  availableContextTokens: key(
    core(
      "availableContextTokens",
      (error) => z.int({ error }).check(z.gte(1), z.lte(MAX_AVAILABLE_CONTEXT_TOKENS)),
    ),
    "whole number, 1 to 10,000,000",
    "100,000 (`DEFAULT_CONFIG`)",
  ),
  inventoryThresholdPercent: key(
    core("inventoryThresholdPercent", (error) => z.number({ error }).check(z.gt(0), z.lte(100))),
    "number in (0, 100]: the overview's share of the context",
    "6",
  ),
  disclosure: key(
    core("disclosure", () => LEVELS),
    "levels the overview may use: `manifest`, `brief`, `names`, `inventory`",
    "all four",
  ),
  maxResultTokens: key(
    core(
      "maxResultTokens",
      (error) => z.int({ error }).check(z.gte(0), z.lte(MAX_AVAILABLE_CONTEXT_TOKENS)),
    ),
    RESULT_TOKENS_WORDS,
    RESULT_TOKENS_FALLBACK,
  ),
  maxResultBytes: key(
    core("maxResultBytes", (error) => z.int({ error }).check(z.gte(0), z.lte(MAX_RESULT_BYTES))),
    RESULT_BYTES_WORDS,
    RESULT_BYTES_FALLBACK,
  ),
  pinned: key(
    filled(once(PINNED), () => []),
    "ids `server/tool` of configured servers, listed directly",
    "none",
  ),
  bridgeName: key(
    core("bridgeName", (error) => z.string({ error }).check(z.regex(BRIDGE_NAME))),
    "1 to 64 of `A-Z a-z 0-9 _ -`",
    "`mcp`",
  ),
  callTimeoutMs: key(
    z.exactOptional(z.nullable(
      z.number({ error: "must be a positive number of milliseconds, or null for no timeout" })
        .check(z.gt(0), z.lte(MAX_DELAY_MS)),
    )),
    `${MS}, or \`null\` for none`,
    "300,000",
  ),
  startupTimeoutMs: key(delay(), MS, "5,000 (`STARTUP_TIMEOUT_MS`)"),
  restartDelayMs: key(delay(), MS, "1,000 (`RESTART_DEFAULTS`)"),
  restartMaxDelayMs: key(delay(), MS, "60,000 (`RESTART_DEFAULTS`)"),
  start: key(choice(START_MODES, "eager"), '`"eager"`, `"lazy"`', '`"eager"`'),
  idleTimeoutMs: key(delay(true), `whole ${MS} (lazy only)`, "600,000 (`IDLE_TIMEOUT_MS`)"),
  describeFirst: key(
    choice(DESCRIBE_FIRST_MODES, "enforce"),
    '`"enforce"`, `"off"`',
    '`"enforce"`',
  ),
  learn: key(
    core("learn", (error) => z.boolean({ error })),
    "`true`, `false`: search learns which tools the user runs after a search (`unfold forget`)",
    "`true`",
  ),
  overviewIn: key(
    choice(OVERVIEW_PLACES, "description"),
    '`"both"`, `"instructions"`, `"description"`',
    '`"description"` for hosts not known; a known host: where it shows the overview whole',
  ),
  upstreamInstructions: key(
    choice(UPSTREAM_INSTRUCTIONS_MODES, "brief"),
    '`"brief"` (at most 300 characters each), `"none"`',
    '`"brief"` (`UPSTREAM_INSTRUCTIONS_CHARS`)',
  ),
  trust: key(choice(TRUST_MODES, DEFAULT_TRUST), '`"off"`, `"notify"`, `"pin"`', '`"notify"`'),
  lockFile: key(
    z.exactOptional(z.string({ error: "must be a non-empty path" }).check(z.minLength(1))),
    "a path, relative to the config's folder",
    "`unfold.lock.json` beside the config",
  ),
  codeMode: key(
    core("codeMode", (error) => z.enum(CODE_MODES, { error }))
      .register(z.globalRegistry, { default: GATEWAY_CODE_MODE }),
    '`"off"`, `"read-only"` (a script calls only tools whose approved definition says `readOnlyHint: true`), `"all"`',
    '`"read-only"` where a sandbox runs scripts (the `unfold` command; the Worker with its `LOADER` binding), else `"off"`',
  ),
  codeLimits: key(
    core("codeLimits", codeLimitsSchema),
    "the bounds of one run (`timeoutMs`, `maxCalls`, …: [code mode](code_mode.md#limits))",
    "`DEFAULT_CODE_LIMITS`",
  ),
  profiles: key(
    z.exactOptional(byName(
      z.string().check(z.regex(SESSION_NAME, {
        error: "a profile name is 1 to 128 of A-Z a-z 0-9 . _ : - (it becomes /mcp/NAME)",
      })),
      PROFILE,
      "must be an object of profiles by name",
      "name",
    )),
    "profiles by name ([Profiles](#profiles))",
    "none",
  ),
}, "the unfold block takes");

const SERVER_NAME_PROBLEM =
  "a server name is 1 to 64 of A-Z a-z 0-9 _ . - (it becomes the first part of tool ids)";

/** The keys of a whole config: the host's `mcpServers`, unfold's block, and a schema for editors. */
export const CONFIG = shape(
  {
    $schema: key(
      z.exactOptional(text({ deferrable: false })),
      "the JSON Schema of this file, for editors (`docs/unfold.schema.json`)",
    ),
    mcpServers: key(
      byName(
        z.string().check(z.regex(SERVER_NAME, { error: SERVER_NAME_PROBLEM })),
        SERVER,
        "must be an object of servers by name",
        "server",
      ),
      "the upstream servers by name (1 to 64 of `A-Z a-z 0-9 _ . -`)",
    ),
    unfold: key(z.prefault(UNFOLD, {}), "how the gateway presents the upstreams"),
  },
  "the config takes",
  "must be a JSON object",
);

/** The keys of the `unfold` block that are the injector's own configuration, passed through. */
export const INJECTOR_KEYS = Object.keys(UNFOLD.shape).filter((name) =>
  INJECTED.has(UNFOLD.shape[name as keyof typeof UNFOLD.shape])
) as (keyof typeof UNFOLD.shape & keyof ProgressiveConfig)[];

/** The keys a profile sets in place of the `unfold` block's: those both have. */
export const PROFILE_OVERRIDES = Object.keys(PROFILE.shape).filter((name) =>
  name in UNFOLD.shape
) as (keyof typeof PROFILE.shape & keyof typeof UNFOLD.shape)[];

// The published types (`types.ts`) are what the declaration parses to: this stops compiling
// until they say the same, key for key.
type Same<A, B> = [A, keyof A] extends [B, keyof B] ? [B, keyof B] extends [A, keyof A] ? true
  : false
  : false;
type Check<T extends readonly true[]> = T;
type _Published = Check<[
  Same<GatewayOptions, z.output<typeof UNFOLD>>,
  Same<Profile, Named<z.output<typeof PROFILE>, "name">>,
  Same<StdioUpstream, Named<Entry<z.output<typeof STDIO>>, "server">>,
  Same<HttpUpstream, Named<Entry<z.output<typeof HTTP>>, "server">>,
]>;
