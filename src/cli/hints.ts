/**
 * The `unfold` commands that unfold's messages tell the user to run, written so that each runs as
 * printed when pasted into a POSIX shell (words quoted where the shell would split or expand
 * them), and set in backticks within a sentence ({@linkcode commandSpan}). Every hint of the CLI
 * that names a command is built here (the gateway's approve hints by `trust/policy.ts`).
 *
 * @module
 */

import { commandSpan, shellWord } from "../utils/shell_words.ts";

export { commandSpan, shellWord };

/**
 * An `unfold` command line as the user types it.
 *
 * @param words The words after `unfold`.
 * @returns The line.
 *
 * @example Usage
 * ```ts
 * import { unfoldCommand } from "./hints.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(unfoldCommand("approve", "--config", "a b.json"), "unfold approve --config 'a b.json'");
 * ```
 */
export function unfoldCommand(...words: string[]): string {
  return ["unfold", ...words.map(shellWord)].join(" ");
}
