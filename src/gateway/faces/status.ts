/**
 * What the page reads from a running gateway: each upstream's state and cost (`GET /status`), the
 * exact `tools/list` and instructions the host gets at a context size (`GET /view`), and why a
 * search ranks what it ranks over the live catalogue (`GET /explain`). Read-only: these routes
 * never change the gateway, and they sit behind the same origin and token checks as `/mcp`.
 *
 * @module
 */

import type { RankerFactory } from "../../ranking/ranker.ts";
import { rankingFields, reportingOf } from "../../ranking/ranking_status.ts";
import { DEFAULT_CONFIG, MAX_SEARCH_LIMIT } from "../../config.ts";
import { MAX_QUERY_CHARS } from "../../limits.ts";
import { explainSearch } from "../../ranking/explain.ts";
import { problem } from "../../http/problems.ts";
import type { SessionDecision, SessionInput } from "../../session/state.ts";
import type { SessionKey, SessionStore } from "../../session/store.ts";
import type { Ceiling } from "../../bridge/ceiling.ts";
import {
  isResultStore,
  type KeepOutcome,
  type KeptAnswer,
  type KeptPart,
  type ResultKey,
  type ResultStore,
} from "../../session/result_store.ts";
import { estimateTokens } from "../../tokens.ts";
import { VERSION } from "../../version.ts";
import type { GatewayOptions } from "../config/parse.ts";
import type { Gateway } from "../gateway.ts";
import { definitionOf, present } from "../presentation.ts";

/** The paths {@linkcode statusHandler} answers. */
export const STATUS_PATHS: ReadonlySet<string> = new Set(["/status", "/view", "/explain"]);

/** The session counters of every session of this gateway process, summed. */
export interface LiveCounters {
  /** Search calls. */
  searches: number;
  /** Searches that found nothing. */
  misses: number;
  /** Describe calls. */
  describes: number;
  /** Executes that went to the upstream. */
  executes: number;
  /** Executes refused until the tool was described. */
  describeFirst: number;
  /** Executes refused for arguments that broke the tool's schema. */
  invalidArguments: number;
  /** Upstream results that were errors. */
  upstreamFailures: number;
  /** The tokens of every answer handed to the model (markers included). */
  tokensReturned: number;
  /** Answers cut at `maxResultTokens` or `maxResultBytes`. */
  resultsCut: number;
  /** Calls of `more`, answered or not. */
  moreCalls: number;
}

/**
 * A session store that also sums what passes through it: the page's live counters.
 *
 * @example Usage
 * ```ts
 * import { CountingStore } from "./status.ts";
 * import { MemorySessionStore } from "../../session/memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const store = new CountingStore(new MemorySessionStore());
 * await store.apply({ tenant: "", session: "s" }, { event: { kind: "search", empty: true } });
 * equal(store.counters.misses, 1);
 * ```
 */
export class CountingStore implements SessionStore, ResultStore {
  /** The sums so far. */
  readonly counters: LiveCounters = {
    searches: 0,
    misses: 0,
    describes: 0,
    executes: 0,
    describeFirst: 0,
    invalidArguments: 0,
    upstreamFailures: 0,
    tokensReturned: 0,
    resultsCut: 0,
    moreCalls: 0,
  };
  readonly #inner: SessionStore;

  /**
   * Wraps a store.
   *
   * @param inner The store that keeps the sessions.
   */
  constructor(inner: SessionStore) {
    this.#inner = inner;
  }

  /**
   * Applies an event (see {@linkcode SessionStore.apply}) and counts it.
   *
   * @param key The session.
   * @param input The event.
   * @returns The inner store's decision.
   */
  async apply(key: SessionKey, input: SessionInput): Promise<SessionDecision> {
    const decision = await this.#inner.apply(key, input);
    const c = this.counters;
    const event = input.event;
    if (event.kind === "search") {
      c.searches++;
      if (event.empty) c.misses++;
    } else if (event.kind === "describe") c.describes++;
    else if (event.kind === "result" && event.isError) c.upstreamFailures++;
    else if (event.kind === "answer") {
      if (Number.isSafeInteger(event.tokens) && event.tokens > 0) c.tokensReturned += event.tokens;
      if (event.cut) c.resultsCut++;
      if (event.more) c.moreCalls++;
    }
    if (decision.kind === "execute") {
      if (decision.verdict === "execute") c.executes++;
      else if (decision.verdict === "describe_first") c.describeFirst++;
      else c.invalidArguments++;
    }
    return decision;
  }

  /**
   * Reads a session.
   *
   * @param key The session.
   * @returns Its state.
   */
  get(key: SessionKey): ReturnType<SessionStore["get"]> {
    return this.#inner.get(key);
  }

  /**
   * Deletes a session.
   *
   * @param key The session.
   * @returns Whether there was one.
   */
  delete(key: SessionKey): ReturnType<SessionStore["delete"]> {
    return this.#inner.delete(key);
  }

  /**
   * Keeps the rest of a cut answer in the inner store (see {@linkcode ResultStore.keep}); an
   * inner store that keeps none keeps nothing here either.
   *
   * @param key Whose.
   * @param kept The answer.
   * @returns Its id, or why it is not kept.
   */
  keep(key: ResultKey, kept: KeptAnswer): KeepOutcome | Promise<KeepOutcome> {
    const inner = this.#inner;
    return isResultStore(inner)
      ? inner.keep(key, kept)
      : { ok: false, reason: "too_large", limit: 0 };
  }

  /**
   * Reads a part of a kept answer from the inner store (see {@linkcode ResultStore.part}).
   *
   * @param key Whose.
   * @param id The kept answer's id.
   * @param part The part's number.
   * @param ceiling The ceilings of the part.
   * @returns The part, or `undefined`.
   */
  part(
    key: ResultKey,
    id: string,
    part: number,
    ceiling: Ceiling,
  ): KeptPart | undefined | Promise<KeptPart | undefined> {
    const inner = this.#inner;
    return isResultStore(inner) ? inner.part(key, id, part, ceiling) : undefined;
  }
}

/** What {@linkcode statusHandler} reads. */
export interface StatusSources {
  /** The gateway. */
  gateway: Gateway;
  /** Its `unfold` block (the view replaces its budget). */
  options: GatewayOptions;
  /** The live counters, when the gateway's store counts. */
  counters?: LiveCounters;
  /** The longest query `/explain` takes. @default {MAX_QUERY_CHARS} */
  maxQueryChars?: number;
  /** The gateway's ranker: one that loads its data says in `/status` which ranker is in use. */
  ranker?: RankerFactory;
  /** The profile these reads are of (a profile token's caller sees that profile alone). */
  profile?: string;
  /** The profiles a gateway-wide caller sees, each summed up. */
  profiles?: () => ProfileSummary[];
}

/** One profile as `/status` shows it. */
export interface ProfileSummary {
  /** Its name (`/mcp/NAME`). */
  name: string;
  /** The tools it offers now. */
  tools: number;
  /** Its context size (absent for a profile not served). */
  availableContextTokens?: number;
  /** Why it is not served (a token of it names a variable not set); absent when it is. */
  unavailable?: string;
}

// The largest context size the view takes: beyond any model's, and small enough to stay exact.
const MAX_CONTEXT = 100_000_000;

/**
 * Serves `GET /status`, `GET /view?context=N` and `GET /explain?query=Q&id=ID&limit=N`. Wrap it in
 * {@linkcode guardMcp} so it has `/mcp`'s origin and token rules.
 *
 * @param sources The gateway, its options and counters.
 * @returns The handler.
 *
 * @example Usage
 * ```ts
 * import { statusHandler } from "./status.ts";
 * import { Gateway } from "../gateway.ts";
 * import { MemorySessionStore } from "../../session/memory_store.ts";
 * import { equal } from "node:assert/strict";
 *
 * const pool = {
 *   tools: () => [{ server: "a", name: "b", description: "Does B", inputSchema: { type: "object" } }],
 *   statuses: () => [{ server: "a", state: "ready" as const, tools: 1 }],
 *   forward: () => Promise.reject(new Error("unused")),
 *   onChange: () => () => {},
 *   close: () => Promise.resolve(),
 * };
 * const gateway = await Gateway.open(pool, { options: { pinned: [] }, store: new MemorySessionStore() });
 * const handle = statusHandler({ gateway, options: { pinned: [] } });
 * const status = await (await handle(new Request("http://127.0.0.1/status"))).json();
 * equal(status.servers[0].state, "ready");
 * ```
 */
export function statusHandler(sources: StatusSources): (request: Request) => Promise<Response> {
  const maxQuery = sources.maxQueryChars ?? MAX_QUERY_CHARS;
  return (request) => {
    const url = new URL(request.url);
    if (request.method !== "GET") {
      return Promise.resolve(
        problem("method_not_allowed", `${request.method} is not allowed on ${url.pathname}`, [], {
          allow: "GET",
        }),
      );
    }
    const { gateway, options } = sources;
    const catalog = gateway.catalog;
    const json = (body: unknown) => Promise.resolve(Response.json(body));
    if (url.pathname === "/status") {
      const tokensOf = (server: string) =>
        catalog.tools.filter((tool) => tool.server === server)
          .reduce((sum, tool) => sum + estimateTokens(JSON.stringify(definitionOf(tool))), 0);
      return json({
        face: "gateway",
        version: VERSION,
        catalogHash: gateway.catalogHash,
        tools: catalog.size,
        // The size the host is served at: where the page's "Context tokens" starts.
        availableContextTokens: options.availableContextTokens ??
          DEFAULT_CONFIG.availableContextTokens,
        ...(sources.profile === undefined ? {} : { profile: sources.profile }),
        ...(sources.profiles === undefined ? {} : { profiles: sources.profiles() }),
        // The upstream's state as the gateway knows it; any later states pass through unchanged.
        servers: gateway.statuses().map(({ detail, ...status }) => ({
          ...status,
          ...(detail === undefined ? {} : { reason: detail }),
          definitionTokens: tokensOf(status.server),
        })),
        ...(sources.counters === undefined ? {} : { counters: sources.counters }),
        ...rankingFields(reportingOf(sources.ranker)),
      });
    }
    if (url.pathname === "/view") {
      const context = Number(url.searchParams.get("context") ?? "");
      if (!Number.isSafeInteger(context) || context < 1 || context > MAX_CONTEXT) {
        return bad("context", `must be an integer from 1 to ${MAX_CONTEXT}`);
      }
      const shown = present(
        catalog,
        { ...options, availableContextTokens: context },
        gateway.statuses(),
      );
      const definitionTokens = catalog.tools.reduce(
        (sum, tool) => sum + estimateTokens(JSON.stringify(definitionOf(tool))),
        0,
      );
      return json({
        context,
        level: shown.injection?.mode ?? null,
        instructions: shown.instructions,
        tools: shown.tools,
        toolTokens: shown.toolTokens,
        instructionTokens: shown.instructionTokens,
        costTokens: shown.toolTokens + shown.instructionTokens,
        budgetTokens: shown.injection?.inventoryBudgetTokens ?? null,
        definitionTokens,
      });
    }
    const query = url.searchParams.get("query") ?? "";
    if (query.length < 1 || query.length > maxQuery) {
      return bad("query", `must be 1 to ${maxQuery} characters`);
    }
    const id = url.searchParams.get("id");
    const limit = Number(url.searchParams.get("limit") ?? "10");
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
      return bad("limit", `must be an integer from 1 to ${MAX_SEARCH_LIMIT}`);
    }
    const explained = explainSearch(catalog, query, { limit, ...(id ? { id } : {}) });
    if (!explained.ok) {
      return Promise.resolve(
        problem("invalid_request", explained.error.message, [{
          pointer: "/id",
          message: "is not a tool of this catalogue",
        }]),
      );
    }
    return json({ ...explained.value, catalogHash: gateway.catalogHash });
  };
}

function bad(parameter: string, message: string): Promise<Response> {
  return Promise.resolve(
    problem("invalid_request", `The parameter ${JSON.stringify(parameter)} ${message}`, [{
      pointer: `/${parameter}`,
      message,
    }]),
  );
}
