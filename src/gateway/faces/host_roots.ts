/**
 * How a face learns its host's roots (MCP roots), on the SDK's `Server`: after `initialized`, a
 * host that declared `roots` is asked `roots/list`, and asked again on each
 * `notifications/roots/list_changed` (one ask at a time; changes meanwhile cause one more, not one
 * each), each ask bounded by {@linkcode ROOTS_ASK_MS}. What it answers goes to its session of the
 * roots hub (`../roots/hub.ts`), which judges it. Only a 2025-era connection can be asked: the
 * 2026-07-28 revision has no request from server to client outside a call, so its hosts count as
 * declaring no roots.
 *
 * @module
 */

import type { Server, StandardSchemaV1 } from "@modelcontextprotocol/server";
import { type HostRoots, ROOTS_ASK_MS, type RootsScope } from "../roots/hub.ts";
import { deadline } from "../../utils/deadline.ts";

/** When a face asks its host for roots. */
export type RootsAsk =
  /** After `notifications/initialized` (stdio: the connection can carry the request at once). */
  | "after-initialized"
  /**
   * When the face says so (`ask`): over HTTP, once the session's GET stream is open, the only
   * way a request outside a call reaches the host.
   */
  | "when-asked"
  /** Never: the connection cannot carry the request (an instance per request). */
  | "never";

/** What a face holds of its host's roots. */
export interface HostRootsFollower {
  /** The host said `initialized`: its capabilities are known. */
  initialized(): void;
  /** Asks the host now, when it declared roots (`"when-asked"`). */
  ask(): void;
  /** The connection ended. */
  close(): void;
}

/**
 * Follows the roots of the host a server instance serves.
 *
 * @param server The instance, before it is connected.
 * @param scope Where its session opens.
 * @param label Names the connection in log lines.
 * @param when When it asks.
 * @returns What the instance calls at `initialized` and at its end.
 *
 * @example Usage
 * ```ts ignore
 * const follower = followHostRoots(server, scope, () => "the stdio host", "after-initialized");
 * server.oninitialized = () => follower.initialized();
 * server.onclose = () => follower.close();
 * ```
 */
export function followHostRoots(
  server: Server,
  scope: RootsScope,
  label: () => string,
  when: RootsAsk,
): HostRootsFollower {
  // Opened at initialized: a connection that never gets that far (a refused initialize, a probe)
  // leaves nothing in the hub.
  let roots: HostRoots | undefined;
  let declared = false;
  // The face asked before the host's capabilities were known: it is asked once they are.
  let wanted = false;
  let asking = false;
  let asked = false;
  // Stops the wait for a first ask (`"when-asked"`).
  let forget = () => {};
  let again = false;
  let closed = false;
  const ask = () => {
    if (!declared) return void (wanted = true);
    if (closed) return;
    asked = true;
    forget();
    if (asking) return void (again = true);
    asking = true;
    void (async () => {
      do {
        again = false;
        try {
          // Taken as sent, and judged by the hub: it says what is wrong with an answer it refuses.
          const result = await server.request({ method: "roots/list" }, AS_SENT, {
            timeout: ROOTS_ASK_MS,
          });
          if (!closed) roots?.answered(result);
        } catch (error) {
          if (!closed) roots?.failed(error instanceof Error ? error.message : String(error));
        }
      } while (again && !closed);
      asking = false;
    })();
  };
  server.setNotificationHandler("notifications/roots/list_changed", () => ask());
  return {
    initialized() {
      if (roots !== undefined || closed) return;
      roots = scope.open(label);
      const legacy = (server.getNegotiatedProtocolVersion() ?? "") < "2026-07-28";
      if (when === "never" || !legacy || server.getClientCapabilities()?.roots === undefined) {
        return roots.undeclared();
      }
      declared = true;
      roots.declared();
      if (when === "after-initialized" || wanted) return ask();
      // A host that never opens the way to ask it is one that does not answer.
      const stop = deadline(ROOTS_ASK_MS, undefined, scope.schedule)!;
      const unasked = () => {
        if (!asked && !closed) roots?.failed("it opened no stream for the gateway's requests");
      };
      stop.addEventListener("abort", unasked, { once: true });
      forget = () => stop.removeEventListener("abort", unasked);
    },
    ask,
    close() {
      if (closed) return;
      closed = true;
      forget();
      roots?.close();
    },
  };
}

// The answer as the host sent it.
const AS_SENT: StandardSchemaV1<unknown> = {
  "~standard": { version: 1, vendor: "unfold", validate: (value) => ({ value }) },
};

/**
 * How log lines name a host connection: by its session, once known.
 *
 * @param session The session, or a way to read it once it is known.
 * @returns The label, read when a line is written.
 */
export function rootsLabel(session: string | (() => string | undefined) | undefined): () => string {
  return () => {
    const id = typeof session === "function" ? session() : session;
    return id === undefined ? "a host connection" : `the host session ${id}`;
  };
}
