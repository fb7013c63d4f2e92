/**
 * A host's `roots/list` answer, judged before any upstream hears of it, and the roots that several
 * hosts' answers agree on. The answer is the host's (hostile, like everything it sends): bounded
 * in count and size, every root a `file://` URI without query or fragment; any fault fails the
 * whole answer closed (no roots given on from it), so that no root slips through half-read.
 *
 * @module
 */

import type { Root } from "../../mcp/types.ts";
import type { Result } from "../../result.ts";
import { isRecord } from "../../utils/record.ts";

/** The most roots one answer may carry (a workspace's folders, with ample headroom). */
export const MAX_ROOTS = 64;
/** The longest root URI taken, in characters. */
export const MAX_ROOT_URI_CHARS = 4_096;
/** The longest root name taken, in characters. */
export const MAX_ROOT_NAME_CHARS = 256;

/** A root as judged: what is given on, and its path, for containment. */
export interface CheckedRoot {
  /** The root as given on (its URI as the host wrote it, its name when it has one). */
  root: Root;
  /** Its decoded-free path (the URL's pathname), without a trailing `/` unless it is `/`. */
  path: string;
}

/**
 * Judges a host's `roots/list` result.
 *
 * @param result What the host answered (any value).
 * @returns The roots, or why the answer is refused (`code: "invalid_roots"`).
 *
 * @example Usage
 * ```ts
 * import { checkRoots } from "./check.ts";
 * import { equal } from "node:assert/strict";
 *
 * const checked = checkRoots({ roots: [{ uri: "file:///home/me/project", name: "project" }] });
 * equal(checked.ok && checked.value[0]?.path, "/home/me/project");
 * equal(checkRoots({ roots: [{ uri: "https://example.com/" }] }).ok, false);
 * ```
 */
export function checkRoots(
  result: unknown,
): Result<CheckedRoot[], { code: "invalid_roots"; message: string }> {
  const refuse = (message: string) => ({
    ok: false as const,
    error: { code: "invalid_roots" as const, message },
  });
  const roots = isRecord(result) ? result.roots : undefined;
  if (!Array.isArray(roots)) return refuse('the answer has no "roots" list');
  if (roots.length > MAX_ROOTS) {
    return refuse(`it lists ${roots.length} roots, more than the ${MAX_ROOTS} taken`);
  }
  const checked: CheckedRoot[] = [];
  for (const [index, entry] of roots.entries()) {
    const at = `root ${index}`;
    if (!isRecord(entry) || typeof entry.uri !== "string") return refuse(`${at} has no "uri"`);
    const { uri, name } = entry;
    if (uri.length > MAX_ROOT_URI_CHARS) {
      return refuse(`${at}'s URI is ${uri.length} characters, over ${MAX_ROOT_URI_CHARS}`);
    }
    if (name !== undefined && typeof name !== "string") return refuse(`${at}'s name is no string`);
    if (name !== undefined && name.length > MAX_ROOT_NAME_CHARS) {
      return refuse(`${at}'s name is ${name.length} characters, over ${MAX_ROOT_NAME_CHARS}`);
    }
    const path = filePath(uri);
    if (path === undefined) {
      return refuse(`${at} is not a file:// URI without query or fragment`);
    }
    checked.push({ root: name === undefined ? { uri } : { uri, name }, path });
  }
  return { ok: true, value: checked };
}

// The path of a local `file://` URI (host empty or `localhost`), or undefined.
function filePath(uri: string): string | undefined {
  if (!URL.canParse(uri)) return undefined;
  const url = new URL(uri);
  if (url.protocol !== "file:" || url.search !== "" || url.hash !== "") return undefined;
  if (url.hostname !== "" && url.hostname !== "localhost") return undefined;
  if (url.username !== "" || url.password !== "" || url.port !== "") return undefined;
  const path = url.pathname;
  if (!path.startsWith("/")) return undefined;
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
}

/**
 * The roots every one of several hosts allows: a root of one host is kept when each host has a
 * root that contains it (the same path, or a folder above it), so the result is the intersection
 * of what the hosts allow, never more than any one of them. With no host, no roots. Hosts with the
 * same roots are judged once; past {@linkcode MAX_ROOTS} shared roots, the first by path are kept
 * (less access, never more).
 *
 * @param hosts Each host's roots.
 * @returns The roots they share, one per path, none inside another, in path order.
 *
 * @example Usage
 * ```ts
 * import { checkRoots, sharedRoots } from "./check.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const roots = (...uris: string[]) => {
 *   const checked = checkRoots({ roots: uris.map((uri) => ({ uri })) });
 *   if (!checked.ok) throw new Error(checked.error.message);
 *   return checked.value;
 * };
 * const shared = sharedRoots([roots("file:///home/me"), roots("file:///home/me/a", "file:///tmp")]);
 * deepEqual(shared.map((root) => root.uri), ["file:///home/me/a"]);
 * ```
 */
export function sharedRoots(hosts: readonly (readonly CheckedRoot[])[]): Root[] {
  const distinct = new Map<string, readonly CheckedRoot[]>();
  for (const roots of hosts) distinct.set(roots.map((root) => root.path).sort().join("\0"), roots);
  let shared: CheckedRoot[] | undefined;
  for (const roots of distinct.values()) {
    shared = outermost(shared === undefined ? roots : meet(shared, roots));
    if (shared.length === 0) break;
  }
  return (shared ?? []).map((checked) => checked.root);
}

// The roots of `a` inside a root of `b`, and those of `b` inside one of `a`: what both allow.
function meet(a: readonly CheckedRoot[], b: readonly CheckedRoot[]): CheckedRoot[] {
  const within = (inner: readonly CheckedRoot[], outer: readonly CheckedRoot[]) =>
    inner.filter((root) => outer.some((other) => contains(other.path, root.path)));
  return [...within(a, b), ...within(b, a)];
}

// One root per path, none inside another, in path order, at most MAX_ROOTS.
function outermost(roots: readonly CheckedRoot[]): CheckedRoot[] {
  const byPath = new Map<string, CheckedRoot>();
  for (const root of roots) if (!byPath.has(root.path)) byPath.set(root.path, root);
  const paths = [...byPath.keys()].sort();
  const kept: CheckedRoot[] = [];
  for (const path of paths) {
    // Sorted, a folder comes before what is inside it.
    if (kept.some((outer) => contains(outer.path, path))) continue;
    kept.push(byPath.get(path)!);
    if (kept.length === MAX_ROOTS) break;
  }
  return kept;
}

// Whether the folder `outer` is `inner` or above it.
function contains(outer: string, inner: string): boolean {
  return inner === outer || inner.startsWith(outer === "/" ? "/" : `${outer}/`);
}
