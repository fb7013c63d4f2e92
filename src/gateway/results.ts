/**
 * The bridge's answers as MCP tool results: the text the model reads and a structured copy that
 * follows the bridge's output schema. Every string of the structured copy has its invisible
 * characters escaped, as the text has, so neither can hide a bidi or tag character. Pure.
 *
 * @module
 */

import { type BridgeAction, errorAction } from "../bridge/action.ts";
import type { BridgeOutput, NotSearched } from "../bridge/output_schema.ts";
import type { ParsedCall } from "../bridge/parse.ts";
import { renderDescribe, renderToolFailure, renderWithSchema } from "../bridge/render.ts";
import { type Injector, routeParsed } from "../injector.ts";
import type { CallToolResultLike } from "../tool_result.ts";
import { COMMAND_NOT_FOUND } from "../tool_error.ts";
import { escapeInvisible, quote } from "../untrusted.ts";
import { unlistedServers } from "./pool/start_wait.ts";
import { explainNotSearched } from "./not_searched.ts";
import type { UpstreamStatus } from "./pool/upstreams.ts";

/** A bridge action the bridge answers itself: every one but an execute (which is forwarded). */
export type Answered = Exclude<BridgeAction, { action: "execute" }>;

// How much of a failed server's own error output an unknown-id answer quotes.
const MAX_DETAIL_CHARS = 200;

/**
 * Routes bridge arguments by the stateless rules: arguments are validated, and a violation
 * answers with the schema (there is no session to remember it was sent).
 *
 * @param injector The injector over the catalogue.
 * @param args The bridge arguments.
 * @param parsed Them parsed (`parseBridgeCall`), when they already are.
 * @returns The action.
 *
 * @example Usage
 * ```ts
 * import { stateless } from "./results.ts";
 * import { Injector } from "../injector.ts";
 * import { McpCatalog } from "../catalog.ts";
 * import { equal } from "node:assert/strict";
 *
 * const injector = new Injector(new McpCatalog([{ server: "a", name: "b", description: "B", inputSchema: { type: "object" } }]));
 * equal(stateless(injector, { action: "describe", name: "a/b" }).action, "describe");
 * ```
 */
export function stateless(injector: Injector, args: unknown, parsed?: ParsedCall): BridgeAction {
  const action = routeParsed(injector, args, parsed);
  if (action.action !== "error" || action.code !== "invalid_arguments" || !action.id) return action;
  const tool = injector.catalog.get(action.id);
  if (tool === undefined) return action;
  const schema = renderDescribe(action.id, tool, injector.config.maxDescriptionChars);
  return { ...action, toolResult: renderWithSchema(action.toolResult, schema) };
}

/**
 * Corrects the bridge's "the server does not exist" for a server the config has but whose tools
 * are not in the catalogue now (still starting, failed to start, needs a login, or all its tools
 * were left out): the model is told the server is there, in what state and why, so it neither
 * invents another id nor gives up on the server. A search names the servers it could not search
 * (`explainNotSearched`). Other actions come back as they were.
 *
 * @param action The bridge's action.
 * @param statuses The upstreams' states.
 * @returns The action, its unknown-server sentence replaced when the server is configured, or
 * the search with the servers it could not search named.
 *
 * @example Usage
 * ```ts
 * import { explainConfiguredServer } from "./results.ts";
 * import { errorAction } from "../bridge/action.ts";
 * import { match } from "node:assert/strict";
 *
 * const message = 'there is no tool "gh/x" in this catalogue. The server "gh" does not exist here.';
 * const action = explainConfiguredServer(
 *   errorAction("unknown_tool", message, `Error unknown_tool: ${message}`),
 *   [{ server: "gh", state: "failed", detail: "spawn gh ENOENT", tools: 0 }],
 * );
 * match(action.action === "error" ? action.message : "", /"gh" is configured but its tools cannot be listed now \(failed: "spawn gh ENOENT"\)/);
 * ```
 */
export function explainConfiguredServer(
  action: Answered,
  statuses: readonly UpstreamStatus[],
): Answered;
export function explainConfiguredServer(
  action: BridgeAction,
  statuses: readonly UpstreamStatus[],
): BridgeAction;
export function explainConfiguredServer(
  action: BridgeAction,
  statuses: readonly UpstreamStatus[],
): BridgeAction {
  if (action.action === "search") return explainNotSearched(action, statuses);
  if (action.action !== "error" || action.code !== "unknown_tool") return action;
  const unlisted = unlistedServers(statuses);
  for (const status of statuses) {
    const said = ` The server ${quote(status.server)} does not exist here.`;
    if (!action.message.includes(said)) continue;
    const state = status.restarting ?? status.state;
    const why = status.detail === undefined
      ? state
      : `${state}: ${quote(status.detail.slice(0, MAX_DETAIL_CHARS))}`;
    // Under trust "pin" a server whose tools all await approval is up: waiting would not help.
    const held = status.unapproved?.find((tool) => tool.held);
    // A command that is not installed will not appear by waiting: the server is unavailable.
    const next = status.state === "unavailable"
      ? "it is unavailable until the user does what is said: use another server's tool, or tell the user."
      : status.detail?.includes(`${COMMAND_NOT_FOUND}: `)
      ? "it is unavailable until the user installs that command or changes the config: use another server's tool, or tell the user."
      : "it is tried again in the background: try again later, or use another server's tool.";
    const instead = unlisted.includes(status.server)
      ? ` The server ${
        quote(status.server)
      } is configured and still starting: its tools are not listed yet. Try again in a moment.`
      : held !== undefined
      ? ` The server ${
        quote(status.server)
      } is configured but its tools await the user's approval; describe ${
        quote(`${status.server}/${held.name}`)
      } to get the command the user runs to approve it.`
      : ` The server ${
        quote(status.server)
      } is configured but its tools cannot be listed now (${why}); ${next}`;
    return errorAction(
      action.code,
      action.message.replace(said, instead),
      action.toolResult.replace(said, instead),
      action,
    );
  }
  return action;
}

/**
 * The result of a search, a describe or an error of the bridge.
 *
 * @param action The action (not an execute: that one is forwarded).
 * @param missing A search's servers not searched (`notSearched` of `not_searched.ts`).
 * @returns The tool result.
 *
 * @example Usage
 * ```ts
 * import { actionResult } from "./results.ts";
 * import { errorAction } from "../bridge/action.ts";
 * import { equal } from "node:assert/strict";
 *
 * const result = actionResult(errorAction("unknown_tool", "No", "Error: no"));
 * equal(result.isError, true);
 * ```
 */
export function actionResult(
  action: Answered,
  missing: readonly NotSearched[] = [],
): CallToolResultLike {
  const next = nextStep(action.toolResult);
  const then = next === undefined ? {} : { next };
  switch (action.action) {
    case "search":
      return text(action.toolResult, {
        action: "search",
        query: action.query,
        matches: action.matches.map(({ id, description, score }) => ({ id, description, score })),
        ...(action.miss ? { miss: action.miss } : {}),
        ...then,
        ...untrustedOf([
          ...(action.matches.length > 0 ? ["matches"] : []),
          ...(missing.some((s) => s.detail !== undefined) ? ["notSearched"] : []),
        ]),
        ...(missing.length > 0 ? { notSearched: missing.map((s) => ({ ...s })) } : {}),
      });
    case "describe": {
      const { server: _, ...tool } = action.tool;
      return text(action.toolResult, {
        action: "describe",
        id: action.id,
        tool,
        elided: action.elided === true,
        ...then,
        untrusted: ["tool"],
      });
    }
    case "error":
      return {
        ...text(action.toolResult, {
          action: "error",
          code: action.code,
          message: action.message,
          error: { code: action.code, message: action.message },
          ...(action.id === undefined ? {} : { id: action.id }),
        }),
        isError: true,
      };
  }
}

/**
 * The result of a call that failed upstream: the failure named with the tool and its server.
 *
 * @param id The tool's id.
 * @param code The error code.
 * @param message What failed.
 * @param bridged Whether the call came through the bridge (which adds a structured copy).
 * @returns The tool result, with `isError`.
 *
 * @example Usage
 * ```ts
 * import { failureResult } from "./results.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(failureResult("a/b", "tool_error", "broken", false).isError, true);
 * ```
 */
export function failureResult(
  id: string,
  code: string,
  message: string,
  bridged: boolean,
): CallToolResultLike {
  return {
    content: [{ type: "text", text: renderToolFailure(id, code, message) }],
    isError: true,
    ...(bridged
      ? {
        structuredContent: visible(
          {
            action: "error",
            code,
            message,
            error: { code, message },
            id,
            untrusted: ["message"],
          } satisfies BridgeOutput,
        ) as never,
      }
      : {}),
  };
}

/**
 * The answer to a describe or an execute of a tool that awaits the user's approval (trust
 * `pin`): an error result with the code `awaiting_approval`, whose text names the command.
 *
 * @param id The tool's id.
 * @param message Why it is held and what the user runs (see `heldMessage` in `trust.ts`).
 * @param bridged Whether the call came through the bridge (which adds a structured copy).
 * @returns The tool result, with `isError`.
 *
 * @example Usage
 * ```ts
 * import { heldResult } from "./results.ts";
 * import { equal } from "node:assert/strict";
 *
 * const result = heldResult("a/b", "it awaits the user's approval", true);
 * equal((result.content?.[0] as { text: string }).text, "Error awaiting_approval: it awaits the user's approval");
 * ```
 */
export function heldResult(id: string, message: string, bridged: boolean): CallToolResultLike {
  return {
    content: [{ type: "text", text: `Error ${HELD_CODE}: ${message}` }],
    isError: true,
    ...(bridged
      ? { structuredContent: visible({ action: "error", code: HELD_CODE, message, id }) as never }
      : {}),
  };
}

// The code of a call refused because its tool awaits the user's approval.
const HELD_CODE = "awaiting_approval";

function untrustedOf(fields: string[]): { untrusted?: string[] } {
  return fields.length === 0 ? {} : { untrusted: fields };
}

// The next step a text ends with ("Next: …"), as the structured copy carries it.
function nextStep(text: string): string | undefined {
  const at = text.lastIndexOf("\nNext: ");
  if (at < 0) return text.startsWith("Next: ") ? text.slice(6) : undefined;
  const line = text.slice(at + 7);
  return line.includes("\n") ? undefined : line;
}

function text(body: string, structured: BridgeOutput): CallToolResultLike {
  return {
    content: [{ type: "text", text: body }],
    structuredContent: visible(structured) as Record<string, unknown>,
  };
}

// Escapes invisible characters in every key and string (`\uXXXX` written out): linear in size.
/**
 * A structured copy with every string's invisible characters escaped, as the text has them.
 *
 * @param value The copy.
 * @returns It escaped.
 *
 * @example Usage
 * ```ts
 * import { visible } from "./results.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * deepEqual(visible({ a: ["b"] }), { a: ["b"] });
 * ```
 */
export function visible(value: unknown): unknown {
  if (typeof value === "string") return escapeInvisible(value);
  if (Array.isArray(value)) return value.map(visible);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [escapeInvisible(key), visible(inner)]),
  );
}
