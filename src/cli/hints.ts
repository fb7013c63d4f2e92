/**
 * The `unfold` commands that unfold's messages tell the user to run, written so that each runs as
 * printed when pasted into a POSIX shell (words quoted where the shell would split or expand
 * them). Every hint that names a command is built here.
 *
 * @module
 */

// Characters a POSIX shell takes literally in a word.
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * Quotes one word for a POSIX shell, when it needs it.
 *
 * @param word The word.
 * @returns The word as typed into a shell.
 *
 * @example Usage
 * ```ts
 * import { shellWord } from "./hints.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(shellWord("/tmp/mcp.json"), "/tmp/mcp.json");
 * equal(shellWord("/tmp/my config's/mcp.json"), "'/tmp/my config'\\''s/mcp.json'");
 * ```
 */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

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
