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

/** How far a cut answer has been shown, for its marker ({@linkcode renderCut}). */
export interface CutProgress {
  /** This part's number: 1 for the answer itself, 2 for the first `more`. */
  part: number;
  /** The tokens shown so far, this part included. */
  shownTokens: number;
  /** The tokens of the whole answer (this channel of it: the text, or the structured copy). */
  totalTokens: number;
  /**
   * What follows: `more` (the next part is kept: `ref` names it), `last` (this is the last part),
   * `no_session` (nothing is kept without a session), `too_large` (the rest is over what one
   * session keeps: `keptBytes` says how much that is) or `done` (this channel ended in an earlier
   * part; the other goes on).
   */
  rest: "more" | "last" | "no_session" | "too_large" | "done";
  /** The ref of the next part, with `rest: "more"`. */
  ref?: string;
  /** The most bytes one session keeps, with `rest: "too_large"`. */
  keptBytes?: number;
  /** Which channel this is, for `rest: "done"`: the text, or the structured copy. */
  channel?: "text" | "structured";
}

/**
 * The share of an answer shown so far, in per cent with one decimal, rounded down (100 only once
 * all of it is shown).
 *
 * @param shown The tokens shown.
 * @param total The tokens of the whole.
 * @returns The per cent.
 *
 * @example Usage
 * ```ts
 * import { shownPercent } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(shownPercent(1, 3), 33.3);
 * equal(shownPercent(3, 3), 100);
 * ```
 */
export function shownPercent(shown: number, total: number): number {
  if (total <= 0 || shown >= total) return 100;
  return Math.floor((shown * 1000) / total) / 10;
}

/**
 * The marker that ends a part of a cut answer: how much was shown of how much (tokens and per
 * cent) and the exact call for the next part, or why there is none. One line, in brackets.
 *
 * @param progress The part, the tokens shown and in all, and what follows.
 * @returns The marker.
 *
 * @example Usage
 * ```ts
 * import { renderCut } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(
 *   renderCut({ part: 1, shownTokens: 9_998, totalTokens: 40_000, rest: "more", ref: "abc.2" }),
 *   '[Cut by unfold: 9,998 of 40,000 tokens shown (24.9 %). Next part: {"action":"more","ref":"abc.2"}]',
 * );
 * ```
 */
export function renderCut(progress: CutProgress): string {
  const { part, shownTokens, totalTokens } = progress;
  const shown = `${thousands(Math.min(shownTokens, totalTokens))} of ${thousands(totalTokens)} ` +
    `tokens shown${part > 1 ? " so far" : ""} (${shownPercent(shownTokens, totalTokens)} %)`;
  const head = part > 1 ? `[Part ${part} of an answer cut by unfold: ` : "[Cut by unfold: ";
  switch (progress.rest) {
    case "more":
      return `${head}${shown}. Next part: {"action":"more","ref":${
        JSON.stringify(progress.ref ?? "")
      }}]`;
    case "last":
      return `[Part ${part}, the last of an answer cut by unfold: all ${
        thousands(totalTokens)
      } tokens shown.]`;
    case "no_session":
      return `${head}${shown}. The rest is not kept without a session: ask the tool for less ` +
        "(a range, a filter, a smaller page).]";
    case "too_large":
      return `${head}${shown}. The rest is not kept: it is over the ${
        bytesText(progress.keptBytes ?? 0)
      } one session keeps; ask the tool for less (a range, a filter, a smaller page).]`;
    case "done":
      return `[Part ${part} of an answer cut by unfold: its ${
        progress.channel === "structured" ? "structured content" : "text"
      } was shown in full in an earlier part.]`;
  }
}

/**
 * The line that stands for a binary block (image, audio, embedded blob) over the byte ceiling:
 * its type, size and URI.
 *
 * @param block What it was: type, media type, decoded size, URI.
 * @param limit The byte ceiling it is over.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { renderOmittedBlock } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(
 *   renderOmittedBlock({ type: "image", mimeType: "image/png", bytes: 3 * 1024 * 1024 }, 1024 * 1024),
 *   "[image (image/png, 3.0 MiB) not shown: over the 1.0 MiB unfold passes on in one answer]",
 * );
 * ```
 */
export function renderOmittedBlock(
  block: { type: string; mimeType?: string; bytes: number; uri?: string },
  limit: number,
): string {
  const mime = block.mimeType === undefined ? "" : `${oneLine(block.mimeType, 100)}, `;
  const uri = block.uri === undefined ? "" : ` ${quote(oneLine(block.uri, 300))}`;
  return `[${oneLine(block.type, 40)}${uri} (${mime}${bytesText(block.bytes)}) not shown: ` +
    `over the ${bytesText(limit)} unfold passes on in one answer]`;
}

/**
 * The message of a `more` whose ref is not kept: in this session it expired (with the session,
 * or let go when the session kept too much) or was never given; without a session nothing is.
 *
 * @param ref The ref the model sent (quoted, capped).
 * @param stateless Whether there is no session to keep anything.
 * @returns The message.
 *
 * @example Usage
 * ```ts
 * import { unknownRefMessage } from "./render.ts";
 * import { match } from "node:assert/strict";
 *
 * match(unknownRefMessage("abc.2", false), /^the ref "abc\.2" is not kept/);
 * ```
 */
export function unknownRefMessage(ref: string, stateless: boolean): string {
  const shown = quote(ref.length > 80 ? `${ref.slice(0, 79)}…` : ref);
  return stateless
    ? `no part of an answer is kept here (there is no session), so ${shown} cannot be read. ` +
      "Run the call that gave it again, asking for less (a range, a filter, a smaller page)"
    : `the ref ${shown} is not kept in this session: it expired (parts are kept as long as the ` +
      "session, and the oldest go first when it keeps too much) or was not given here. Run the " +
      "call that gave it again to get the data, asking for less if the tool allows it";
}

/**
 * The ceiling sentence of the bridge tool's description.
 *
 * @param maxResultTokens The ceiling; `0` for none.
 * @returns The sentence, or `""` without a ceiling.
 *
 * @example Usage
 * ```ts
 * import { ceilingSentence } from "./render.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(ceilingSentence(10_000), "Answers over 10,000 tokens are cut; more gets the next part by the ref given.");
 * ```
 */
export function ceilingSentence(maxResultTokens: number): string {
  return maxResultTokens === 0
    ? ""
    : `Answers over ${
      thousands(maxResultTokens)
    } tokens are cut; more gets the next part by the ref given.`;
}

function thousands(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
