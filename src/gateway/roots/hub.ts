/**
 * The hosts' roots on their way to the upstreams (MCP roots). Each host connection that declares
 * `roots` is a session of the hub, in the scope of what it can see (the stdio gateway's one host;
 * over HTTP, the whole gateway's `/mcp` or one profile's `/mcp/NAME`). An upstream is one
 * connection shared by every scope that sees it, so it is given the roots that every session
 * seeing it allows (`sharedRoots`: the intersection, least access) and told
 * `notifications/roots/list_changed` when that changes. What a host answers is judged
 * (`check.ts`): an answer refused, a host that does not answer within {@linkcode ROOTS_ASK_MS},
 * or one still to answer when an upstream has waited {@linkcode ROOTS_WAIT_MS}, counts as no
 * roots (fails closed). A session that declares no roots does not narrow the others. With no
 * session declaring roots, an upstream is given an empty list (server-filesystem then keeps the
 * directories of its command line, as it does without the gateway's roots).
 *
 * The doors: an upstream's `roots/list` ({@linkcode RootsHub.upstream}, wired in as
 * `ConnectOptions.roots` by the command); a host's answers and changes (a scope's sessions, fed
 * by `faces/host_roots.ts` from the stdio and HTTP faces).
 *
 * @module
 */

import type { Root, UpstreamRoots } from "../../mcp/types.ts";
import { deadline, type Scheduler, within } from "../../utils/deadline.ts";
import { type CheckedRoot, checkRoots, sharedRoots } from "./check.ts";

/** How long a host gets to answer `roots/list`, in milliseconds. */
export const ROOTS_ASK_MS = 10_000;
/**
 * How long an upstream's `roots/list` waits for a host still to answer (or, for the stdio
 * gateway, still to say at `initialize` whether it has roots), in milliseconds.
 */
export const ROOTS_WAIT_MS = 10_000;

/** Options of {@linkcode RootsHub}. */
export interface RootsHubOptions {
  /**
   * Whether a host is expected (the stdio gateway): until one has said whether it has roots, an
   * upstream's `roots/list` waits for it (within `waitMs`).
   * @default {false}
   */
  awaitHost?: boolean;
  /**
   * How long an upstream's `roots/list` waits for the hosts, in milliseconds.
   * @default {ROOTS_WAIT_MS}
   */
  waitMs?: number;
  /** Receives one line per session whose answer is refused (the first), or that fails to answer. */
  log?: (line: string) => void;
  /** What times the waits, the faces' too (a test's clock). @default {the platform's timer} */
  schedule?: Scheduler;
}

/** One host connection's roots, as its face reports them. */
export interface HostRoots {
  /** The host declared `roots`: its answer is awaited. */
  declared(): void;
  /** The host declared no roots (or its connection's era has none). */
  undeclared(): void;
  /** The host's `roots/list` result, as it sent it: judged here. */
  answered(result: unknown): void;
  /** Asking the host failed (no answer, an error): no roots from it. */
  failed(why: string): void;
  /** The connection ended. */
  close(): void;
}

/** Where host connections that see the same servers open their sessions. */
export interface RootsScope {
  /**
   * Opens the session of one host connection.
   *
   * @param label Names the connection in log lines (read when a line is written).
   */
  open(label: () => string): HostRoots;
  /** What times the faces' waits for their hosts (the hub's clock). */
  readonly schedule?: Scheduler;
}

type State =
  | { kind: "opened" }
  | { kind: "undeclared" }
  | { kind: "pending" }
  | { kind: "settled"; roots: CheckedRoot[] };

interface Session {
  label: () => string;
  sees: (server: string) => boolean;
  state: State;
  logged: boolean;
}

/**
 * The hub: scopes for the faces, roots for the upstreams.
 *
 * @example Usage
 * ```ts
 * import { RootsHub } from "./hub.ts";
 * import { deepEqual, equal } from "node:assert/strict";
 *
 * const hub = new RootsHub();
 * const upstream = hub.upstream("fs");
 * let told = 0;
 * upstream.onChanged(() => told++);
 * const host = hub.scope(() => true).open(() => "stdio");
 * host.declared();
 * host.answered({ roots: [{ uri: "file:///work" }] });
 * deepEqual(await upstream.list(), [{ uri: "file:///work" }]);
 * equal(told, 1);
 * ```
 */
export class RootsHub {
  readonly #sessions = new Set<Session>();
  readonly #listeners = new Map<string, Set<() => void>>();
  // What each upstream was last given or told of (JSON): a change is told once.
  readonly #told = new Map<string, string>();
  // The wait of each upstream whose roots/list is waiting.
  readonly #waits = new Map<string, Promise<void>>();
  // Each upstream's roots as computed since the last change.
  readonly #computed = new Map<string, Root[]>();
  readonly #waitMs: number;
  readonly #log: (line: string) => void;
  readonly #schedule: Scheduler | undefined;
  #hostHeard: boolean;
  #changed = Promise.withResolvers<void>();

  /**
   * Makes a hub with no host connection yet.
   *
   * @param options Whether a host is expected, the wait, the log and the clock.
   */
  constructor(options: RootsHubOptions = {}) {
    this.#waitMs = options.waitMs ?? ROOTS_WAIT_MS;
    this.#log = options.log ?? (() => {});
    this.#schedule = options.schedule;
    this.#hostHeard = options.awaitHost !== true;
  }

  /** How many host connections are open in the hub (each once initialized, until it ends). */
  get connections(): number {
    return this.#sessions.size;
  }

  /**
   * A scope: the host connections that see the servers `sees` accepts.
   *
   * @param sees Whether the scope's hosts see a server.
   * @returns The scope.
   */
  scope(sees: (server: string) => boolean): RootsScope {
    return {
      open: (label) => this.#open(label, sees),
      ...(this.#schedule === undefined ? {} : { schedule: this.#schedule }),
    };
  }

  /**
   * The roots one upstream is given: for its connection's `ConnectOptions.roots`.
   *
   * @param server The upstream's name.
   * @returns Its roots and their changes.
   */
  upstream(server: string): UpstreamRoots {
    return {
      list: async () => {
        if (this.#waiting(server)) {
          // One wait per upstream, however many requests it sends meanwhile.
          let wait = this.#waits.get(server);
          if (wait === undefined) {
            this.#waits.set(server, wait = this.#wait(server));
          }
          await wait;
        }
        const roots = this.rootsFor(server);
        this.#told.set(server, JSON.stringify(roots));
        return roots;
      },
      onChanged: (listener) => {
        let own = this.#listeners.get(server);
        if (own === undefined) this.#listeners.set(server, own = new Set());
        const once = () => listener();
        own.add(once);
        return () => void own.delete(once);
      },
    };
  }

  /**
   * The roots an upstream is given now: those every session that sees it and declared roots
   * allows (a session still to answer allows none); none when no such session is open.
   *
   * @param server The upstream's name.
   * @returns The roots.
   */
  rootsFor(server: string): Root[] {
    // Copies: what a caller does with them is not the hub's.
    return this.#roots(server).map((root) => ({ ...root }));
  }

  #roots(server: string): Root[] {
    const known = this.#computed.get(server);
    if (known !== undefined) return known;
    const hosts: CheckedRoot[][] = [];
    for (const session of this.#sessions) {
      if (!session.sees(server)) continue;
      const { state } = session;
      if (state.kind === "pending") hosts.push([]);
      else if (state.kind === "settled") hosts.push(state.roots);
    }
    const roots = sharedRoots(hosts);
    this.#computed.set(server, roots);
    return roots;
  }

  // Waits while the upstream's roots are still to come, within the bound. While it waits, a
  // change is its answer, not a notification.
  async #wait(server: string): Promise<void> {
    const stop = deadline(this.#waitMs, undefined, this.#schedule)!;
    try {
      while (this.#waiting(server) && !stop.aborted) {
        await within(this.#changed.promise, null, stop);
      }
    } finally {
      this.#waits.delete(server);
    }
  }

  #waiting(server: string): boolean {
    if (!this.#hostHeard) return true;
    for (const session of this.#sessions) {
      if (session.state.kind === "pending" && session.sees(server)) return true;
    }
    return false;
  }

  #open(label: () => string, sees: (server: string) => boolean): HostRoots {
    const session: Session = { label, sees, state: { kind: "opened" }, logged: false };
    this.#sessions.add(session);
    const set = (state: State) => {
      if (!this.#sessions.has(session)) return;
      session.state = state;
      if (state.kind !== "opened" && state.kind !== "pending") this.#hostHeard = true;
      this.#update();
    };
    const refuse = (why: string) => {
      if (!session.logged) {
        session.logged = true;
        this.#log(
          `roots of ${label()}: ${why}; the servers it sees are given no roots of it until it answers again`,
        );
      }
      set({ kind: "settled", roots: [] });
    };
    return {
      declared: () => {
        if (session.state.kind === "opened") set({ kind: "pending" });
      },
      undeclared: () => {
        if (session.state.kind === "opened") set({ kind: "undeclared" });
      },
      answered: (result) => {
        if (session.state.kind === "opened" || session.state.kind === "undeclared") return;
        const checked = checkRoots(result);
        if (!checked.ok) {
          return refuse(`its roots/list answer is refused: ${checked.error.message}`);
        }
        set({ kind: "settled", roots: checked.value });
      },
      failed: (why) => {
        if (session.state.kind === "opened" || session.state.kind === "undeclared") return;
        refuse(`cannot read its roots: ${JSON.stringify(why.slice(0, 200))}`);
      },
      close: () => {
        if (!this.#sessions.delete(session)) return;
        this.#update();
      },
    };
  }

  // Wakes the waiting upstreams, and tells each upstream whose roots changed.
  #update(): void {
    this.#computed.clear();
    const changed = this.#changed;
    this.#changed = Promise.withResolvers<void>();
    changed.resolve();
    for (const [server, listeners] of this.#listeners) {
      // One that is waiting gets the change as its answer. (A session still to answer counts as
      // no roots, so one that never answers holds back no other's change.)
      if (listeners.size === 0 || this.#waits.has(server)) continue;
      const now = JSON.stringify(this.#roots(server));
      if (now === (this.#told.get(server) ?? "[]")) continue;
      this.#told.set(server, now);
      for (const listener of [...listeners]) listener();
    }
  }
}
