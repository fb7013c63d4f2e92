/**
 * How deeply a value nests, measured without recursion, so that a value of any depth the JSON
 * parser accepts (or a cyclic object from a library caller) can be measured and refused.
 *
 * @module
 */

/**
 * Whether a value nests objects and arrays deeper than a limit. Walks each object once (shared
 * objects are not walked again) and never recurses; a cycle counts as too deep.
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
