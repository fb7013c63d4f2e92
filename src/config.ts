/**
 * The configuration of an {@linkcode Injector}: its budget, search limits, bridge tool name and
 * format, and the disclosure levels it may use.
 *
 * @module
 */

import { estimateTokens } from "./tokens.ts";
import type { Result } from "./result.ts";
import { MAX_QUERY_CHARS } from "./limits.ts";
import { checkCodeSettings, type CodeLimits, type CodeMode } from "./code_mode/limits.ts";
import { codeList } from "./utils/code_list.ts";

/**
 * How much of the catalogue the prompt lists:
 * - `manifest`: every `server/tool` with its full description;
 * - `brief`: every `server/tool` with the first sentence of its description;
 * - `names`: every tool name, grouped by server;
 * - `inventory`: server names with tool counts (always the fallback).
 */
export type DisclosureLevel = "manifest" | "brief" | "names" | "inventory";

/** The disclosure levels, richest first. */
export const DISCLOSURE_LEVELS: readonly [DisclosureLevel, ...DisclosureLevel[]] = codeList<
  DisclosureLevel
>({ manifest: 0, brief: 0, names: 0, inventory: 0 });

/** A tool-definition format: OpenAI function, Anthropic tool or MCP tool. */
export type ToolFormat = "openai" | "anthropic" | "mcp";

/** The tool-definition formats the bridge tool can be emitted in. */
export const TOOL_FORMATS: readonly [ToolFormat, ...ToolFormat[]] = codeList<ToolFormat>({
  openai: 0,
  anthropic: 0,
  mcp: 0,
});

// The configuration writes code mode's union out (the docs show it); it is CodeMode's.
true satisfies ([CodeMode] extends [ProgressiveConfig["codeMode"]] ? true : false);
true satisfies ([ProgressiveConfig["codeMode"]] extends [CodeMode] ? true : false);

/** The configuration of an injector. Every field has a default in {@linkcode DEFAULT_CONFIG}. */
export interface ProgressiveConfig {
  /**
   * The context the model still has available, in tokens; a positive integer up to
   * {@linkcode MAX_AVAILABLE_CONTEXT_TOKENS}.
   * @default {100000}
   */
  availableContextTokens: number;
  /**
   * The share of `availableContextTokens` the catalogue listing may use, in (0, 100].
   * @default {6}
   */
  inventoryThresholdPercent: number;
  /**
   * The number of search results when the model gives no `limit`.
   * @default {5}
   */
  searchDefaultLimit: number;
  /**
   * The most search results the model may ask for; at most 50.
   * @default {20}
   */
  maxSearchLimit: number;
  /**
   * The bridge tool's name: 1 to 64 of `A-Z a-z 0-9 _ -`.
   * @default {"mcp"}
   */
  bridgeName: string;
  /**
   * The format of the bridge tool definition.
   * @default {"openai"}
   */
  toolFormat: ToolFormat;
  /**
   * The disclosure levels the prompt may use; `inventory` is the fallback whatever this says.
   * @default {["manifest", "brief", "names", "inventory"]}
   */
  disclosure: readonly DisclosureLevel[];
  /**
   * The token estimate used for budgets.
   * @default {estimateTokens}
   */
  estimateTokens: (text: string) => number;
  /**
   * The most code points of one description shown in a listing or a search result.
   * @default {4000}
   */
  maxDescriptionChars: number;
  /**
   * The longest search query accepted from the model, in code points: a pasted task is ranked
   * whole up to this, a longer query gets an error saying what to send instead.
   * @default {MAX_QUERY_CHARS} (8000)
   */
  maxQueryChars: number;
  /**
   * Whether search learns from the user's own runs: a tool executed after a search rises, within
   * a bound, for later requests with the same words (per profile and tenant; the host's store
   * keeps it, see `./session/learned.ts`). `false` neither uses nor records what was run.
   * @default {true}
   */
  learn: boolean;
  /**
   * The most tokens (by `estimateTokens`) one answer of the bridge may carry: a search, a
   * describe, an error, an execute's result, a part asked for with `more`. A longer answer is cut
   * at a clean boundary and ends with a marker that says how much was shown and how to get the
   * rest. `0` means no ceiling; otherwise at least {@linkcode MIN_RESULT_TOKENS}. When not
   * given it is derived from the budget ({@linkcode defaultMaxResultTokens}): 10 % of
   * `availableContextTokens`, at least 1,000 and at most 25,000.
   * @default {10000}
   */
  maxResultTokens: number;
  /**
   * The most bytes of images, audio and embedded binary resources one answer may carry (decoded
   * size). A bigger block is replaced by a line naming its type, size and URI; `0` means no
   * ceiling.
   * @default {1048576}
   */
  maxResultBytes: number;
  /**
   * Code mode: whether the bridge offers `run` (a script that composes tools in a sandbox), and
   * what a script may call (`read-only`: only tools whose definition says `readOnlyHint: true`).
   * A host that runs its own tools opts in, since it must then answer the calls a run needs.
   * @default {"off"}
   */
  codeMode: "off" | "read-only" | "all";
  /**
   * The bounds of one run, over `DEFAULT_CODE_LIMITS` (`src/code_mode/limits.ts`).
   * @default {{}}
   */
  codeLimits: Readonly<Partial<CodeLimits>>;
}

/** The default configuration (the seed's defaults). */
export const DEFAULT_CONFIG: Readonly<ProgressiveConfig> = Object.freeze({
  availableContextTokens: 100_000,
  inventoryThresholdPercent: 6,
  searchDefaultLimit: 5,
  maxSearchLimit: 20,
  bridgeName: "mcp",
  toolFormat: "openai",
  disclosure: DISCLOSURE_LEVELS,
  estimateTokens,
  maxDescriptionChars: 4000,
  maxQueryChars: MAX_QUERY_CHARS,
  learn: true,
  maxResultTokens: 10_000,
  maxResultBytes: 1024 * 1024,
  codeMode: "off",
  codeLimits: Object.freeze({}),
});

/**
 * The smallest `maxResultTokens` other than `0`: below it the marker that ends a cut answer
 * (some 40 tokens) would outweigh the part it ends.
 */
export const MIN_RESULT_TOKENS = 100;

/**
 * The highest default `maxResultTokens`: 25,000, where Claude Code cuts an MCP tool's output.
 */
export const MAX_DEFAULT_RESULT_TOKENS = 25_000;

/**
 * The `maxResultTokens` a configuration gets when it gives none: 10 % of the context still
 * available, at least 1,000 and at most {@linkcode MAX_DEFAULT_RESULT_TOKENS} (25,000). A result
 * stays in the conversation for every later turn, so one answer may take a tenth of what is left;
 * 100,000 tokens give 10,000 (where Claude Code starts warning about an MCP tool's output).
 *
 * @param availableContextTokens The context the model still has available, in tokens.
 * @returns The ceiling, in tokens.
 *
 * @example Usage
 * ```ts
 * import { defaultMaxResultTokens } from "./config.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(defaultMaxResultTokens(100_000), 10_000);
 * equal(defaultMaxResultTokens(8_000), 1_000);
 * equal(defaultMaxResultTokens(1_000_000), 25_000);
 * ```
 */
export function defaultMaxResultTokens(availableContextTokens: number): number {
  return Math.min(
    MAX_DEFAULT_RESULT_TOKENS,
    Math.max(1_000, Math.floor(availableContextTokens / 10)),
  );
}

/**
 * The largest `availableContextTokens` accepted: ten million tokens, the largest context windows
 * announced. With the byte cap on listings (`MAX_LISTING_BYTES`) it bounds what an injection costs.
 */
export const MAX_AVAILABLE_CONTEXT_TOKENS = 10_000_000;

/** The highest `maxResultBytes` allowed: 1 GiB (the byte ceiling is on binary blocks). */
export const MAX_RESULT_BYTES = 1024 * 1024 * 1024;

/** The highest `maxSearchLimit` allowed. */
export const MAX_SEARCH_LIMIT = 50;

/** What a `bridgeName` may be: 1 to 64 of `A-Z a-z 0-9 _ -` (the tool-name rule every provider accepts). */
export const BRIDGE_NAME: RegExp = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Thrown for a configuration field out of range: a `RangeError` that also says which field.
 *
 * @example Usage
 * ```ts
 * import { InvalidConfigError, resolveConfig } from "./config.ts";
 * import { throws } from "node:assert/strict";
 *
 * throws(() => resolveConfig({ maxSearchLimit: 99 }), (e) => e instanceof InvalidConfigError && e.field === "maxSearchLimit");
 * ```
 */
export class InvalidConfigError extends RangeError {
  /** The field out of range. */
  readonly field: keyof ProgressiveConfig;

  /**
   * Makes the error.
   *
   * @param field The field out of range.
   * @param rule The rule it breaks, and the value it had.
   */
  constructor(field: keyof ProgressiveConfig, rule: string) {
    super(`Invalid config "${field}": ${rule}`);
    this.name = "InvalidConfigError";
    this.field = field;
  }
}

/** A checked configuration, or the first field out of range. */
export type ConfigResult = Result<ProgressiveConfig, InvalidConfigError>;

/**
 * Merges a partial configuration over the defaults and validates the result, answering a field
 * out of range as a value (a request's budget or a config file is input, not a bug). Fields given
 * as `undefined` keep their default.
 *
 * @param config The fields to change.
 * @returns The complete, validated configuration, or the error naming the field and the rule.
 *
 * @example Usage
 * ```ts
 * import { checkConfig } from "./config.ts";
 * import { equal } from "node:assert/strict";
 *
 * const checked = checkConfig({ inventoryThresholdPercent: 0 });
 * equal(checked.ok ? undefined : checked.error.field, "inventoryThresholdPercent");
 * ```
 */
export function checkConfig(config: Partial<ProgressiveConfig> = {}): ConfigResult {
  const merged: Record<string, unknown> = { ...DEFAULT_CONFIG };
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined) merged[key] = value;
  }
  const c = merged as unknown as ProgressiveConfig;
  // Derived from the budget unless given (after the budget is checked, below).
  const derived = config.maxResultTokens === undefined;
  const fail = (field: keyof ProgressiveConfig, rule: string, value: unknown): ConfigResult => ({
    ok: false,
    error: new InvalidConfigError(field, `${rule}, got ${describe(value)}`),
  });
  if (
    !Number.isSafeInteger(c.availableContextTokens) || c.availableContextTokens <= 0 ||
    c.availableContextTokens > MAX_AVAILABLE_CONTEXT_TOKENS
  ) {
    return fail(
      "availableContextTokens",
      `must be an integer from 1 to ${MAX_AVAILABLE_CONTEXT_TOKENS}`,
      c.availableContextTokens,
    );
  }
  if (
    typeof c.inventoryThresholdPercent !== "number" || !(c.inventoryThresholdPercent > 0) ||
    !(c.inventoryThresholdPercent <= 100)
  ) {
    return fail(
      "inventoryThresholdPercent",
      "must be a number in (0, 100]",
      c.inventoryThresholdPercent,
    );
  }
  if (
    !Number.isSafeInteger(c.maxSearchLimit) || c.maxSearchLimit < 1 ||
    c.maxSearchLimit > MAX_SEARCH_LIMIT
  ) {
    return fail(
      "maxSearchLimit",
      `must be an integer from 1 to ${MAX_SEARCH_LIMIT}`,
      c.maxSearchLimit,
    );
  }
  if (
    !Number.isSafeInteger(c.searchDefaultLimit) || c.searchDefaultLimit < 1 ||
    c.searchDefaultLimit > c.maxSearchLimit
  ) {
    return fail(
      "searchDefaultLimit",
      `must be an integer from 1 to maxSearchLimit (${c.maxSearchLimit})`,
      c.searchDefaultLimit,
    );
  }
  if (typeof c.bridgeName !== "string" || !BRIDGE_NAME.test(c.bridgeName)) {
    return fail("bridgeName", "must be 1 to 64 of A-Z a-z 0-9 _ -", c.bridgeName);
  }
  if (!(TOOL_FORMATS as readonly unknown[]).includes(c.toolFormat)) {
    return fail(
      "toolFormat",
      `must be one of ${TOOL_FORMATS.map(describe).join(", ")}`,
      c.toolFormat,
    );
  }
  if (
    !Array.isArray(c.disclosure) || c.disclosure.length === 0 ||
    c.disclosure.some((level) => !(DISCLOSURE_LEVELS as readonly unknown[]).includes(level)) ||
    new Set(c.disclosure).size !== c.disclosure.length
  ) {
    return fail(
      "disclosure",
      `must be a non-empty list of distinct levels from ${
        DISCLOSURE_LEVELS.map(describe).join(", ")
      }`,
      c.disclosure,
    );
  }
  if (typeof c.estimateTokens !== "function") {
    return fail("estimateTokens", "must be a function", c.estimateTokens);
  }
  if (!Number.isSafeInteger(c.maxDescriptionChars) || c.maxDescriptionChars < 1) {
    return fail("maxDescriptionChars", "must be a positive integer", c.maxDescriptionChars);
  }
  if (!Number.isSafeInteger(c.maxQueryChars) || c.maxQueryChars < 1) {
    return fail("maxQueryChars", "must be a positive integer", c.maxQueryChars);
  }
  if (typeof c.learn !== "boolean") return fail("learn", "must be true or false", c.learn);
  if (derived) c.maxResultTokens = defaultMaxResultTokens(c.availableContextTokens);
  if (
    !Number.isSafeInteger(c.maxResultTokens) ||
    (c.maxResultTokens !== 0 &&
      (c.maxResultTokens < MIN_RESULT_TOKENS || c.maxResultTokens > MAX_AVAILABLE_CONTEXT_TOKENS))
  ) {
    return fail(
      "maxResultTokens",
      `must be 0 (no ceiling) or an integer from ${MIN_RESULT_TOKENS} to ${MAX_AVAILABLE_CONTEXT_TOKENS}`,
      c.maxResultTokens,
    );
  }
  if (
    !Number.isSafeInteger(c.maxResultBytes) || c.maxResultBytes < 0 ||
    c.maxResultBytes > MAX_RESULT_BYTES
  ) {
    return fail(
      "maxResultBytes",
      `must be 0 (no ceiling) or an integer up to ${MAX_RESULT_BYTES}`,
      c.maxResultBytes,
    );
  }
  const code = checkCodeSettings(c.codeMode, c.codeLimits);
  if (!code.ok) return fail(code.error.field, code.error.message, code.error.value);
  return {
    ok: true,
    value: Object.freeze({
      ...c,
      disclosure: Object.freeze([...c.disclosure]),
      codeLimits: code.value.limits,
    }),
  };
}

/**
 * {@linkcode checkConfig} for a configuration a program writes: one out of range is a bug of
 * that program, so it is thrown.
 *
 * @param config The fields to change.
 * @returns The complete, validated configuration.
 * @throws {InvalidConfigError} (a `RangeError`) When a field is out of range, naming the field and
 * the rule.
 *
 * @example Usage
 * ```ts
 * import { resolveConfig } from "./config.ts";
 * import { equal, throws } from "node:assert/strict";
 *
 * equal(resolveConfig({ availableContextTokens: 32_000 }).searchDefaultLimit, 5);
 * throws(() => resolveConfig({ inventoryThresholdPercent: 0 }), RangeError);
 * ```
 */
export function resolveConfig(config: Partial<ProgressiveConfig> = {}): ProgressiveConfig {
  const checked = checkConfig(config);
  if (!checked.ok) throw checked.error;
  return checked.value;
}

function describe(value: unknown): string {
  if (typeof value === "function") return "a function";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
