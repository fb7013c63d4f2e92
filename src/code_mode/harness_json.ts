/**
 * The harness's JSON writer: a script's value (its result, a call's arguments, a `console` line)
 * written in one pass, bounded in size and depth, naming the first part that is not JSON (a
 * function, `NaN`, a `Map`, a cycle) and where it is. One pass, so a getter or a proxy trap that
 * answers differently each time it is read cannot pass a check and then write something else.
 *
 * The function below runs inside the sandbox: its source is sent there (`harness.ts`), so it uses
 * nothing from outside itself but the intrinsics it is given.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any

/** What {@linkcode jsonTools} makes: the strict writer and the lenient one of `console`. */
export interface JsonTools {
  /**
   * Writes a value as JSON text.
   *
   * @param value The value.
   * @param maxChars The longest text.
   * @returns The text; or why not: `not_json` (what it was, where), `too_big` or `threw` (a getter,
   * a trap or `toJSON` threw; `error` is what it threw).
   */
  write(
    value: unknown,
    maxChars: number,
  ):
    | { ok: true; text: string }
    | { ok: false; why: "not_json" | "too_big" | "threw"; message: string; error?: unknown };
  /**
   * Writes a value for a `console` line: strings as they are, anything else as lenient JSON
   * (`[Function f]`, `NaN`, `[Circular]`), cut at `maxChars`.
   */
  format(value: unknown, maxChars: number): string;
}

/**
 * Makes the writer over intrinsics taken before the script ran.
 *
 * @param I The intrinsics: `stringify`, `apply`, `keys`, `isArray`, `toTag` (the
 * `Object.prototype.toString` of a value), `push`, `join`, `includes`, `pop`, `isFinite`, `String`.
 * @returns The writer.
 */
export function jsonTools(intrinsics: unknown): JsonTools {
  "use strict";
  const I = intrinsics as any;
  const MAX_DEPTH = 64;
  const TOO_BIG = {};
  const NOT_JSON = {};
  const LENIENT_MARK: Record<string, string> = {
    Map: "[Map]",
    Set: "[Set]",
    WeakMap: "[WeakMap]",
    WeakSet: "[WeakSet]",
    Promise: "[Promise]",
    RegExp: "[RegExp]",
  };
  const STRICT_WHAT: Record<string, string> = {
    Map: "a Map (convert it, e.g. Object.fromEntries(map))",
    Set: "a Set (convert it, e.g. [...set])",
    WeakMap: "a WeakMap",
    WeakSet: "a WeakSet",
    Promise: "a Promise (did you forget await?)",
    RegExp: "a RegExp",
  };
  let failure = "";

  function pointer(path: string[]): string {
    if (path.length === 0) return "the top";
    let text = "";
    for (let i = 0; i < path.length; i++) {
      text += "/" + I.replaceAll(I.replaceAll(path[i], "~", "~0"), "/", "~1");
      if (text.length > 200) return I.slice(text, 0, 200) + "…";
    }
    return text;
  }

  function run(value: unknown, maxChars: number, lenient: boolean): string {
    const parts: string[] = [];
    const stack: unknown[] = [];
    const path: string[] = [];
    let size = 0;
    const add = (text: string) => {
      size += text.length;
      if (size > maxChars) throw TOO_BIG;
      I.apply(I.push, parts, [text]);
    };
    const refuse = (what: string) => {
      failure = what + " at " + pointer(path);
      throw NOT_JSON;
    };
    // `converted`: v is what a toJSON returned, which JSON writes as it is (no second toJSON).
    const walk = (v: any, inArray: boolean, key: string, converted = false): boolean => {
      switch (typeof v) {
        case "string":
          add(I.stringify(v));
          return true;
        case "number":
          if (I.isFinite(v)) add(I.String(v));
          else if (lenient) add(I.String(v));
          else refuse(v !== v ? "NaN" : "Infinity");
          return true;
        case "boolean":
          add(v ? "true" : "false");
          return true;
        case "undefined":
          if (lenient) add("undefined");
          else if (inArray) add("null");
          else return false;
          return true;
        case "function":
          if (lenient) {
            add(
              "[Function" +
                (typeof v.name === "string" && v.name ? " " + I.slice(v.name, 0, 60) : "") + "]",
            );
          } else refuse("a function");
          return true;
        case "symbol":
          if (lenient) add(I.String(v));
          else refuse("a symbol");
          return true;
        case "bigint":
          if (lenient) add(I.String(v) + "n");
          else refuse("a BigInt");
          return true;
      }
      if (v === null) {
        add("null");
        return true;
      }
      if (stack.length >= MAX_DEPTH) {
        if (lenient) return add("[…]"), true;
        refuse("a value nested deeper than " + MAX_DEPTH + " levels");
      }
      if (I.includes(stack, v)) {
        if (lenient) return add("[Circular]"), true;
        refuse("a cyclic reference");
      }
      const toJSON = converted ? undefined : v.toJSON;
      if (typeof toJSON === "function") {
        I.apply(I.push, stack, [v]);
        const written = walk(I.apply(toJSON, v, [key]), inArray, key, true);
        I.apply(I.pop, stack, []);
        return written;
      }
      const tag = I.slice(I.toTag(v), 8, -1);
      if (tag === "String" || tag === "Number" || tag === "Boolean") {
        return walk(I.apply(I.valueOf[tag], v, []), inArray, key);
      }
      if (tag === "Error") {
        let message = "";
        try {
          message = I.String(v.message);
        } catch { /* an unreadable message: none */ }
        if (lenient) return add("[Error: " + I.slice(message, 0, 200) + "]"), true;
        refuse("an Error (" + I.stringify(I.slice(message, 0, 200)) + ")");
      }
      if (I.hasOwn(STRICT_WHAT, tag)) {
        if (lenient) return add(LENIENT_MARK[tag]!), true;
        refuse(STRICT_WHAT[tag]!);
      }
      I.apply(I.push, stack, [v]);
      if (I.isArray(v)) {
        add("[");
        const length = v.length;
        for (let i = 0; i < length; i++) {
          if (i > 0) add(",");
          I.apply(I.push, path, [I.String(i)]);
          walk(v[i], true, I.String(i));
          I.apply(I.pop, path, []);
        }
        add("]");
      } else {
        add("{");
        const keys = I.keys(v);
        let first = true;
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i];
          const at = size;
          const mark = parts.length;
          add((first ? "" : ",") + I.stringify(k) + ":");
          I.apply(I.push, path, [k]);
          const written = walk(v[k], false, k);
          I.apply(I.pop, path, []);
          if (written) first = false;
          else {
            parts.length = mark;
            size = at;
          }
        }
        add("}");
      }
      I.apply(I.pop, stack, []);
      return true;
    };
    walk(value, true, "");
    return I.apply(I.join, parts, [""]);
  }

  return {
    write(value, maxChars) {
      try {
        return { ok: true, text: run(value, maxChars, false) };
      } catch (error) {
        if (error === TOO_BIG) {
          return {
            ok: false,
            why: "too_big",
            message: "it is longer than " + maxChars + " characters of JSON",
          };
        }
        if (error === NOT_JSON) return { ok: false, why: "not_json", message: failure };
        return { ok: false, why: "threw", message: "reading it threw", error };
      }
    },
    format(value, maxChars) {
      if (typeof value === "string") {
        return value.length > maxChars ? I.slice(value, 0, maxChars) : value;
      }
      try {
        return run(value, maxChars, true);
      } catch (error) {
        if (error === TOO_BIG) return "[a value longer than " + maxChars + " characters]";
        return "[a value that could not be read]";
      }
    },
  };
}
