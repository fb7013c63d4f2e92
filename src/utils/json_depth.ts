/**
 * How deeply a value nests, measured without recursion, so that a value of any depth the JSON
 * parser accepts (or a cyclic object from a library caller) can be measured and refused.
 *
 * @module
 */

/**
 * Whether a value nests objects and arrays deeper than a limit. Never recurses; a cycle counts as
 * too deep. A small tree (the usual tool field) is walked path by path, remembering nothing; any
 * other value, and any value past the limit, is then walked with each object once (shared objects
 * are not walked again), so the time stays linear in the value's size.
 *
 * @param value Any value.
 * @param maxDepth The deepest nesting allowed: `{}` and `[]` have depth 1, `{"a":[1]}` depth 2.
 * @returns The JSON pointer of a member past the limit, or `undefined` when within it.
 *
 * @example Usage
 * ```ts
 * import { tooDeep } from "./json_depth.ts";
 * import { equal } from "node:assert/strict";
 *
 * equal(tooDeep({ a: [1] }, 2), undefined);
 * equal(tooDeep({ a: [[1]] }, 2), "/a/0");
 * ```
 */
export function tooDeep(value: unknown, maxDepth: number): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  if (fitsAsTree(value, maxDepth)) return undefined;
  // Depth-first without recursion; a finished object keeps its height (its deepest nesting), so an
  // object shared by several parents is walked once and still measured at every place it sits.
  // A plain map (cleared with the walk) is cheaper than a WeakMap; OPEN marks an object on the path.
  const heights = new Map<object, number>();
  const stack: Frame[] = [];
  // The pointer is made only for the answer: making one per member made this walk the costliest
  // part of validating a tool.
  const pointer = (key: number | string | undefined): string => {
    let path = "";
    for (let i = 1; i < stack.length; i++) path += `/${escape(stack[i]!.key!)}`;
    return key === undefined ? path : `${path}/${escape(key)}`;
  };
  const enter = (node: object, key: number | string | undefined): string | undefined => {
    const height = heights.get(node);
    if (height === OPEN) return pointer(key); // a cycle: deeper than any limit
    if (height !== undefined) {
      if (stack.length + height > maxDepth) return pointer(key);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, height + 1);
      return undefined;
    }
    if (stack.length === maxDepth) return pointer(key);
    heights.set(node, OPEN);
    const array = Array.isArray(node);
    // Arrays by index: no key strings for a long array.
    stack.push({ node, array, keys: array ? node : Object.keys(node), next: 0, key, height: 1 });
    return undefined;
  };
  const first = enter(value, undefined);
  if (first !== undefined) return first;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.keys.length) {
      stack.pop();
      heights.set(frame.node, frame.height);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, frame.height + 1);
      continue;
    }
    const index = frame.next++;
    const key = frame.array ? index : frame.keys[index] as string;
    const child = frame.array
      ? frame.keys[index]
      : (frame.node as Record<string, unknown>)[key as string];
    if (typeof child !== "object" || child === null) continue;
    const found = enter(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

// An object being walked: its members (an array's own elements), the next to visit, its key in
// its parent (none at the root), and its height so far.
interface Frame {
  node: object;
  array: boolean;
  keys: readonly unknown[];
  next: number;
  key: number | string | undefined;
  height: number;
}

const OPEN = -1;

// A JSON pointer segment.
function escape(key: number | string): string {
  return typeof key === "number" ? `${key}` : key.replace(/~/g, "~0").replace(/\//g, "~1");
}

// The most objects the quick walk visits before it leaves the answer to the full one.
const QUICK_VISITS = 4_096;

// The quick answer for the usual value, a small tree: every path walked, nothing remembered, so
// no map entry per object. True when each object sits within the limit on every path to it
// (then no cycle either: a cycle's path never ends); false when one does not, or when the walk
// passes QUICK_VISITS objects (a value whose shared objects make paths many), and the full walk
// then decides and finds the pointer.
function fitsAsTree(value: object, maxDepth: number): boolean {
  const nodes: object[] = [value];
  const depths: number[] = [1];
  let visits = 0;
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth || ++visits > QUICK_VISITS) return false;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const child: unknown = node[i];
        if (typeof child === "object" && child !== null) {
          nodes.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const child: unknown = (node as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return true;
}
