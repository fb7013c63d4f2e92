import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { parsedConfig } from "../gateway/_config.ts";
import { NeedsLoginError, withOAuth } from "../../src/mcp/oauth/fetch.ts";
import { fileOAuthStore, oauthRecordPath } from "../../src/mcp/oauth/file_store.ts";
import { StoredOAuthProvider } from "../../src/mcp/oauth/provider.ts";
import { memoryOAuthStore, type OAuthRecord } from "../../src/mcp/oauth/store.ts";

// A fake authorization server and resource, reached through `fetch` only: for what a real one
// will not do on demand (an expired token at a chosen time, a count of token requests).
const BASE = "http://127.0.0.1:1";
const URL_ = `${BASE}/mcp`;

// `refusalsFirst`: the token endpoint answers only once that many requests have been refused
// (the requests refused together are all refused before any refresh ends).
function fakeServer(live: Set<string>, refusalsFirst = 0) {
  const seen: { url: string; authorization: string | null }[] = [];
  let refreshes = 0;
  let refusals = 0;
  const refused = Promise.withResolvers<void>();
  if (refusalsFirst === 0) refused.resolve();
  const fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const authorization = new Headers(init?.headers).get("authorization");
    seen.push({ url: String(url), authorization });
    if (url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return Response.json({ resource: URL_, authorization_servers: [BASE] });
    }
    if (url.pathname === "/.well-known/oauth-authorization-server") {
      return Response.json({
        issuer: BASE,
        authorization_endpoint: `${BASE}/authorize`,
        token_endpoint: `${BASE}/token`,
        response_types_supported: ["code"],
        code_challenge_methods_supported: ["S256"],
      });
    }
    if (url.pathname === "/token") {
      refreshes++;
      await refused.promise;
      live.add(`fresh-${refreshes}`);
      return Response.json({
        access_token: `fresh-${refreshes}`,
        token_type: "Bearer",
        expires_in: 60,
      });
    }
    if (url.pathname === "/mcp" && live.has(authorization?.replace("Bearer ", "") ?? "")) {
      return new Response("ok");
    }
    if (url.pathname === "/mcp" && ++refusals === refusalsFirst) refused.resolve();
    return new Response(null, {
      status: 401,
      headers: {
        "www-authenticate":
          `Bearer resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`,
      },
    });
  };
  return { fetch, seen, refreshes: () => refreshes };
}

const signedIn = (expiresAt: number): OAuthRecord => ({
  server: "s",
  url: URL_,
  tokens: { access_token: "old", token_type: "Bearer", refresh_token: "keep-me", issuer: BASE },
  expiresAt,
  client: { client_id: "unfold-client", issuer: BASE },
});

function provider(record?: OAuthRecord, now = () => 0) {
  const store = memoryOAuthStore(record);
  return {
    store,
    provider: new StoredOAuthProvider({
      server: "s",
      url: URL_,
      store,
      redirectUrl: "http://127.0.0.1/callback",
      now,
    }),
  };
}

Deno.test("the token goes to its own server's endpoint only, never to another URL", async () => {
  const server = fakeServer(new Set(["old"]));
  const { provider: p } = provider(signedIn(Infinity));
  const fetch = withOAuth({ server: "s", url: URL_, provider: p, fetch: server.fetch });
  await fetch(URL_, { method: "POST" });
  await fetch(`${BASE}/other`, { method: "POST" });
  await fetch("https://elsewhere.example/mcp", { headers: { "x-kept": "1" } });
  deepEqual(server.seen.map((s) => s.authorization), ["Bearer old", null, null]);
});

Deno.test("an expired token is refreshed before it is sent, by the clock, keeping the refresh token", async () => {
  const server = fakeServer(new Set(["old"]));
  let now = 1_000;
  const { provider: p, store } = provider(signedIn(5_000), () => now);
  const fetch = withOAuth({
    server: "s",
    url: URL_,
    provider: p,
    fetch: server.fetch,
    now: () => now,
  });
  equal((await fetch(URL_, { method: "POST" })).status, 200);
  equal(server.refreshes(), 0);
  now = 5_000;
  equal((await fetch(URL_, { method: "POST" })).status, 200);
  equal(server.refreshes(), 1);
  equal(server.seen.at(-1)?.authorization, "Bearer fresh-1");
  const record = await store.read();
  equal(record?.tokens?.access_token, "fresh-1");
  equal(record?.tokens?.refresh_token, "keep-me");
  equal(record?.expiresAt, 5_000 + 60_000);
});

Deno.test("requests refused together share one refresh", async () => {
  const server = fakeServer(new Set(), 3);
  const { provider: p } = provider(signedIn(Infinity));
  const fetch = withOAuth({ server: "s", url: URL_, provider: p, fetch: server.fetch });
  const answers = await Promise.all([1, 2, 3].map(() => fetch(URL_, { method: "POST" })));
  deepEqual(answers.map((a) => a.status), [200, 200, 200]);
  equal(server.refreshes(), 1);
});

Deno.test("two processes sharing a sign-in: one's refresh does not sign the other out when the refresh token rotates", async () => {
  // The authorization server rotates refresh tokens: each one works once.
  const live = new Set(["old"]);
  let valid = "keep-me";
  let refreshes = 0;
  const server = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    if (url.pathname !== "/token") return await fakeServer(live).fetch(input, init);
    const form = new URLSearchParams(String(init?.body));
    if (form.get("refresh_token") !== valid) {
      return Response.json({ error: "invalid_grant" }, { status: 400 });
    }
    refreshes++;
    valid = `refresh-${refreshes}`;
    live.clear();
    live.add(`access-${refreshes}`);
    return Response.json({
      access_token: `access-${refreshes}`,
      token_type: "Bearer",
      refresh_token: valid,
    });
  };
  const store = memoryOAuthStore(signedIn(Infinity));
  const open = () =>
    withOAuth({
      server: "s",
      url: URL_,
      provider: new StoredOAuthProvider({
        server: "s",
        url: URL_,
        store,
        redirectUrl: "http://127.0.0.1/callback",
      }),
      fetch: server,
    });
  const first = open();
  const second = open();
  equal((await second(URL_, { method: "POST" })).status, 200); // reads the store: "old"
  live.clear(); // "old" expires
  equal((await first(URL_, { method: "POST" })).status, 200); // refreshes: access-1, refresh-1
  equal((await second(URL_, { method: "POST" })).status, 200); // refused "old": takes access-1
  equal(refreshes, 1);
  equal((await store.read())?.tokens?.refresh_token, "refresh-1");
});

Deno.test("without a stored sign-in a challenge is needs-login at once, with no request to the authorization server", async () => {
  const server = fakeServer(new Set());
  const { provider: p } = provider();
  const fetch = withOAuth({ server: "s", url: URL_, provider: p, fetch: server.fetch });
  await rejects(fetch(URL_, { method: "POST" }), NeedsLoginError);
  equal(server.seen.length, 1);
});

Deno.test("a 401 without WWW-Authenticate starts OAuth only for an entry with an oauth block", async () => {
  const bare = () => Promise.resolve(new Response(null, { status: 401 }));
  const { provider: p } = provider();
  const plain = withOAuth({ server: "s", url: URL_, provider: p, fetch: bare });
  equal((await plain(URL_, { method: "POST" })).status, 401);
  const eager = withOAuth({ server: "s", url: URL_, provider: p, fetch: bare, eager: true });
  await rejects(eager(URL_, { method: "POST" }), NeedsLoginError);
});

Deno.test("a configured client secret is used but never written to the token store", async () => {
  const store = memoryOAuthStore();
  const p = new StoredOAuthProvider({
    server: "s",
    url: URL_,
    store,
    redirectUrl: "http://127.0.0.1/callback",
    settings: { clientId: "id", clientSecret: "hush" },
  });
  await p.saveClientInformation({ client_id: "id", client_secret: "hush", issuer: BASE });
  await p.saveTokens({ access_token: "a", token_type: "Bearer" });
  equal((await p.clientInformation())?.client_secret, "hush");
  ok(!JSON.stringify(await store.read()).includes("hush"));
});

Deno.test("the token file is ignored when it belongs to another URL, is not JSON, or is oversized", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const store = fileOAuthStore(dir, "s", URL_);
    await store.write(signedIn(1));
    equal((await store.read())?.tokens?.access_token, "old");
    equal(await fileOAuthStore(dir, "s", `${BASE}/moved`).read(), undefined);
    const path = await oauthRecordPath(dir, "s", URL_);
    await Deno.writeTextFile(path, JSON.stringify({ ...signedIn(1), url: `${BASE}/moved` }));
    equal(await store.read(), undefined);
    await Deno.writeTextFile(path, "{not json");
    equal(await store.read(), undefined);
    await Deno.writeTextFile(path, JSON.stringify({ ...signedIn(1), pad: "x".repeat(70_000) }));
    equal(await store.read(), undefined);
    await store.write(undefined);
    equal(await Deno.stat(path).then(() => true, () => false), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the config's oauth block is checked field by field, with ${VAR} in its strings", () => {
  const parse = (oauth: unknown, env: Record<string, string> = {}) =>
    parsedConfig({ mcpServers: { gh: { url: "https://example.com/mcp", oauth } } }, env);
  deepEqual(
    parse({ clientId: "id", clientSecret: "${SECRET}", scopes: ["repo", "read:org"] }, {
      SECRET: "s",
    })
      .servers[0],
    {
      server: "gh",
      url: "https://example.com/mcp",
      headers: {},
      oauth: { clientId: "id", clientSecret: "s", scopes: ["repo", "read:org"] },
    },
  );
  const cases: [unknown, string][] = [
    ["yes", '"/mcpServers/gh/oauth": must be an object'],
    [{ clientID: "x" }, '"/mcpServers/gh/oauth/clientID": unknown field'],
    [{ clientSecret: "x" }, '"/mcpServers/gh/oauth/clientSecret": needs "clientId"'],
    [{ clientId: "" }, '"/mcpServers/gh/oauth/clientId": must be a non-empty string'],
    [{ scopes: "repo" }, '"/mcpServers/gh/oauth/scopes": must be an array'],
    [{ scopes: ["a b"] }, '"/mcpServers/gh/oauth/scopes/0": must be a scope'],
    [{ clientMetadataUrl: "http://a.example/c.json" }, "must be an https: URL with a path"],
    [{ clientMetadataUrl: "https://a.example/" }, "must be an https: URL with a path"],
  ];
  for (const [oauth, message] of cases) {
    throws(() => parse(oauth), (e: Error) => e.message.includes(message), message);
  }
  throws(
    () => parsedConfig({ mcpServers: { local: { command: "x", oauth: {} } } }),
    /"\/mcpServers\/local\/oauth": unknown field for a stdio server/,
  );
});
