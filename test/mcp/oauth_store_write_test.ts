// Sign-in records are written as transactions: two servers' sign-ins written at once each keep
// their own file; a refresh in a process that read the record before `unfold login` stored a new
// sign-in (a new registration) does not write over it, nor bring back a record removed since;
// a symlinked record stays a symlink, and a record is always written 0600.
import { deepEqual, equal, ok } from "node:assert/strict";
import { fileOAuthStore, oauthRecordPath } from "../../src/mcp/oauth/file_store.ts";
import { StoredOAuthProvider } from "../../src/mcp/oauth/provider.ts";
import type { OAuthRecord } from "../../src/mcp/oauth/store.ts";

const ROUNDS = 20;
const URL_A = "https://a.example/mcp";
const URL_B = "https://b.example/mcp";

const record = (server: string, url: string, client: string, token: string): OAuthRecord => ({
  server,
  url,
  client: { client_id: client, redirect_uris: ["http://127.0.0.1:1/callback"] },
  tokens: { access_token: token, token_type: "Bearer", refresh_token: `r-${token}` },
});

const provider = (dir: string) =>
  new StoredOAuthProvider({
    server: "gh",
    url: URL_A,
    store: fileOAuthStore(dir, "gh", URL_A),
    redirectUrl: "http://127.0.0.1:1/callback",
  });

Deno.test(`two servers' sign-ins written at once each keep their own (${ROUNDS} rounds)`, async () => {
  const dir = await Deno.makeTempDir();
  const a = fileOAuthStore(dir, "a", URL_A);
  const b = fileOAuthStore(dir, "b", URL_B);
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all([
      a.write(record("a", URL_A, "ca", `a${round}`)),
      b.write(record("b", URL_B, "cb", `b${round}`)),
    ]);
    if ((await a.read())?.tokens?.access_token !== `a${round}`) lost++;
    if ((await b.read())?.tokens?.access_token !== `b${round}`) lost++;
  }
  equal(lost, 0);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a refresh does not write over a sign-in stored since its record was read", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileOAuthStore(dir, "gh", URL_A);
  await store.write(record("gh", URL_A, "c1", "t1"));
  const gateway = provider(dir);
  equal((await gateway.tokens())?.access_token, "t1");
  // `unfold login` meanwhile: a new registration and its tokens.
  await fileOAuthStore(dir, "gh", URL_A).write(record("gh", URL_A, "c2", "t2"));
  // The gateway's refresh of its old sign-in ends after it.
  await gateway.saveTokens({ access_token: "t3", token_type: "Bearer" });
  const stored = await store.read();
  equal(stored?.client?.client_id, "c2");
  equal(stored?.tokens?.access_token, "t2");
  // The gateway now uses the sign-in that is stored.
  equal((await gateway.tokens())?.access_token, "t2");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a refresh of the same sign-in is kept, with what another process wrote since", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileOAuthStore(dir, "gh", URL_A);
  await store.write(record("gh", URL_A, "c1", "t1"));
  const one = provider(dir);
  const two = provider(dir);
  equal((await one.tokens())?.access_token, "t1");
  equal((await two.tokens())?.access_token, "t1");
  await two.saveTokens({ access_token: "t2", token_type: "Bearer", refresh_token: "r2" });
  await one.saveTokens({ access_token: "t3", token_type: "Bearer", refresh_token: "r3" });
  const stored = await store.read();
  equal(stored?.client?.client_id, "c1");
  equal(stored?.tokens?.access_token, "t3");
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a refresh does not bring back a sign-in removed since it was read", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileOAuthStore(dir, "gh", URL_A);
  await store.write(record("gh", URL_A, "c1", "t1"));
  const gateway = provider(dir);
  equal((await gateway.tokens())?.access_token, "t1");
  await store.write(undefined);
  await gateway.saveTokens({ access_token: "t3", token_type: "Bearer" });
  equal(await store.read(), undefined);
  const path = await oauthRecordPath(dir, "gh", URL_A);
  equal(await Deno.stat(path).then(() => true, () => false), false);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a symlinked sign-in record stays a symlink, and is written 0600", async () => {
  const dir = await Deno.makeTempDir();
  const store = fileOAuthStore(dir, "gh", URL_A);
  await store.write(record("gh", URL_A, "c1", "t1"));
  const path = await oauthRecordPath(dir, "gh", URL_A);
  const target = `${dir}/elsewhere.json`;
  await Deno.rename(path, target);
  await Deno.symlink(target, path);
  await Deno.chmod(target, 0o644);
  await store.write(record("gh", URL_A, "c1", "t2"));
  ok((await Deno.lstat(path)).isSymlink);
  equal((await store.read())?.tokens?.access_token, "t2");
  equal((await Deno.stat(target)).mode! & 0o777, 0o600);
  const names = [...Deno.readDirSync(`${dir}/oauth`)].map((e) => e.name);
  deepEqual(names.filter((name) => name.endsWith(".tmp")), []);
  await Deno.remove(dir, { recursive: true });
});
