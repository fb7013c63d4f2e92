/**
 * The harness: the code that runs inside a sandbox around the model's script, the same in both
 * sandboxes. It locks the global scope down (`harness_lockdown.ts`), gives the script `call`,
 * `search`, `describe` and `console`, counts its steps (the calls `prepare.ts` put in every loop,
 * function, `catch` and `finally`), and speaks to the host in the messages of `protocol.ts`
 * through the port the sandbox gives it: strings only, so nothing of the host's side ever
 * reaches the script.
 *
 * Replies reach the script one at a time, each in a task of its own and in the order the script
 * made its requests: with the clock gone, that makes a run a function of its code and its
 * replies, which is what replaying a run from the start relies on.
 *
 * The sandbox receives {@linkcode HARNESS_SOURCE}, the text of the functions below, so they use
 * nothing from outside themselves.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any

import { jsonTools } from "./harness_json.ts";
import type { HarnessSettings } from "./harness_settings.ts";
import { lockdown } from "./harness_lockdown.ts";

/** What the sandbox around the harness gives it (all of it stays in the harness's closure). */
export interface HarnessPort {
  /**
   * Sends one message to the host. A sandbox whose transport answers requests directly (a
   * Worker's RPC) returns the reply; one that delivers replies later (a process's pipes) returns
   * nothing and calls `receive`.
   */
  post(text: string): PromiseLike<string | undefined> | undefined;
  /** Sends the last message: the run is over. */
  finish(text: string): void;
  /** Runs a task in a later macrotask of the sandbox's event loop. */
  schedule(task: () => void): void;
  /** The CPU time of the run so far, in ms, where the sandbox can read it. */
  cpuMs?: () => number;
}

/** What the harness function returns to the sandbox. */
export interface HarnessApi {
  /** A reply of the host (JSON text), for a port whose `post` returns nothing. */
  receive(text: string): void;
  /** Runs the script: `factory(step)` gives the script's async function. */
  start(factory: (step: () => void) => () => Promise<unknown>): void;
}

/**
 * The harness as source text: an expression whose value is `(port, settings) => HarnessApi`.
 * Both sandboxes compile it inside the sandbox, before the script.
 */
export const HARNESS_SOURCE: string = `(function (port, settings) {
  "use strict";
  const jsonTools = (${String(jsonTools)});
  const lockdown = (${String(lockdown)});
  return (${String(harnessMain)})(port, settings, jsonTools, lockdown);
})`;

/**
 * The harness itself (see the module's doc).
 *
 * @param port The sandbox's side.
 * @param settings The bounds.
 * @param makeJson {@linkcode jsonTools}.
 * @param lock {@linkcode lockdown}.
 * @returns What the sandbox drives the harness with.
 */
export function harnessMain(
  port: HarnessPort,
  settings: HarnessSettings,
  makeJson: typeof jsonTools,
  lock: typeof lockdown,
): HarnessApi {
  "use strict";
  // The intrinsics, taken before the script can change them.
  const G: any = globalThis;
  const O = Object;
  const apply = Reflect.apply;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const StringFn = String;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const PromiseCtor = Promise;
  const reject = (error: unknown) => apply(Promise.reject, PromiseCtor, [error]);
  const then = Promise.prototype.then;
  const MapCtor = Map;
  const mapGet = Map.prototype.get;
  const mapSet = Map.prototype.set;
  const mapHas = Map.prototype.has;
  const mapDelete = Map.prototype.delete;
  const mapSize = O.getOwnPropertyDescriptor(Map.prototype, "size")!.get!;
  const strSlice = String.prototype.slice;
  const exec = RegExp.prototype.exec;
  const numberIsSafe = Number.isSafeInteger;
  const json = makeJson({
    stringify,
    apply,
    keys: O.keys,
    isArray: Array.isArray,
    hasOwn: O.hasOwn,
    toTag: (v: unknown) => apply(O.prototype.toString, v, []),
    push: Array.prototype.push,
    pop: Array.prototype.pop,
    join: Array.prototype.join,
    includes: (a: unknown[], v: unknown) => apply(Array.prototype.includes, a, [v]),
    slice: (s: string, a: number, b?: number) => apply(strSlice, s, [a, b]),
    replaceAll: (s: string, a: string, b: string) => apply(String.prototype.replaceAll, s, [a, b]),
    isFinite: Number.isFinite,
    String: StringFn,
    valueOf: {
      String: String.prototype.valueOf,
      Number: Number.prototype.valueOf,
      Boolean: Boolean.prototype.valueOf,
    },
  });
  const { post, finish, schedule } = port;
  // The harness's own messages, written from their own fields only: a toJSON the script puts on
  // Object.prototype is never asked (JSON.stringify asks it of every object, ours included).
  const hasOwn = O.hasOwn;
  const ownKeys = O.keys;
  const encode = (value: unknown): string => {
    if (value === null || typeof value !== "object") {
      return value === undefined ? "null" : stringify(value);
    }
    const keys = ownKeys(value);
    let out = "{";
    for (let i = 0; i < keys.length; i++) {
      const field = (value as Record<string, unknown>)[keys[i]!];
      if (field === undefined) continue;
      out += (out === "{" ? "" : ",") + stringify(keys[i]) + ":" + encode(field);
    }
    return out + "}";
  };
  const cpuMs = port.cpuMs;
  const MiB = 1024 * 1024;

  // ---- Steps and the bounds the harness enforces. ----
  let steps = 0;
  let stopped: { limit: string } | undefined;
  let bulkUnits = 0;
  let ended = false;
  const stopError = () =>
    new ErrorCtor(`The run was stopped${stopped?.limit ? `: it reached ${stopped.limit}` : ""}`);
  const halt = (limit: string) => {
    stopped ??= { limit };
    return stopError();
  };
  const step = () => {
    if (stopped !== undefined) throw stopError();
    if (++steps > settings.maxSteps) throw halt("maxSteps");
    if ((steps & 4095) === 0 && cpuMs !== undefined && cpuMs() > settings.cpuMs) {
      throw halt("cpuMs");
    }
  };
  const bulk = {
    maxElements: (settings.memoryMb * MiB) / 8,
    maxChars: settings.memoryMb * MiB,
    charge(units: number) {
      bulkUnits += units;
      if (bulkUnits > 4 * settings.memoryMb * MiB) throw halt("memoryMb");
    },
  };

  // ---- Requests, and their replies in request order. ----
  let seq = 0;
  let nextSeq = 1;
  let delivering = false;
  let settled = false;
  const waiting = new MapCtor<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  const arrived = new MapCtor<number, any>();
  const size = (map: Map<unknown, unknown>) => apply(mapSize, map, []) as number;
  const receive = (text: unknown) => {
    if (ended || typeof text !== "string") return;
    let reply: any;
    try {
      reply = parse(text);
    } catch {
      return;
    }
    if (reply === null || typeof reply !== "object" || !numberIsSafe(reply.seq)) return;
    if (!apply(mapHas, waiting, [reply.seq])) return;
    apply(mapSet, arrived, [reply.seq, reply]);
    pump();
  };
  const pump = () => {
    if (delivering || !apply(mapHas, arrived, [nextSeq])) return;
    delivering = true;
    schedule(deliver);
  };
  const deliver = () => {
    delivering = false;
    if (ended) return;
    const n = nextSeq++;
    const reply = apply(mapGet, arrived, [n]);
    const waiter = apply(mapGet, waiting, [n]);
    apply(mapDelete, arrived, [n]);
    apply(mapDelete, waiting, [n]);
    if (reply.ok === true) waiter.resolve(hasOwn(reply, "value") ? reply.value : null);
    else {
      const error: any = new ErrorCtor(StringFn(reply.error));
      if (hasOwn(reply, "code") && typeof reply.code === "string") error.code = reply.code;
      waiter.reject(error);
    }
    pump();
    schedule(idle);
  };
  // The host counts requests too; the harness stops first so that a burst is never sent whole.
  const next = () => {
    if (seq >= settings.maxCalls) throw halt("maxCalls");
    return ++seq;
  };
  const request = (text: string, n: number) =>
    new PromiseCtor((resolve, rejected) => {
      apply(mapSet, waiting, [n, { resolve, reject: rejected }]);
      const answer = post(text);
      if (answer !== undefined) {
        apply(then, answer, [receive, () =>
          receive(encode({ seq: n, ok: false, error: "The host did not answer" }))]);
      }
    });
  // The script waits for nothing that can happen: no request is out, no reply is due.
  const idle = () => {
    if (settled || ended || delivering) return;
    if (size(waiting) === 0 && size(arrived) === 0) {
      end({
        op: "done",
        ok: false,
        error: {
          kind: "never_settles",
          message: "The script waits for a promise that nothing can settle (no call is running): " +
            "await only call, search, describe and your own promises",
        },
      });
    }
  };

  // ---- What the script sees. ----
  const fail = (error: unknown) => reject(error);
  const call = function call(id: unknown, args?: unknown) {
    if (stopped !== undefined) return fail(stopError());
    if (typeof id !== "string") {
      return fail(new TypeErrorCtor('call(id, args): id must be a tool id "server/tool"'));
    }
    const given = args === undefined ? {} : args;
    if (
      given === null || typeof given !== "object" || O.getPrototypeOf(given) === Array.prototype
    ) {
      return fail(new TypeErrorCtor(`call(${stringify(id)}, args): args must be an object`));
    }
    const written = json.write(given, settings.maxOutputChars);
    if (!written.ok) {
      if (stopped !== undefined) return fail(stopError());
      if (written.why === "threw") return fail(written.error);
      return fail(
        new TypeErrorCtor(`call(${stringify(id)}, args): args are not JSON: ${written.message}`),
      );
    }
    let n: number;
    try {
      n = next();
    } catch (error) {
      return fail(error);
    }
    return request(`{"op":"call","seq":${n},"tool":${stringify(id)},"args":${written.text}}`, n);
  };
  const search = function search(query: unknown, limit?: unknown) {
    if (stopped !== undefined) return fail(stopError());
    if (typeof query !== "string") {
      return fail(new TypeErrorCtor("search(query, limit?): query must be a string"));
    }
    if (limit !== undefined && !numberIsSafe(limit)) {
      return fail(new TypeErrorCtor("search(query, limit?): limit must be an integer"));
    }
    let n: number;
    try {
      n = next();
    } catch (error) {
      return fail(error);
    }
    return request(encode({ op: "search", seq: n, query, limit }), n);
  };
  const describe = function describe(id: unknown) {
    if (stopped !== undefined) return fail(stopError());
    if (typeof id !== "string") {
      return fail(new TypeErrorCtor('describe(id): id must be a tool id "server/tool"'));
    }
    let n: number;
    try {
      n = next();
    } catch (error) {
      return fail(error);
    }
    return request(encode({ op: "describe", seq: n, id }), n);
  };
  let lines = 0;
  let logChars = 0;
  const log = (level: string) =>
    function (...values: unknown[]) {
      if (stopped !== undefined) throw stopError();
      if (++lines > settings.maxLogLines) throw halt("maxLogLines");
      const room = settings.maxLogChars - logChars;
      let text = "";
      for (let i = 0; i < values.length && text.length <= room; i++) {
        text += (i > 0 ? " " : "") + json.format(values[i], room + 1);
      }
      logChars += text.length;
      if (logChars > settings.maxLogChars) throw halt("maxLogChars");
      const sent = post(encode({ op: "log", level, text }));
      if (sent !== undefined) apply(then, sent, [undefined, () => {}]);
    };
  const consoleObject = O.freeze({
    log: log("log"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    debug: log("debug"),
  });

  // ---- The end of a run. ----
  const end = (message: unknown) => {
    if (ended) return;
    ended = true;
    stopped ??= { limit: "" };
    finish(typeof message === "string" ? message : encode(message));
  };
  const lineOf = (error: any): number | undefined => {
    let stack: unknown;
    try {
      stack = error?.stack;
    } catch {
      return undefined;
    }
    if (typeof stack !== "string") return undefined;
    const found = apply(exec, /script\.js:(\d+):\d+/, [stack]);
    const line = found === null ? NaN : +found[1]! - settings.lineShift;
    return line > 0 ? line : undefined;
  };
  const failed = (error: unknown) => {
    settled = true;
    if (stopped !== undefined && stopped.limit !== "") {
      end({
        op: "done",
        ok: false,
        error: { kind: "limit", limit: stopped.limit, message: "" },
        steps,
      });
      return;
    }
    let message: string;
    if (error instanceof ErrorCtor) {
      let name = "Error";
      try {
        message = StringFn((error as Error).message);
        name = StringFn((error as Error).name);
      } catch {
        message = "an error whose message cannot be read";
      }
      message = `${name}: ${message}`;
    } else {
      message = `The script threw ${json.format(error, 300)}`;
    }
    const line = lineOf(error);
    end({
      op: "done",
      ok: false,
      error: {
        kind: "exception",
        message: apply(strSlice, message, [0, 2000]),
        ...(line ? { line } : {}),
      },
      steps,
    });
  };
  const returned = (value: unknown) => {
    settled = true;
    if (stopped !== undefined && stopped.limit !== "") return failed(undefined);
    const written = json.write(value === undefined ? null : value, settings.maxOutputChars);
    if (written.ok) {
      end(`{"op":"done","ok":true,"steps":${steps},"result":${written.text}}`);
      return;
    }
    if (stopped !== undefined && stopped.limit !== "") return failed(undefined);
    if (written.why === "threw") return failed(written.error);
    if (written.why === "too_big") {
      stopped = { limit: "maxOutputChars" };
      return failed(undefined);
    }
    end({
      op: "done",
      ok: false,
      error: { kind: "not_json", message: `The script's value is not JSON: ${written.message}` },
      steps,
    });
  };

  lock(G, bulk, []);
  const fixed = (key: string, value: unknown) =>
    O.defineProperty(G, key, { value, writable: false, enumerable: false, configurable: false });
  fixed("call", call);
  fixed("search", search);
  fixed("describe", describe);
  fixed("console", consoleObject);

  return {
    receive,
    start(factory) {
      let main: Promise<unknown>;
      try {
        main = factory(step)();
      } catch (error) {
        failed(error);
        return;
      }
      apply(then, main, [returned, failed]);
      schedule(idle);
    },
  };
}
