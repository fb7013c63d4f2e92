/**
 * Canonical JSON member by member, without recursion: the slow path of `canonicalJson` for values
 * too deep for the native serialiser's stack and for data that holds its marks.
 *
 * @module
 */

/**
 * Serialises JSON data with object keys sorted at every depth, writing each member in JavaScript.
 *
 * @param value JSON data (an object or an array).
 * @returns The canonical text.
 */
export function walkCanonical(value: object): string {
  // Each frame is an array or object being written, the next member to write, and
  // whether a member has been written (the text itself is never read back: asking the growing
  // string anything flattens it, which made every member cost the whole text so far).
  let text = "";
  type Frame = {
    node: Record<string, unknown>;
    keys: string[];
    next: number;
    array: boolean;
    written: boolean;
  };
  const stack: Frame[] = [];
  const open = (node: object) => {
    const array = Array.isArray(node);
    // Array.prototype.sort compares UTF-16 code units, like compareStrings: the same everywhere.
    const keys = array ? [] : Object.keys(node).sort();
    text += array ? "[" : "{";
    stack.push({ node: node as Record<string, unknown>, keys, next: 0, array, written: false });
  };
  open(value);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const length = frame.array ? (frame.node as unknown as unknown[]).length : frame.keys.length;
    if (frame.next === length) {
      text += frame.array ? "]" : "}";
      stack.pop();
      continue;
    }
    const index = frame.next++;
    let member: unknown;
    if (frame.array) {
      member = (frame.node as unknown as unknown[])[index];
      if (index > 0) text += ",";
      if (skipped(member)) member = null;
    } else {
      const key = frame.keys[index]!;
      member = frame.node[key];
      if (skipped(member)) continue;
      text += `${frame.written ? "," : ""}${JSON.stringify(key)}:`;
      frame.written = true;
    }
    if (member === null || typeof member !== "object") text += JSON.stringify(member);
    else open(member);
  }
  return text;
}

function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}
