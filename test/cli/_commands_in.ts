/**
 * The commands a message tells its reader to run, as the reader copies them: each one in
 * backticks within a sentence (or alone on its line), split as a POSIX shell splits it. A command
 * written into the prose instead (`… --all, or name the ids …`) is found too, as a mistake.
 *
 * @module
 */

import { equal, ok } from "node:assert/strict";
import { parseArgs } from "../../src/cli/args.ts";

// The commands unfold has, as a reader would type them after `unfold`.
const COMMAND = /\bunfold (?:setup|gateway|inspect|approve|search|login|help|--help|--version)\b/;

// The placeholders hints use, each with a value a reader would put there.
const PLACEHOLDERS = new Map([["HOST", "cursor"], ["COMMAND", "gateway"]]);

/** A command found in a text: its words, and whether it was marked as a command. */
export interface FoundCommand {
  /** As printed, between its marks. */
  text: string;
  /** The words a POSIX shell passes. */
  words: string[];
}

/**
 * The commands in a text: every backtick span (or line) that is one.
 *
 * @param text The message.
 * @returns The commands, and the places where a command stands in the prose unmarked.
 */
export function commandsIn(text: string): { commands: FoundCommand[]; unmarked: string[] } {
  const commands: FoundCommand[] = [];
  const spans = /`` (.+?) ``|`([^`\n]+)`/g;
  for (const found of text.matchAll(spans)) {
    const command = found[1] ?? found[2]!;
    if (/^(unfold|curl|export) /.test(command)) {
      commands.push({ text: command, words: shellWords(command) });
    }
  }
  const unmarked: string[] = [];
  for (const line of text.replace(spans, "").split("\n")) {
    const trimmed = line.trim();
    // A line that is a command, alone (a code block's, or `deno task install`'s last words).
    if (/^unfold /.test(trimmed) && !trimmed.includes("[")) {
      commands.push({ text: trimmed, words: shellWords(trimmed) });
    } else if (
      COMMAND.test(trimmed) &&
      !/^(Usage:|unfold (setup|gateway|inspect|approve|search|login|help) .*\[)/.test(trimmed)
    ) {
      unmarked.push(trimmed);
    }
  }
  return { commands, unmarked };
}

/**
 * Splits a command line as a POSIX shell does (single and double quotes, backslashes).
 *
 * @param line The command.
 * @returns Its words.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      ok(end > i, `an unclosed quote in ${line}`);
      word = (word ?? "") + line.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      let inner = "";
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && '"\\$`'.includes(line[j + 1] ?? "")) j++;
        inner += line[j];
      }
      ok(j < line.length, `an unclosed quote in ${line}`);
      word = (word ?? "") + inner;
      i = j;
    } else if (c === "\\") word = (word ?? "") + line[++i];
    else if (c === " ") {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? "") + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}

/**
 * Asserts that a message marks each command it prints, and that each `unfold` command parses
 * with the CLI's own parser (placeholders such as `HOST` filled in).
 *
 * @param text The message.
 * @param at Which message, for the assertion's text.
 * @returns The `unfold` commands, as words after `unfold`.
 */
export function assertCommands(text: string, at: string): string[][] {
  const { commands, unmarked } = commandsIn(text);
  equal(unmarked.length, 0, `${at}: a command written into the prose: ${unmarked.join(" | ")}`);
  ok(commands.length > 0, `${at}: no command in ${text}`);
  const parsed: string[][] = [];
  for (const command of commands) {
    if (command.words[0] !== "unfold") continue;
    const words = command.words.slice(1).map((word) => PLACEHOLDERS.get(word) ?? word);
    const args = parseArgs(words, "/home/me/.config/unfold/mcp.json");
    ok(args.ok, `${at}: ${command.text}: ${args.ok ? "" : args.error}`);
    parsed.push(command.words.slice(1));
  }
  return parsed;
}
