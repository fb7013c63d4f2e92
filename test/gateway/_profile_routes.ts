/**
 * What a profile's client can learn over HTTP, route by route: every route of the gateway's HTTP
 * face asked with the profile's own token (the MCP exchange on its `/mcp/NAME` included), each
 * body kept for the test to search for what the profile must not name. Shared by the Deno
 * command's and the Worker's tests.
 *
 * @module
 */

import { equal, ok } from "node:assert/strict";
import { STATUS_PATHS } from "../../src/gateway/faces/status.ts";
import { PAGE_FILES, PAGE_FOLDER } from "../../src/http/page.ts";
import { httpClient } from "./_gateway.ts";

/**
 * Every route of the gateway's HTTP face: the MCP endpoints, the page's reads, the page, and any
 * other path (`/OTHER`).
 */
export const GATEWAY_ROUTES: readonly string[] = [
  "/mcp",
  "/mcp/NAME",
  ...STATUS_PATHS,
  ...Object.keys(PAGE_FILES),
  "/OTHER",
];

/** What the client asks about: searches, and tool ids it tries (hidden ones among them). */
export interface Probes {
  /** Search queries (the bridge's and `/explain`'s). */
  queries: readonly string[];
  /** Tool ids to describe, execute and explain, and each with a typo. */
  ids: readonly string[];
}

/** One answer: the request, its status, its body, and what the client sent in it. */
export type Answer = [request: string, status: number, body: string, said: string[]];

/**
 * A body without what the client itself sent (the whole strings and their words, where they stand
 * alone): what is left is what the gateway chose to say. A near miss the client sent does not hide
 * a longer name the gateway suggests ("x/ech" leaves "x/echo" whole).
 *
 * @param body The body.
 * @param said What the client sent.
 * @returns The body, the client's own words replaced by `SAID`.
 */
export function withoutSaid(body: string, said: readonly string[]): string {
  const pieces = said.flatMap((text) => [text, ...text.split(/[^\w-]+/)]).filter((w) => w !== "")
    .sort((a, b) => b.length - a.length);
  let left = body;
  for (const piece of pieces) {
    const escaped = piece.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    left = left.replace(new RegExp(`(?<![\\w/-])${escaped}(?![\\w/-])`, "g"), "SAID");
  }
  return left;
}

/** A JSON-RPC ping as an MCP client POSTs it. */
export function postPing(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
}

/**
 * Asks every route of {@linkcode GATEWAY_ROUTES} with a profile's token, and collects the bodies.
 *
 * @param origin The gateway's origin (`http://127.0.0.1:PORT`).
 * @param profile The profile's name.
 * @param token Its token.
 * @param other Another profile's name (its endpoint asked with this token).
 * @param probes What to search for and which ids to try.
 * @returns Each request (`METHOD path`) with its status, its body and the words the client itself
 * sent in it (a body may quote them back), and the routes asked.
 */
export async function profileBodies(
  origin: string,
  profile: string,
  token: string,
  other: string,
  probes: Probes,
): Promise<{ bodies: Answer[]; asked: Set<string> }> {
  const authorization = `Bearer ${token}`;
  const bodies: Answer[] = [];
  const asked = new Set<string>();
  const get = async (path: string, route = new URL(path, origin).pathname) => {
    asked.add(route);
    const response = await fetch(`${origin}${path}`, { headers: { authorization } });
    const said = [...new URL(path, origin).searchParams.values()];
    bodies.push([`GET ${path}`, response.status, await response.text(), said]);
  };
  const ping = async (path: string, route: string) => {
    asked.add(route);
    const response = await postPing(`${origin}${path}`, { authorization });
    bodies.push([`POST ${path}`, response.status, await response.text(), [path]]);
  };
  await ping("/mcp", "/mcp");
  for (const name of [other, "no-such-profile"]) await ping(`/mcp/${name}`, "/mcp/NAME");
  await get("/status");
  for (const context of [1_000, 8_000, 1_000_000]) await get(`/view?context=${context}`);
  for (const query of probes.queries) {
    await get(`/explain?query=${encodeURIComponent(query)}`);
    for (const id of probes.ids) {
      for (const tried of [id, id.slice(0, -1)]) {
        await get(`/explain?query=${encodeURIComponent(query)}&id=${encodeURIComponent(tried)}`);
      }
    }
  }
  for (const path of Object.keys(PAGE_FILES)) await get(path);
  await get("/no-such-route", "/OTHER");
  // The MCP exchange of the profile's own endpoint: what its model is told and answered.
  asked.add("/mcp/NAME");
  const client = await httpClient(`${origin}/mcp/${profile}`, { authorization });
  try {
    const keep = (what: string, value: unknown, said: string[] = []) =>
      bodies.push([`MCP ${what}`, 200, JSON.stringify(value), said]);
    keep("instructions", client.getInstructions());
    keep("tools/list", await client.listTools());
    const bridge = (args: Record<string, unknown>) =>
      client.callTool({ name: "mcp", arguments: args });
    for (const query of probes.queries) {
      keep(`search ${query}`, await bridge({ action: "search", query }), [query]);
    }
    for (const id of probes.ids) {
      for (const tried of [id, id.slice(0, -1), id.slice(id.indexOf("/") + 1)]) {
        for (const action of ["describe", "execute"]) {
          const answer = await bridge({ action, name: tried, arguments: {} });
          keep(`${action} ${tried}`, answer, [tried]);
        }
      }
      // A pinned tool's name for a hidden tool: an error of the protocol, not of the bridge.
      const pinned = id.replace("/", "__");
      keep(
        `call ${pinned}`,
        await client.callTool({ name: pinned, arguments: {} }).catch((e) => String(e)),
        [pinned],
      );
    }
  } finally {
    await client.close();
  }
  return { bodies, asked };
}

/**
 * Asserts that no answer names what is hidden, beyond the words the client sent in it. The page's
 * own files are the same for every config (its sample catalogue is no gateway's): each is checked
 * to be the file as it is on disk instead.
 *
 * @param bodies The answers of {@linkcode profileBodies}.
 * @param hidden What the profile's client must never be told.
 */
export async function assertNothingHidden(
  bodies: readonly Answer[],
  hidden: RegExp,
): Promise<void> {
  for (const [request, code, body, said] of bodies) {
    const page = PAGE_FILES[request.replace(/^GET /, "")];
    if (page !== undefined && code === 200) {
      equal(body, await Deno.readTextFile(new URL(page.file, PAGE_FOLDER)), request);
      continue;
    }
    const told = withoutSaid(body, said);
    ok(!hidden.test(told), `${request} (${code}) names ${hidden.exec(told)?.[0]}: ${told}`);
  }
}
