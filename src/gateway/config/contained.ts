/**
 * A server entry's problem is that server's: with `contain`, `parseGatewayConfig` sets aside each
 * entry of `mcpServers` that cannot be read (an unknown or mistyped key, a value of the wrong
 * type, a URL that is none, neither `command` nor `url`, an entry that is no object, …) with the
 * first problem of it at its JSON pointer, and reads the rest of the file as if the entry were
 * not there. The pool then lists it as `unavailable` with that problem (`setAsideServers` in
 * `pool/unavailable.ts`), and every other server and profile serves.
 *
 * What is not an entry's stays fatal, because no server's state could say it: the file is not
 * JSON, the top level is not an object or has a key of its own that is wrong, `mcpServers` is no
 * object, the `unfold` block (a profile in it too: a profile narrows what its clients see, and
 * its tokens tell them apart — one read in part could widen a client's view) has a problem. A
 * server *name* that is not one (`SERVER_NAME`) is fatal too: a name is what tool ids, profiles
 * and pins mean a server by, and a name that cannot be an id's part (a `/`, a newline, 65
 * characters) cannot be shown as a server without changing what an id means. JSON keeps the
 * last of two equal keys (`JSON.parse`), as every host reading the same file does.
 *
 * The doors, each reading the config through `parseGatewayConfig(…, { contain: true })`: the CLI
 * (`cli/config_file.ts`: the stdio and HTTP gateway, `unfold inspect`, `unfold search`,
 * `unfold login`; a host's own file given as `--config` sets aside the same way an entry only
 * its host can use, `${input:…}`: `cli/hosts/entries.ts`) and the gateway Worker
 * (`workers/gateway.ts`, `UNFOLD_UPSTREAMS`, where a stdio server is unavailable too). `unfold
 * setup` reads without it (`cli/setup_plan.ts`): it never writes a config it cannot read whole.
 *
 * @module
 */

import type * as z from "zod/mini";
import { isRecord } from "../../utils/record.ts";
import { GatewayConfigError, pointerOf, UnsetVariableError } from "./_reading.ts";
import { SERVER_NAME } from "./servers.ts";

/** A server entry set aside: its name and the first problem of it. */
export interface InvalidEntry {
  /** Its name in `mcpServers`. */
  server: string;
  /** The first problem of its entry, at its JSON pointer. */
  error: GatewayConfigError;
}

/**
 * The problem a file is told of: the first as the file reads, an object's unknown key before its
 * values (zod finds it after them).
 *
 * @param issues The parse's issues (at least one).
 * @returns The error of the first.
 */
export function firstProblem(issues: readonly z.core.$ZodIssue[]): GatewayConfigError {
  const first = issues[0]!;
  let unknown: z.core.$ZodIssue | undefined;
  for (const issue of issues) {
    const holds = issue.path.length <= first.path.length &&
      issue.path.every((part, i) => part === first.path[i]);
    if (
      issue.code === "unrecognized_keys" && holds &&
      (unknown === undefined || issue.path.length < unknown.path.length)
    ) unknown = issue;
  }
  return errorOf(unknown ?? first);
}

function errorOf(issue: z.core.$ZodIssue): GatewayConfigError {
  const path = issue.path.map(String);
  if (issue.code === "unrecognized_keys") path.push(String(issue.keys[0]));
  const unset = issue.code === "custom" ? issue.params?.unset as string[] | undefined : undefined;
  return unset === undefined
    ? new GatewayConfigError(pointerOf(path), issue.message)
    : new UnsetVariableError(path, unset);
}

/**
 * An entry set aside before the parse (a host's file's entry only the host can use), at its
 * place in the file.
 *
 * @param server Its name.
 * @param path The keys from the file's root to it.
 * @param problem Why, and what to do.
 * @returns The entry set aside.
 *
 * @example Usage
 * ```ts
 * import { refusedEntry } from "./contained.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(refusedEntry("gh", ["servers", "gh"], "uses ${input:key}").error.message, 'Invalid gateway config at "/servers/gh": uses ${input:key}');
 * ```
 */
export function refusedEntry(
  server: string,
  path: readonly string[],
  problem: string,
): InvalidEntry {
  return { server, error: new GatewayConfigError(pointerOf(path), problem) };
}

/**
 * The entries of `mcpServers` that the issues of a parse fall within, each with its first
 * problem, in the order of the file. An issue of a server's name is no entry's: it stays fatal.
 *
 * @param value The config as parsed from JSON.
 * @param issues The issues of its parse.
 * @returns The entries to set aside (none when every issue is outside the entries).
 *
 * @example Usage
 * ```ts
 * import { invalidEntries } from "./contained.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const value = { mcpServers: { a: { command: "a" }, b: { comand: "b" } } };
 * const issues = [{ code: "custom" as const, path: ["mcpServers", "b", "comand"], message: "unknown field", input: "b" }];
 * deepEqual(invalidEntries(value, issues).map((e) => [e.server, e.error.pointer]), [["b", "/mcpServers/b/comand"]]);
 * ```
 */
export function invalidEntries(
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
): InvalidEntry[] {
  const entries = isRecord(value) && isRecord(value.mcpServers) ? value.mcpServers : undefined;
  if (entries === undefined) return [];
  const byEntry = new Map<string, z.core.$ZodIssue[]>();
  for (const issue of issues) {
    const [top, name] = issue.path;
    if (top !== "mcpServers" || typeof name !== "string" || !SERVER_NAME.test(name)) continue;
    if (!Object.hasOwn(entries, name)) continue;
    byEntry.set(name, [...byEntry.get(name) ?? [], issue]);
  }
  return Object.keys(entries).filter((name) => byEntry.has(name)).map((server) => ({
    server,
    error: firstProblem(byEntry.get(server)!),
  }));
}

/**
 * The config without the entries set aside: every other key and entry as it is (a `__proto__`
 * key kept as its own).
 *
 * @param value The config (a record with `mcpServers`, as {@linkcode invalidEntries} found it).
 * @param left The entries set aside.
 * @returns A copy without them.
 */
export function withoutEntries(value: unknown, left: readonly InvalidEntry[]): unknown {
  if (!isRecord(value) || !isRecord(value.mcpServers)) return value;
  const out = new Set(left.map((entry) => entry.server));
  const entries = value.mcpServers;
  const kept = copy(entries, Object.keys(entries).filter((name) => !out.has(name)));
  return { ...copy(value, Object.keys(value)), mcpServers: kept };
}

function copy(from: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const to: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(to, key, {
      value: from[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return to;
}
