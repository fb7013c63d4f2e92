/**
 * Routing with session memory: the stateless front routes and validates, then asks the session
 * store only a small question (catalogue hash, event, id, hashes) and shapes the answer from its
 * decision: elided describes, describe-before-execute, argument checks.
 *
 * @module
 */

import { type BridgeAction, errorAction } from "../bridge/action.ts";
import {
  describeFirstMessage,
  renderDescribe,
  renderElided,
  renderError,
  renderWithSchema,
} from "../bridge/render.ts";
import type { ParsedCall } from "../bridge/parse.ts";
import { checkArguments } from "../bridge/route.ts";
import { canonicalJson, sha256Hex } from "../canonical_json.ts";
import { type Injector, routeParsed } from "../injector.ts";
import { type McpTool, toolId } from "../tool.ts";
import type { SessionDecision } from "./state.ts";
import { SessionFullError, type SessionKey, type SessionStore } from "./store.ts";
import type { Result } from "../result.ts";
import type { LearnedRuns } from "../ranking/learned.ts";
import type { RunAnswer } from "../code_mode/answer.ts";

/** Where a call's session lives and how it behaves. */
export interface SessionRouteOptions {
  /** The store. */
  store: SessionStore;
  /** The session. */
  key: SessionKey;
  /**
   * Names the catalogue's generation: any string that changes when the catalogue does, such as a
   * hash of it; a new value clears what the session has been sent.
   */
  catalogHash: string;
  /**
   * Hashes schemas and describe bodies (hex digests; the first 16 characters are kept).
   * @default {SHA-256 through `crypto.subtle`}
   */
  hash?: (text: string) => string | Promise<string>;
  /**
   * Whether an execute of a tool not yet described is refused with `describe_first`.
   * @default {"enforce"}
   */
  describeFirst?: "enforce" | "off";
  /**
   * Whether a describe sends the schema even when the session already has it.
   * @default {false}
   */
  resend?: boolean;
  /** What this user ran after earlier searches, to lift those tools (`./learned.ts`). */
  learned?: LearnedRuns | undefined;
}

/**
 * Routes one call of the bridge tool within a session.
 *
 * @param injector The injector over the request's catalogue.
 * @param args The bridge arguments: an object, or the model's raw JSON string.
 * @param options The session and its rules.
 * @returns The action, shaped by the session's decision; or, for an event the session cannot
 * record, the {@linkcode SessionFullError} (the host's problem, never the model's: the HTTP API
 * answers it with 409 `session_full`).
 *
 * @example Usage
 * ```ts
 * import { Injector, McpCatalog } from "../../mod.ts";
 * import { MemorySessionStore, routeInSession } from "./mod.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([
 *   { server: "a", name: "b", description: "B", inputSchema: { type: "object" } },
 * ]));
 * const options = { store: new MemorySessionStore(), key: { tenant: "", session: "s" }, catalogHash: "catalogue-1" };
 * const first = await routeInSession(injector, { action: "execute", name: "a/b" }, options);
 * equal(first.ok && first.value.action === "error" && first.value.code, "describe_first");
 * const second = await routeInSession(injector, { action: "execute", name: "a/b" }, options);
 * equal(second.ok && second.value.action, "execute");
 * ```
 */
export function routeInSession(
  injector: Injector,
  args: unknown,
  options: SessionRouteOptions,
): Promise<Result<BridgeAction, SessionFullError>> {
  return routeParsedInSession(injector, args, undefined, options);
}

/**
 * {@linkcode routeInSession} with the bridge arguments already parsed (`parseBridgeCall` with the
 * injector's limits): the gateway parses them once. Not part of the `./session` API.
 *
 * @param injector The injector over the request's catalogue.
 * @param args The bridge arguments.
 * @param parsed Them parsed, or `undefined` to parse them here.
 * @param options The session and its rules.
 * @returns As {@linkcode routeInSession}.
 */
export async function routeParsedInSession(
  injector: Injector,
  args: unknown,
  parsed: ParsedCall | undefined,
  options: SessionRouteOptions,
): Promise<Result<BridgeAction, SessionFullError>> {
  const { store, key, catalogHash } = options;
  const action = routeParsed(injector, args, parsed, {
    validateArguments: false,
    learned: options.learned,
  });
  switch (action.action) {
    case "search":
      // A search or a mistake only moves counters, which always fit: no decision to read.
      await store.apply(key, {
        catalogHash,
        event: { kind: "search", empty: action.matches.length === 0 },
      });
      return { ok: true, value: action };
    case "error":
      await store.apply(key, { catalogHash, event: { kind: "error", code: action.code } });
      return { ok: true, value: action };
    case "describe": {
      const [schemaHash, bodyHash] = await described(
        options.hash ?? sha256Hex,
        action.tool,
        injector.config.maxDescriptionChars,
        action.toolResult,
      ).hashes;
      const decision = await store.apply(key, {
        catalogHash,
        event: {
          kind: "describe",
          id: action.id,
          schemaHash,
          bodyHash,
          resend: options.resend === true,
        },
      });
      const elided = decision.kind === "describe" && decision.elided;
      return done(
        decision,
        key.session,
        elided
          ? { ...action, elided, toolResult: renderElided(action.id) }
          : { ...action, elided: false },
      );
    }
    case "execute": {
      const checked = checkArguments(action);
      const known = described(
        options.hash ?? sha256Hex,
        action.tool,
        injector.config.maxDescriptionChars,
      );
      const body = known.body;
      const [schemaHash, bodyHash] = await known.hashes;
      const decision = await store.apply(key, {
        catalogHash,
        event: {
          kind: "execute",
          id: action.id,
          schemaHash,
          bodyHash,
          enforce: (options.describeFirst ?? "enforce") === "enforce",
          valid: checked.action === "execute",
        },
      });
      const verdict = decision.kind === "execute" ? decision.verdict : "execute";
      if (verdict === "describe_first") {
        const message = describeFirstMessage(action.id);
        const toolResult = renderWithSchema(renderError("describe_first", message), body);
        return done(
          decision,
          key.session,
          errorAction("describe_first", message, toolResult, { id: action.id }),
        );
      }
      return done(decision, key.session, verdict === "invalid_arguments" ? checked : action);
    }
  }
}

/**
 * Records a run that has ended in its session: the run, and each real call its script made
 * (counted as executes, their origin a script's).
 *
 * @param store The store.
 * @param key The session.
 * @param catalogHash The catalogue's generation.
 * @param answer The run's answer.
 *
 * @example Usage
 * ```ts
 * import { MemorySessionStore } from "./memory_store.ts";
 * import { recordRun } from "./session_route.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = new MemorySessionStore();
 * const key = { tenant: "", session: "s" };
 * await recordRun(store, key, "h", { calls: [{ id: "a/b", ok: true }] });
 * equal((await store.get(key))?.counters.scriptCalls, 1);
 * ```
 */
export async function recordRun(
  store: SessionStore,
  key: SessionKey,
  catalogHash: string,
  answer: Pick<RunAnswer, "calls">,
): Promise<void> {
  await store.apply(key, {
    catalogHash,
    event: { kind: "run", origin: "script", calls: answer.calls.map(({ id, ok }) => ({ id, ok })) },
  });
}

type Hash = (text: string) => string | Promise<string>;

/** A tool's describe text and the hashes a session keeps of it and of its schema. */
interface Described {
  hash: Hash;
  maxDescriptionChars: number;
  body: string;
  hashes: Promise<[string, string]>;
}

// The same for every call of a tool within a catalogue generation (a catalogue's tools are frozen,
// and a new generation has new objects), so made once per tool, hash and description limit instead
// of at each call: an execute rendered and hashed them every time, and SHA-256 through
// crypto.subtle is an async op whose trip through Deno's thread pool was 59 % of the CPU profile
// of an in-process execute.
const DESCRIBED = new WeakMap<McpTool, Described>();

function described(
  hash: Hash,
  tool: McpTool,
  maxDescriptionChars: number,
  body?: string,
): Described {
  const known = DESCRIBED.get(tool);
  if (
    known !== undefined && known.hash === hash &&
    known.maxDescriptionChars === maxDescriptionChars && (body === undefined || body === known.body)
  ) return known;
  const text = body ?? renderDescribe(toolId(tool), tool, maxDescriptionChars);
  const made: Described = {
    hash,
    maxDescriptionChars,
    body: text,
    hashes: hashes(hash, tool.inputSchema, text),
  };
  // A hash that failed is tried again at the next call, not remembered.
  made.hashes.catch(() => {
    if (DESCRIBED.get(tool) === made) DESCRIBED.delete(tool);
  });
  DESCRIBED.set(tool, made);
  return made;
}

// Short hashes keep a session small (MAX_SESSION_BYTES holds some 250 described ids of the longest
// kind, and over 600 of 60 characters); 64 bits is plenty within one session.
async function hashes(
  hash: Hash,
  schema: unknown,
  body: string,
): Promise<[string, string]> {
  const [a, b] = await Promise.all([hash(canonicalJson(schema)), hash(body)]);
  return [a.slice(0, 16), b.slice(0, 16)];
}

// The action, unless the session could not record the event: a session that cannot grow is the
// host's problem, not the model's, so the caller gets the error instead of the action.
function done(
  decision: SessionDecision,
  session: string,
  action: BridgeAction,
): Result<BridgeAction, SessionFullError> {
  return decision.kind === "full"
    ? { ok: false, error: new SessionFullError(session, decision.bytes, decision.limit) }
    : { ok: true, value: action };
}
