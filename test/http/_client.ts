/**
 * A tiny JSON client for the HTTP API, used in-process (`app.request`) and against real servers
 * (`fetch` to a URL).
 *
 * @module
 */

/** Sends one request. */
export type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** A response with its parsed JSON body. */
export interface JsonResponse {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/**
 * Makes a client.
 *
 * @param send How to send a request.
 * @param token A bearer token to send with every request.
 * @returns Methods per HTTP verb.
 */
// deno-lint-ignore explicit-module-boundary-types
export function client(send: Send, token?: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<JsonResponse> => {
    const init: RequestInit = {
      method,
      headers: {
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        ...headers,
      },
    };
    if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
    const response = await send(path, init);
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: text === "" ? undefined : JSON.parse(text),
    };
  };
  return {
    post: (path: string, body: unknown, headers?: Record<string, string>) =>
      call("POST", path, body, headers),
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    delete: (path: string, headers?: Record<string, string>) =>
      call("DELETE", path, undefined, headers),
    call,
  };
}
