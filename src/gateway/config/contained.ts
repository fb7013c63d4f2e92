/**
 * A server entry's problem is that server's, a profile's that profile's: with `contain`,
 * `parseGatewayConfig` sets aside each entry of `mcpServers` and of `unfold.profiles` that cannot
 * be read (an unknown or mistyped key, a value of the wrong type, a URL that is none, neither
 * `command` nor `url`, a profile naming a server there is not, an entry that is no object, …)
 * with the first problem of it at its JSON pointer, and reads the rest of the file as if the entry
 * were not there. A server set aside is `unavailable` with that problem (`setAsideServers` in
 * `pool/unavailable.ts`); a profile set aside is never served (its command stops with the
 * problem, `/mcp/NAME` answers 503 `profile_unavailable`, and it holds the HTTP guard as closed
 * as its tokens would: `faces/routes.ts`); every other server and profile serves.
 *
 * What is not an entry's stays fatal, because no server's or profile's state could say it: the
 * file is not JSON, the top level is not an object or has a key of its own that is wrong,
 * `mcpServers` or `profiles` is no object, a key of the `unfold` block itself has a problem. A
 * *name* that is not one (`SERVER_NAME`, a profile's `SESSION_NAME`) is fatal too: a server's name
 * is what tool ids, profiles and pins mean it by, a profile's is its route, and a name that
 * cannot be one (a `/`, a newline, 65 characters) cannot be shown without changing what an id
 * means. Of two equal keys the last is read (`JSON.parse`), as the hosts reading the same file
 * read it (JSON.parse, jsonc-parser; TOML refuses them): a name means the same server to both.
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
import { SESSION_NAME } from "../../session/store.ts";
import { SERVER_NAME } from "./servers.ts";

/** An entry set aside, a server's or a profile's: its name and the first problem of it. */
export interface InvalidEntry {
  /** A server of `mcpServers`, or a profile of `unfold.profiles`. */
  kind: "server" | "profile";
  /** Its name. */
  name: string;
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
 * A server entry set aside before the parse (a host's file's entry only the host can use), at its
 * place in the file.
 *
 * @param name Its name.
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
export function refusedEntry(name: string, path: readonly string[], problem: string): InvalidEntry {
  return { kind: "server", name, error: new GatewayConfigError(pointerOf(path), problem) };
}

// Where each kind of entry is, and what its name must be to be an entry's (not the file's).
const PLACES = [
  { kind: "server", path: ["mcpServers"], names: SERVER_NAME },
  { kind: "profile", path: ["unfold", "profiles"], names: SESSION_NAME },
] as const;

// The entries of a kind's place in the config, if it is an object there.
function entriesAt(value: unknown, path: readonly string[]): Record<string, unknown> | undefined {
  let at = value;
  for (const key of path) at = isRecord(at) && Object.hasOwn(at, key) ? at[key] : undefined;
  return isRecord(at) ? at : undefined;
}

/**
 * The server entries and profiles that the issues of a parse fall within, each with its first
 * problem: servers first, each kind in the order of the file. An issue of a name (a server's, a
 * profile's) is no entry's: it stays fatal.
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
 * deepEqual(invalidEntries(value, issues).map((e) => [e.name, e.error.pointer]), [["b", "/mcpServers/b/comand"]]);
 * ```
 */
export function invalidEntries(
  value: unknown,
  issues: readonly z.core.$ZodIssue[],
): InvalidEntry[] {
  return PLACES.flatMap(({ kind, path, names }) => {
    const entries = entriesAt(value, path);
    if (entries === undefined) return [];
    const byEntry = new Map<string, z.core.$ZodIssue[]>();
    for (const issue of issues) {
      const name = issue.path[path.length];
      if (!path.every((key, i) => issue.path[i] === key)) continue;
      if (typeof name !== "string" || !names.test(name) || !Object.hasOwn(entries, name)) continue;
      byEntry.set(name, [...byEntry.get(name) ?? [], issue]);
    }
    return Object.keys(entries).filter((name) => byEntry.has(name)).map((name) => ({
      kind,
      name,
      error: firstProblem(byEntry.get(name)!),
    }));
  });
}

/**
 * The config without the entries set aside: every other key and entry as it is (a `__proto__`
 * key kept as its own).
 *
 * @param value The config (as {@linkcode invalidEntries} found it).
 * @param left The entries set aside.
 * @returns A copy without them.
 */
export function withoutEntries(value: unknown, left: readonly InvalidEntry[]): unknown {
  let out = value;
  for (const { kind, path } of PLACES) {
    const names = new Set(left.filter((entry) => entry.kind === kind).map((entry) => entry.name));
    if (names.size > 0) out = replaced(out, path, (entries) => copy(entries, names));
  }
  return out;
}

// The value with the object at `path` replaced by `by` of it (each object on the way copied).
function replaced(
  value: unknown,
  path: readonly string[],
  by: (entries: Record<string, unknown>) => Record<string, unknown>,
): unknown {
  if (!isRecord(value)) return value;
  if (path.length === 0) return by(value);
  const [key, ...rest] = path as [string, ...string[]];
  const out = copy(value, new Set());
  if (Object.hasOwn(value, key)) own(out, key, replaced(value[key], rest, by));
  return out;
}

// A copy of an object without the keys `left`, each other key its own (`__proto__` too).
function copy(from: Record<string, unknown>, left: ReadonlySet<string>): Record<string, unknown> {
  const to: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!left.has(key)) own(to, key, from[key]);
  return to;
}

function own(to: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(to, key, { value, enumerable: true, writable: true, configurable: true });
}
