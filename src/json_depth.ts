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
  const open = new Set<object>();
  const heights = new WeakMap<object, number>();
  const stack: Array<
    { node: object; keys: readonly unknown[]; next: number; path: string; height: number }
  > = [];
  const enter = (node: object, path: string): string | undefined => {
    if (open.has(node)) return path; // a cycle: deeper than any limit
    const height = heights.get(node);
    if (height !== undefined) {
      if (stack.length + height > maxDepth) return path;
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, height + 1);
      return undefined;
    }
    if (stack.length === maxDepth) return path;
    open.add(node);
    // Arrays by index: no key strings for a long array.
    stack.push({
      node,
      keys: Array.isArray(node) ? node : Object.keys(node),
      next: 0,
      path,
      height: 1,
    });
    return undefined;
  };
  const first = enter(value, "");
  if (first !== undefined) return first;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.keys.length) {
      stack.pop();
      open.delete(frame.node);
      heights.set(frame.node, frame.height);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, frame.height + 1);
      continue;
    }
    const index = frame.next++;
    const array = Array.isArray(frame.node);
    const key = array ? `${index}` : frame.keys[index] as string;
    const child = array ? frame.keys[index] : (frame.node as Record<string, unknown>)[key];
    if (typeof child !== "object" || child === null) continue;
    const found = enter(child, `${frame.path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (found !== undefined) return found;
  }
  return undefined;
}
