/**
 * A profile is a boundary over HTTP: its own token opens its `/mcp/NAME` and nothing else, the
 * page's reads answer it for that profile alone, no route tells it anything of a server outside
 * the profile, and before the token is checked a profile that exists and one that does not are
 * answered alike. Real npm servers: server-everything is the hidden one.
 */

import { deepEqual, equal, ok } from "node:assert/strict";
import { httpClient, startHttpGateway, writeConfig } from "../_gateway.ts";
import {
  assertNothingHidden,
  GATEWAY_ROUTES,
  postPing,
  profileBodies,
} from "../_profile_routes.ts";

const WIDE = "wide-token";
const CODING = "coding-token";
const OTHER = "other-token";

// "coding" and "other", with their own tokens or (as before profiles had any) without.
async function gatewayWithProfiles(ownTokens = true) {
  const tokens = (...list: string[]) => ownTokens ? { tokens: list } : {};
  const { path } = await writeConfig({
    unfold: {
      profiles: {
        coding: { servers: ["filesystem", "memory"], ...tokens("${CODING_TOKEN}") },
        other: { servers: ["everything"], ...tokens(OTHER) },
      },
    },
  });
  return await startHttpGateway(path, { UNFOLD_API_TOKEN: WIDE, CODING_TOKEN: CODING });
}

// The status and body of a request, for comparing two answers.
async function answer(response: Promise<Response>): Promise<[number, string]> {
  const r = await response;
  return [r.status, await r.text()];
}

Deno.test("over HTTP a profile's token opens its profile only, and learns nothing of a hidden server on any route", async () => {
  await using gateway = await gatewayWithProfiles();
  const origin = new URL(gateway.url).origin;
  const wide = { authorization: `Bearer ${WIDE}` };
  // What is hidden from "coding": everything's name and its tools, as the whole gateway lists them.
  const whole = await (await fetch(`${origin}/view?context=1000000`, { headers: wide })).json();
  const hiddenTools = [
    ...new Set([...JSON.stringify(whole).matchAll(/everything\/([\w-]+)/g)].map((m) => m[1]!)),
  ];
  ok(hiddenTools.length >= 10, hiddenTools.join(", "));
  const status = await (await fetch(`${origin}/status`, { headers: wide })).json();
  deepEqual(status.servers.map((s: { server: string }) => s.server).sort(), [
    "everything",
    "filesystem",
    "memory",
  ]);

  const { bodies, asked } = await profileBodies(origin, "coding", CODING, "other", {
    queries: ["echo a message", "add two numbers", "environment variables", "everything"],
    ids: ["everything/echo", "everything/get-sum", "memory/read_graph"],
  });
  deepEqual([...asked].sort(), [...GATEWAY_ROUTES].sort());
  const hidden = new RegExp(`everything|(?<![\\w-])(${hiddenTools.join("|")})(?![\\w-])`, "i");
  await assertNothingHidden(bodies, hidden);
  const statusOf = (request: string) => bodies.find(([r]) => r === request)?.[1];
  // Its token opens its own profile only; the whole gateway and the other profile refuse it.
  deepEqual([statusOf("POST /mcp"), statusOf("POST /mcp/other")], [401, 401]);
  // Another profile's name and a name that is no profile: the same refusal.
  const refusal = (request: string) => bodies.find(([r]) => r === request)?.slice(1, 3);
  deepEqual(refusal("POST /mcp/other"), refusal("POST /mcp/no-such-profile"));
  const own = JSON.parse(bodies.find(([r]) => r === "GET /status")![2]);
  deepEqual(own.servers.map((s: { server: string }) => s.server).sort(), ["filesystem", "memory"]);
  equal(own.counters, undefined);
  const search = bodies.find(([r]) => r === "MCP search echo a message")![2];
  ok(/memory\/|filesystem\//.test(search), search);
});

Deno.test("over HTTP a profile that exists and one that does not are answered alike until the token is checked", async () => {
  await using gateway = await gatewayWithProfiles(false);
  const origin = new URL(gateway.url).origin;
  for (
    const headers of [
      {},
      { authorization: "Bearer wrong" },
      { origin: "http://evil.example.com" },
    ] as Record<string, string>[]
  ) {
    const known = await answer(postPing(`${origin}/mcp/coding`, headers));
    const unknown = await answer(postPing(`${origin}/mcp/codinh`, headers));
    deepEqual(known, unknown, JSON.stringify(headers));
    ok(known[0] === 401 || known[0] === 403, String(known[0]));
    const getKnown = await answer(fetch(`${origin}/mcp/coding`, { headers }));
    deepEqual(getKnown, await answer(fetch(`${origin}/mcp/codinh`, { headers })));
  }
  // With the gateway-wide token the name is looked up: unknown is 404, known is served.
  const wide = { authorization: `Bearer ${WIDE}` };
  equal((await postPing(`${origin}/mcp/codinh`, wide)).status, 404);
  const client = await httpClient(`${origin}/mcp/coding`, wide);
  try {
    const found = await client.callTool({
      name: "mcp",
      arguments: { action: "search", query: "read graph" },
    });
    ok(JSON.stringify(found.content).includes("memory/read_graph"));
  } finally {
    await client.close();
  }
  // The whole gateway's own token sees every server on its /status.
  const all = await (await fetch(`${origin}/status`, { headers: wide })).json();
  equal(all.servers.length, 3);
});

Deno.test("a token two profiles share is refused at start, naming the profiles and not the token", async () => {
  const { path } = await writeConfig({
    unfold: {
      profiles: {
        a: { servers: ["memory"], tokens: ["same-secret"] },
        b: { servers: ["filesystem"], tokens: ["same-secret"] },
      },
    },
  });
  const started = startHttpGateway(path);
  const error = await started.then(() => undefined, (e: Error) => e.message);
  ok(error !== undefined && /"b" has a token that the profile "a" has/.test(error), error);
  ok(!error.includes("same-secret"), error);
});

Deno.test("gateway --profile over HTTP: the profile is all that is served, and its token opens it", async () => {
  const { path } = await writeConfig({
    unfold: { profiles: { coding: { servers: ["memory"], tokens: [CODING] } } },
  });
  await using gateway = await startHttpGateway(path, { UNFOLD_API_TOKEN: WIDE }, [
    "--profile",
    "coding",
  ]);
  const origin = new URL(gateway.url).origin;
  equal((await postPing(gateway.url)).status, 401);
  for (const token of [CODING, WIDE]) {
    const headers = { authorization: `Bearer ${token}` };
    const status = await (await fetch(`${origin}/status`, { headers })).json();
    deepEqual(status.servers.map((s: { server: string }) => s.server), ["memory"]);
    // The gateway is the profile: its status says which.
    equal(status.profile, "coding");
    const client = await httpClient(gateway.url, headers);
    try {
      ok(!/everything|filesystem/i.test(client.getInstructions() ?? ""));
    } finally {
      await client.close();
    }
  }
});
