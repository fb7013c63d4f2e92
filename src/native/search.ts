/**
 * A native search and a native call, API-neutral: which tools a search loads (and which the
 * conversation already has), and which catalogue tool a call of a loaded tool runs, with its
 * arguments checked as the bridge's execute checks them. With a session the counters move as for
 * bridge calls: a search counts as a search, each tool it loads as a describe, a call as an execute.
 *
 * @module
 */

import { type BridgeAction, errorAction } from "../bridge/action.ts";
import type { ArgumentProblem } from "../schema/validate.ts";
import type { Injector } from "../injector.ts";
import { routeInSession } from "../session/session_route.ts";
import type { SessionKey, SessionStore } from "../session/store.ts";
import type { McpTool } from "../tool.ts";
import { oneLine, quoteId } from "../untrusted.ts";
import { renderArgumentProblems } from "../bridge/render.ts";
import { nativeNames } from "./names.ts";

/** The session a native call belongs to. */
export interface NativeSession {
  /** Where sessions live. */
  store: SessionStore;
  /** Which session. */
  key: SessionKey;
  /** The catalogue's hash (its generation). */
  catalogHash: string;
  /**
   * Hashes schemas and bodies.
   * @default {sha256Hex}
   */
  hash?: (text: string) => string | Promise<string>;
}

/** What a native search comes to. */
export type NativeFound =
  /** A mistake of the model: `text` says what to send instead. */
  | { kind: "error"; text: string }
  /** Nothing matched: `text` is the diagnostics for the model. */
  | { kind: "miss"; text: string }
  /** `load`: ids to load now, best first; `available`: ids matched that the model already has. */
  | { kind: "found"; load: string[]; available: string[] };

/** What a native call comes to. */
export type NativeResolved =
  | { ok: true; id: string; tool: McpTool; arguments: Record<string, unknown> }
  | {
    ok: false;
    /** `session_full`: the session could not record the call (the host's problem). */
    code: "unknown_tool" | "invalid_arguments" | "session_full";
    message: string;
    problems?: ArgumentProblem[];
  };

/**
 * Runs the model's search: `input` must be `{query, limit?}`.
 *
 * @param injector The catalogue and its limits.
 * @param input The model's input to the search tool (an object, or its JSON text).
 * @param options The pinned ids (always available) and the session.
 * @returns What to load, what is already there, a miss, or a model mistake.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { nativeSearch } from "./search.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const catalog = new McpCatalog([{ server: "git", name: "commit", description: "Record changes", inputSchema: { type: "object" } }]);
 * const found = await nativeSearch(new Injector(catalog), { query: "commit changes" });
 * deepEqual(found, { kind: "found", load: ["git/commit"], available: [] });
 * ```
 */
export async function nativeSearch(
  injector: Injector,
  input: unknown,
  options: { pinned?: readonly string[]; session?: NativeSession } = {},
): Promise<NativeFound> {
  const { session } = options;
  const parsed = searchInput(input, injector.config.maxSearchLimit);
  const action: BridgeAction = typeof parsed === "string"
    ? errorAction("invalid_arguments", parsed, parsed)
    : injector.route({ action: "search", ...parsed });
  if (session !== undefined) {
    await session.store.apply(session.key, {
      catalogHash: session.catalogHash,
      event: action.action === "search"
        ? { kind: "search", empty: action.matches.length === 0 }
        : { kind: "error", code: action.action === "error" ? action.code : "invalid_arguments" },
    });
  }
  if (action.action === "error") return { kind: "error", text: action.message };
  if (action.action !== "search") throw new TypeError("A search routed to another action");
  if (action.matches.length === 0) return { kind: "miss", text: action.toolResult };
  const pinned = new Set(options.pinned ?? []);
  const load: string[] = [];
  const available: string[] = [];
  for (const { id } of action.matches) {
    if (pinned.has(id)) available.push(id);
    else if (session === undefined) load.push(id);
    else {
      // Loading a tool is sending its schema: a describe the session already has is elided. One
      // the session cannot record is loaded, as without a session: the model is never stuck.
      const described = await routeInSession(injector, { action: "describe", name: id }, {
        ...session,
        describeFirst: "off",
      });
      const elided = described.ok && described.value.action === "describe" &&
        described.value.elided;
      (elided ? available : load).push(id);
    }
  }
  return { kind: "found", load, available };
}

/**
 * Resolves the model's call of a loaded tool to its catalogue tool and checks the arguments.
 *
 * @param injector The catalogue.
 * @param name The name the model called (a name from {@linkcode nativeNames}).
 * @param args The arguments: an object, or the model's JSON text.
 * @param session The session, if any.
 * @returns The tool and its arguments, or why the call cannot run.
 *
 * @example Usage
 * ```ts
 * import { McpCatalog } from "../catalog.ts";
 * import { Injector } from "../injector.ts";
 * import { nativeResolve } from "./search.ts";
 * import { equal } from "node:assert/strict";
 *
 * const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
 * const injector = new Injector(new McpCatalog([{ server: "a", name: "b", description: "", inputSchema: schema }]));
 * equal((await nativeResolve(injector, "a__b", '{"n":1}')).ok, true);
 * equal((await nativeResolve(injector, "a__b", {})).ok, false);
 * ```
 */
export async function nativeResolve(
  injector: Injector,
  name: string,
  args: unknown,
  session?: NativeSession,
): Promise<NativeResolved> {
  const id = nativeNames(injector.catalog).idOf(name);
  if (id === undefined) {
    const message = `Cannot resolve ${quoteId(name)}: no tool of this catalogue has that name`;
    if (session !== undefined) {
      await session.store.apply(session.key, {
        catalogHash: session.catalogHash,
        event: { kind: "error", code: "unknown_tool" },
      });
    }
    return { ok: false, code: "unknown_tool", message };
  }
  // The arguments are read here, so that a mistake is told in the words of a native call (the
  // bridge's own would name its actions, which a native model does not have).
  const given = callArguments(args);
  if (typeof given === "string") {
    if (session !== undefined) {
      await session.store.apply(session.key, {
        catalogHash: session.catalogHash,
        event: { kind: "error", code: "invalid_arguments" },
      });
    }
    return {
      ok: false,
      code: "invalid_arguments",
      message: `Cannot call ${quoteId(id)}: ${given}`,
    };
  }
  const call = { action: "execute", name: id, arguments: given };
  const routed = session === undefined
    ? { ok: true as const, value: injector.route(call) }
    : await routeInSession(injector, call, { ...session, describeFirst: "off" });
  if (!routed.ok) return { ok: false, code: "session_full", message: routed.error.message };
  const action = routed.value;
  if (action.action === "execute") {
    return { ok: true, id, tool: action.tool, arguments: action.arguments };
  }
  const problems = action.action === "error" ? action.problems : undefined;
  const message = problems === undefined
    ? "the call did not resolve"
    : `the arguments do not match its input schema: ${
      renderArgumentProblems(problems)
    }. Fix them and call it again`;
  return {
    ok: false,
    code: "invalid_arguments",
    message: `Cannot call ${quoteId(id)}: ${message}`,
    ...(problems ? { problems } : {}),
  };
}

// A call's arguments: an object, or the model's JSON text of one (absent or null: none); else what
// is wrong, in words for the model.
function callArguments(args: unknown): Record<string, unknown> | string {
  let value = args;
  if (typeof args === "string") {
    try {
      value = JSON.parse(args);
    } catch (error) {
      return `the arguments are not valid JSON (${
        oneLine(String((error as Error).message), 120)
      }): send them again as one JSON object`;
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  const kind = Array.isArray(value)
    ? "an array"
    : typeof value === "boolean"
    ? "true or false"
    : `a ${typeof value}`;
  return `the arguments must be a JSON object, got ${kind}: send them again as one JSON object`;
}

// The search input, or what is wrong with it (in words for the model).
function searchInput(input: unknown, maxLimit: number): { query: string; limit?: number } | string {
  // OpenAI sends the arguments as JSON text.
  if (typeof input === "string") {
    try {
      input = JSON.parse(input);
    } catch (error) {
      return `The search input is not valid JSON (${
        oneLine(String((error as Error).message), 120)
      }): send {"query": "a few words about the task"}`;
    }
  }
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return 'The search input must be an object: {"query": "a few words about the task"}';
  }
  const { query } = input as Record<string, unknown>;
  let { limit } = input as Record<string, unknown>;
  // Models often send a number as a string, or null for "not given" (the bridge accepts both).
  if (typeof limit === "string" && /^\d{1,6}$/.test(limit.trim())) limit = Number(limit);
  if (typeof query !== "string" || query.trim() === "") {
    return 'Send "query": a few words about what the task needs, e.g. {"query": "create an issue"}';
  }
  if (limit === undefined || limit === null) return { query };
  if (!Number.isSafeInteger(limit) || (limit as number) < 1 || (limit as number) > maxLimit) {
    return `"limit" must be a whole number from 1 to ${maxLimit}, or left out`;
  }
  return { query, limit: limit as number };
}
