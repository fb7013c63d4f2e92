/**
 * What a run of a script answers: the script's value, its `console` lines and each real call it
 * made (`RunAnswer`), the same in the text and in `structuredContent`; or, for a host that runs
 * the tools itself, the next real call the replayed script needs (`CallAction`).
 *
 * @module
 */

import type { McpTool } from "../tool.ts";
import { codeList } from "../utils/code_list.ts";

/** A run's answer: the same content in the text and in `structuredContent`. */
export interface RunAnswer {
  /** A script ran. */
  action: "run";
  /** The code. */
  code: string;
  /** Whether the run failed (`error` says why). */
  isError: boolean;
  /** The JSON of the value the script returned (`null` when it returned none, or failed). */
  result: unknown;
  /** The captured `console` lines (`warn` and `error` lines start with their level). */
  logs: string[];
  /** Each real call made, in the order the script made them, and whether it succeeded. */
  calls: ({ id: string; ok: true } | { id: string; ok: false; error: string })[];
  /**
   * Why there is no value, when there is none: the stable code, what happened and what to do,
   * and where (`line`, and `column` for a problem found before the run) or which bound
   * (`limit`). The codes: `syntax_error` (not JavaScript), `not_allowed` (what a script may not
   * use: `import`, BigInt, …), `too_long` (over `maxCodeChars`), `script_error` (it threw),
   * `not_json` (its value is not JSON; the message says what it was and where), `never_settles`
   * (it waits for a promise nothing can settle), `limit` (it reached a bound; the message says
   * what it had done by then), `sandbox_failed`, `unavailable` (code mode is off, or there is no
   * sandbox), `invalid_results` (a replay's results do not fit the run: the host's mistake).
   */
  error?: {
    code:
      | "syntax_error"
      | "not_allowed"
      | "too_long"
      | "script_error"
      | "not_json"
      | "never_settles"
      | "limit"
      | "sandbox_failed"
      | "unavailable"
      | "invalid_results";
    message: string;
    line?: number;
    column?: number;
    limit?: string;
  };
  /** The text for the model: the JSON of `{result, logs, calls, error?}`. */
  toolResult: string;
  /** The same, as structured content. */
  structuredContent: Pick<RunAnswer, "result" | "logs" | "calls" | "error">;
}

/** The answer's content: what the text shows and `structuredContent` holds. */
export type RunContent = RunAnswer["structuredContent"];
/** A real call a script made: its tool, and whether it succeeded. */
export type ScriptCall = RunAnswer["calls"][number];
/** Why a run has no value, as its answer says it. */
export type RunError = NonNullable<RunAnswer["error"]>;
/** The stable codes of {@linkcode RunError}. */
export type RunErrorCode = RunError["code"];

/** Every {@linkcode RunErrorCode}. */
export const RUN_ERROR_CODES: readonly [RunErrorCode, ...RunErrorCode[]] = codeList<RunErrorCode>({
  syntax_error: 0,
  not_allowed: 0,
  too_long: 0,
  script_error: 0,
  not_json: 0,
  never_settles: 0,
  limit: 0,
  sandbox_failed: 0,
  unavailable: 0,
  invalid_results: 0,
});

/**
 * The next real call a replayed script needs, for a host that runs the tools: it runs this call,
 * adds its MCP result to `results` and sends the same `run` again.
 */
export interface CallAction {
  /** A call for the host to authorise and run. */
  action: "call";
  /** The resolved id. */
  id: string;
  /** The tool, from the catalogue. */
  tool: McpTool;
  /** Its arguments, checked against its input schema. */
  arguments: Record<string, unknown>;
  /** Its place among the run's real calls (0 for the first): the length `results` has now. */
  index: number;
}
