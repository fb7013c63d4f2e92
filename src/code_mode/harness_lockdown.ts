/**
 * The harness's lockdown: what it does to the sandbox's global scope before a script runs, the
 * same in a Deno `node:vm` context and in a Worker isolate. Only the ECMAScript built-ins a script
 * needs stay; no clock (`Date.now()`, `new Date()` and a date-less `Intl` format throw), no
 * randomness (`Math.random` throws), no binary buffers, WebAssembly, shared memory or weak
 * references (observable garbage collection), no BigInt; and the built-ins that allocate in bulk
 * (arrays of a given length, `repeat`, `padStart`, …) are counted against the run's memory.
 *
 * The function below runs inside the sandbox: its source is sent there (`harness.ts`), so it uses
 * nothing from outside itself.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any

/**
 * Locks the global scope down.
 *
 * @param G The global object.
 * @param bulk Charges `units` of bulk allocation (elements or characters) to the run, throwing
 * when the run is over its memory; `maxElements` and `maxChars` bound one allocation.
 * @param keep The names of globals the harness defines itself (`call`, `search`, …).
 */
export function lockdown(
  global: unknown,
  bulk: { charge(units: number): void; maxElements: number; maxChars: number },
  keep: readonly string[],
): void {
  "use strict";
  const G = global as any;
  const O = Object;
  const R = Reflect;
  const apply = R.apply;
  const define = O.defineProperty;
  const describe = O.getOwnPropertyDescriptor;
  const ownKeys = R.ownKeys;
  const protoOf = O.getPrototypeOf;
  const hasOwn = O.hasOwn;
  const RangeErrorCtor = RangeError;
  const ErrorCtor = Error;
  const NumberFn = Number;
  const StringFn = String;
  const floor = Math.floor;
  const isArray = Array.isArray;
  const ITERATOR = Symbol.iterator;
  const toLength = (v: unknown) => {
    const n = NumberFn(v);
    return n > 0 ? (n === Infinity ? Infinity : floor(n)) : 0;
  };
  const fixed = (object: any, key: PropertyKey, value: unknown) =>
    define(object, key, { value, writable: false, enumerable: false, configurable: false });
  const noClock = () =>
    new ErrorCtor(
      "There is no clock in a script (runs are replayed and must give the same result): " +
        "pass dates in as values",
    );

  const ALLOWED = new Set([
    "Object",
    "Function",
    "Array",
    "Number",
    "parseFloat",
    "parseInt",
    "Infinity",
    "NaN",
    "undefined",
    "Boolean",
    "String",
    "Symbol",
    "Date",
    "Promise",
    "RegExp",
    "Error",
    "AggregateError",
    "EvalError",
    "RangeError",
    "ReferenceError",
    "SyntaxError",
    "TypeError",
    "URIError",
    "SuppressedError",
    "globalThis",
    "JSON",
    "Math",
    "Intl",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Proxy",
    "Reflect",
    "Iterator",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "unescape",
    "isFinite",
    "isNaN",
    "DisposableStack",
    "AsyncDisposableStack",
    "queueMicrotask",
    "eval",
    ...keep,
  ]);
  // Everything else goes, from the global object and the prototypes of its scope (a Worker's
  // `fetch`, `crypto`, `setTimeout`, … live there); what cannot go is hidden.
  for (let o = G; o !== null && o !== O.prototype; o = protoOf(o)) {
    for (const key of ownKeys(o)) {
      if (o === G && typeof key === "string" && ALLOWED.has(key)) continue;
      if (o !== G && key === "constructor") continue;
      try {
        delete o[key];
      } catch { /* not configurable: hidden below */ }
      if (hasOwn(o, key)) {
        try {
          fixed(o, key, undefined);
        } catch { /* neither: the runtime's own, left */ }
      }
    }
  }

  // The clock: dates from values only.
  const RealDate = G.Date;
  function SafeDate(this: unknown, ...args: unknown[]) {
    if (new.target === undefined || args.length === 0) throw noClock();
    return R.construct(RealDate, args, new.target);
  }
  fixed(SafeDate, "prototype", RealDate.prototype);
  fixed(SafeDate, "UTC", RealDate.UTC);
  fixed(SafeDate, "parse", RealDate.parse);
  fixed(SafeDate, "now", function now() {
    throw noClock();
  });
  fixed(RealDate.prototype, "constructor", SafeDate);
  fixed(G, "Date", SafeDate);
  const Format = G.Intl?.DateTimeFormat;
  if (Format !== undefined) {
    const format = describe(Format.prototype, "format")?.get;
    const parts = Format.prototype.formatToParts;
    if (format !== undefined) {
      define(Format.prototype, "format", {
        get() {
          const bound = apply(format, this, []);
          return (date: unknown) => {
            if (date === undefined) throw noClock();
            return bound(date);
          };
        },
        configurable: false,
      });
    }
    fixed(Format.prototype, "formatToParts", function formatToParts(this: unknown, date: unknown) {
      if (date === undefined) throw noClock();
      return apply(parts, this, [date]);
    });
  }
  // No randomness.
  fixed(G.Math, "random", function random() {
    throw new ErrorCtor(
      "Math.random is not available in a script (runs are replayed and must give the same " +
        "result)",
    );
  });
  // No stack-trace hooks (they would see the harness's frames).
  fixed(ErrorCtor, "prepareStackTrace", undefined);

  // Bulk allocations: each bounded, all counted against the run's memory.
  const tooLong = (what: string) =>
    new RangeErrorCtor(`${what} is over the script's memory (memoryMb)`);
  const elements = (length: number, what: string) => {
    if (length > bulk.maxElements) throw tooLong(what);
  };
  const chars = (length: number, what: string) => {
    if (length > bulk.maxChars) throw tooLong(what);
    bulk.charge(length);
  };
  const lengthOf = (self: any) => toLength(self?.length);
  // One wrapper per method: the check, then the built-in itself.
  const guard = (object: any, key: PropertyKey, check: (self: any, args: any[]) => void) => {
    const original = object[key];
    if (typeof original !== "function") return;
    const name = typeof key === "symbol" ? "[Symbol.iterator]" : key;
    fixed(
      object,
      key,
      {
        [name](this: unknown, ...args: any[]) {
          check(this, args);
          return apply(original, this, args);
        },
      }[name],
    );
  };
  const ArrayProto = G.Array.prototype;
  const arrayChecks: Record<string, (self: any, args: any[]) => void> = {
    fill: (self) => bulk.charge(lengthOf(self) * 8),
    concat: (self, args) => {
      let total = lengthOf(self);
      for (let i = 0; i < args.length; i++) total += isArray(args[i]) ? lengthOf(args[i]) : 1;
      elements(total, "The concatenated array");
      bulk.charge(total * 8);
    },
  };
  for (const key of ownKeys(ArrayProto)) {
    if (key === "constructor" || typeof ArrayProto[key] !== "function") continue;
    const extra = typeof key === "string" && hasOwn(arrayChecks, key)
      ? arrayChecks[key]
      : undefined;
    guard(ArrayProto, key, (self, args) => {
      elements(lengthOf(self), `An array of ${StringFn(self?.length)} elements`);
      extra?.(self, args);
    });
  }
  guard(G.Array, "from", (_self, args) => {
    const source = args[0];
    if (source !== null && typeof source === "object" && !(ITERATOR in source)) {
      elements(lengthOf(source), "Array.from's array");
      bulk.charge(lengthOf(source) * 8);
    }
  });
  const StringProto = G.String.prototype;
  guard(StringProto, "repeat", (self, args) => {
    chars(StringFn(self).length * toLength(args[0]), "The repeated string");
  });
  for (const key of ["padStart", "padEnd"]) {
    guard(StringProto, key, (_self, args) => chars(toLength(args[0]), "The padded string"));
  }
  guard(StringProto, "split", (self, args) => {
    if (args[0] === "" && args[1] === undefined) elements(StringFn(self).length, "The split");
  });
}
