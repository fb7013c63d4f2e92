/**
 * Commands as unfold prints them for a user to run: each word as a POSIX shell reads it back
 * unchanged, and the command, within a sentence, in backticks, so that what is copied is the
 * command whole and nothing of the prose around it (`… --all, or …` copied as printed failed).
 *
 * @module
 */

/**
 * A word as a POSIX shell reads it back unchanged: as it is when it is plain, else single-quoted.
 *
 * @param text The word.
 * @returns The word for a command line.
 *
 * @example Usage
 * ```ts
 * import { shellWord } from "./shell_words.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(shellWord("github/create_issue"), "github/create_issue");
 * equal(shellWord("/tmp/my config.json"), "'/tmp/my config.json'");
 * equal(shellWord("it's"), "'it'\\''s'");
 * ```
 */
export function shellWord(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A command as it stands in a sentence: between backticks (two when it holds one, with a space
 * inside, as Markdown writes such a span), so that it is told apart from the words around it.
 *
 * @param command The command line.
 * @returns The command, marked.
 *
 * @example Usage
 * ```ts
 * import { commandSpan } from "./shell_words.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(commandSpan("unfold inspect"), "`unfold inspect`");
 * equal(commandSpan("unfold inspect --config 'a`b.json'"), "`` unfold inspect --config 'a`b.json' ``");
 * ```
 */
export function commandSpan(command: string): string {
  return command.includes("`") ? `\`\` ${command} \`\`` : `\`${command}\``;
}
