/**
 * A `Deno.serve` handler whose requests carry a signal of their own, aborted once Deno has
 * finished with the response (sent, or lost because the client went away), so that the MCP SDK
 * can watch for a departed client without Deno printing its legacy-abort notice on stderr.
 *
 * @module
 */

/** What `Deno.serve` passes beside the request, as far as this module reads it. */
export interface DeliveryInfo {
  /**
   * Settles when the response has been sent (resolves) or could not be (rejects). Absent on a
   * Deno too old to have it, which prints no notice either.
   */
  readonly completed?: Promise<void>;
}

/**
 * Wraps a handler so that it never reads Deno's own `request.signal`. Deno prints a notice the
 * first time a request whose signal was read completes under its legacy abort rules, and the SDK
 * reads it for every `/mcp` request; the handler gets an equal request (method, URL, headers,
 * body) whose signal aborts when the response is done with, as the legacy signal did.
 *
 * @param handler The handler to serve.
 * @returns A handler for `Deno.serve`.
 *
 * @example Usage
 * ```ts
 * import { withDeliverySignal } from "./delivery_signal.ts";
 * import { equal } from "node:assert/strict";
 *
 * const delivery = Promise.withResolvers<void>();
 * const seen: Request[] = [];
 * const handler = withDeliverySignal((request) => {
 *   seen.push(request);
 *   return new Response("ok");
 * });
 * await handler(new Request("http://localhost/mcp", { method: "POST", body: "{}" }), {
 *   completed: delivery.promise,
 * });
 * equal(await seen[0]!.text(), "{}");
 * equal(seen[0]!.signal.aborted, false);
 * delivery.resolve(); // Deno has sent the response
 * await delivery.promise;
 * equal(seen[0]!.signal.aborted, true);
 * ```
 */
export function withDeliverySignal(
  handler: (request: Request) => Response | Promise<Response>,
): (request: Request, info: DeliveryInfo) => Response | Promise<Response> {
  return (request, info) => {
    if (info.completed === undefined) return handler(request);
    const done = new AbortController();
    const end = () => done.abort(new DOMException("The response has ended", "AbortError"));
    info.completed.then(end, end);
    // A new Request built from the parts: copying the Request itself would read its signal.
    const body = request.body;
    return handler(
      new Request(request.url, {
        method: request.method,
        headers: request.headers,
        signal: done.signal,
        ...(body === null ? {} : { body, duplex: "half" } as RequestInit),
      }),
    );
  };
}

/**
 * `Deno.serve` with {@linkcode withDeliverySignal} around the handler.
 *
 * @param options Where to listen, as for `Deno.serve`.
 * @param handler The handler to serve.
 * @returns The server.
 *
 * @example Usage
 * ```ts
 * import { serveWithDeliverySignal } from "./delivery_signal.ts";
 * import { equal } from "node:assert/strict";
 *
 * const server = serveWithDeliverySignal(
 *   { hostname: "127.0.0.1", port: 0, onListen: () => {} },
 *   (request) => new Response(String(request.signal.aborted)),
 * );
 * const response = await fetch(`http://127.0.0.1:${server.addr.port}/`);
 * equal(await response.text(), "false");
 * await server.shutdown();
 * ```
 */
export function serveWithDeliverySignal(
  options: Deno.ServeTcpOptions,
  handler: (request: Request) => Response | Promise<Response>,
): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve(options, withDeliverySignal(handler));
}
