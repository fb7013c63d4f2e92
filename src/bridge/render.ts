/**
 * The texts the model reads as the bridge tool's result: compact, deterministic, with third-party
 * text quoted on one line, and always a next step.
 *
 * @module
 */

import type { ToolMatch } from "../catalog.ts";
import type { McpTool } from "../tool.ts";
import { escapeInvisible, oneLine, quote, quoteId } from "../untrusted.ts";
import type { BridgeErrorCode, SearchMiss } from "./action.ts";
import type { McpErrorCode } from "../tool_error.ts";
import type { UncheckedKeyword } from "../schema/check.ts";
import { type ArgumentProblem, uncheckedKeywords } from "../schema/validate.ts";

const MATCH_CHARS = 160;

/**
 * The problems of arguments that do not match a tool's input schema, each at its JSON pointer, in
 * one line: what the bridge's execute and a native call both say.
 *
 * @param problems The problems, as the validator found them.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { renderArgumentProblems } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(renderArgumentProblems([{ pointer: "/n", message: "must be an integer." }]), '"/n" must be an integer');
 * ```
 */
export function renderArgumentProblems(
  problems: readonly Pick<ArgumentProblem, "pointer" | "message">[],
): string {
  return problems.map((p) =>
    `${p.pointer === "" ? "(root)" : quote(p.pointer)} ${p.message.replace(/\.$/, "")}`
  ).join("; ");
}

/**
 * The text of search results: one line per match (id and description), then the next step.
 *
 * @param query The query.
 * @param matches The matches, best first.
 * @param total The number of tools in the catalogue.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderSearch } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * const text = renderSearch("issue", [
 *   { id: "github/create_issue", server: "github", name: "create_issue", description: "Create an issue", score: 2 },
 * ], 10);
 * equal(text.split("\n")[1], 'github/create_issue: "Create an issue"');
 * ```
 */
export function renderSearch(query: string, matches: readonly ToolMatch[], total: number): string {
  const lines = matches.map((m) => {
    const description = oneLine(m.description, MATCH_CHARS);
    return description === "" ? quoteId(m.id) : `${quoteId(m.id)}: ${quote(description)}`;
  });
  return [
    `Top ${matches.length} of ${total} tools for ${quote(oneLine(query, 200))} (untrusted data):`,
    ...lines,
    `Next: {"action":"describe","name":"<id>"} to get a tool's input schema.`,
  ].join("\n");
}

/**
 * The text of a search that found nothing: why, the catalogue's server inventory, and one next step.
 *
 * @param miss Why, and the next step.
 * @param inventory The inventory listing of the catalogue.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderMiss } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * const text = renderMiss({ why: "no_match", next: "search again with other words" }, "github: 26 tools");
 * match(text, /^No tool matches the query\. The catalogue has these servers:\ngithub: 26 tools\nNext: search again/);
 * ```
 */
export function renderMiss(miss: SearchMiss, inventory: string): string {
  const why = miss.why === "empty_query"
    ? "The search query is empty."
    : "No tool matches the query.";
  return `${why} The catalogue has these servers:\n${inventory}\nNext: ${miss.next}`;
}

/**
 * The text of a describe: the tool's id and description, its input schema as compact JSON, and how
 * to execute it.
 *
 * @param id The tool's id.
 * @param tool The tool.
 * @param maxDescriptionChars The most code points of its description.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderDescribe } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * const text = renderDescribe("a/b", { server: "a", name: "b", description: "B", inputSchema: { type: "object" } }, 100);
 * equal(text.split("\n")[1], 'Input schema: {"type":"object"}');
 * ```
 */
export function renderDescribe(id: string, tool: McpTool, maxDescriptionChars: number): string {
  const description = oneLine(tool.description, maxDescriptionChars);
  const unchecked = uncheckedKeywords(tool);
  return [
    description === "" ? quoteId(id) : `${quoteId(id)}: ${quote(description)}`,
    // Exact, but with invisible characters escaped: the schema hides nothing from a reader.
    `Input schema: ${escapeInvisible(JSON.stringify(tool.inputSchema))}`,
    ...(unchecked.length === 0 ? [] : [renderUnchecked(unchecked)]),
    `Next: {"action":"execute","name":${
      escapeInvisible(JSON.stringify(id))
    },"arguments":{...}} with arguments that follow this schema.`,
  ].join("\n");
}

// The schema's parts only the server checks: the first few, then how many more.
function renderUnchecked(unchecked: readonly UncheckedKeyword[]): string {
  const shown = unchecked.slice(0, MAX_UNCHECKED_SHOWN).map((u) =>
    `"${u.keyword}" at ${escapeInvisible(JSON.stringify(u.pointer))} (${u.reason})`
  );
  const more = unchecked.length - shown.length;
  return `Checked by the server, not here: ${shown.join("; ")}${
    more > 0 ? `; and ${more} more` : ""
  }. Follow these parts of the schema too.`;
}
const MAX_UNCHECKED_SHOWN = 5;

/**
 * The text of a describe whose schema the model already has in this session.
 *
 * @param id The tool's id.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderElided } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(renderElided("github/create_issue"), /^The input schema of github\/create_issue was sent earlier/);
 * ```
 */
export function renderElided(id: string): string {
  return `The input schema of ${
    quoteId(id)
  } was sent earlier in this session and has not changed. ` +
    "Next: execute it with arguments that follow that schema.";
}

/**
 * The text of a mistake: its code and the message that says how to recover.
 *
 * @param code The stable code.
 * @param message What went wrong and what to do.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderError } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(renderError("unknown_tool", "there is no tool \"x/y\""), 'Error unknown_tool: there is no tool "x/y"');
 * ```
 */
export function renderError(code: BridgeErrorCode | McpErrorCode, message: string): string {
  return `Error ${code}: ${message}`;
}

/**
 * An error's text followed by the tool's schema text ({@linkcode renderDescribe}), for the errors
 * whose next step is to check the arguments against that schema.
 *
 * @param error The error's text ({@linkcode renderError}).
 * @param schema The tool's describe text.
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderError, renderWithSchema } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(renderWithSchema(renderError("invalid_arguments", "m"), "schema"), "Error invalid_arguments: m\nschema");
 * ```
 */
export function renderWithSchema(error: string, schema: string): string {
  return `${error}\n${schema}`;
}

/**
 * The message of an execute refused until its tool is described (its schema follows it, see
 * {@linkcode renderWithSchema}).
 *
 * @param id The tool's id.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { describeFirstMessage } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(describeFirstMessage("fs/read"), /^describe fs\/read before executing it/);
 * ```
 */
export function describeFirstMessage(id: string): string {
  return `describe ${quoteId(id)} before executing it. Its input schema ` +
    `follows (it now counts as described): check the arguments against it and execute again`;
}

/**
 * The text of a tool call that failed upstream (the server's error result, a timeout, a lost
 * connection), naming the tool.
 *
 * @param id The tool's id.
 * @param code The failure's code (`tool_error`, `call_timeout`, ...).
 * @param message What the server or the connection said, as it said it (like a successful result,
 * it is the tool's output: the host hands it on unchanged).
 * @returns The text for the model.
 *
 * @example Usage
 * ```ts
 * import { renderToolFailure } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(renderToolFailure("fs/read", "tool_error", "No such file"), "Error tool_error: the tool fs/read failed: No such file");
 * ```
 */
export function renderToolFailure(id: string, code: string, message: string): string {
  return `Error ${code}: the tool ${quoteId(id)} failed: ${message}`;
}
