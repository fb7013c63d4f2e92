import { equal, match, notEqual } from "node:assert/strict";
import { bearerAuthenticator } from "../../src/http/auth.ts";
import { sha256Hex } from "../../src/canonical_json.ts";

Deno.test("bearerAuthenticator() lets everyone in as tenant '' when no token is configured", async () => {
  equal(await bearerAuthenticator([], sha256Hex).tenant(undefined), "");
});

Deno.test("bearerAuthenticator() accepts each configured token, case-insensitive scheme, and nothing else", async () => {
  const auth = bearerAuthenticator(["alpha", "beta"], sha256Hex);
  match((await auth.tenant("Bearer alpha"))!, /^[0-9a-f]{32}$/);
  notEqual(await auth.tenant("bearer beta"), null);
  for (
    const header of [
      undefined,
      "",
      "Bearer",
      "Bearer alph",
      "Bearer alpha2",
      "Basic alpha",
      "Bearer alpha beta",
    ]
  ) {
    equal(await auth.tenant(header), null, String(header));
  }
});

Deno.test("bearerAuthenticator() gives each token its own stable tenant, never the token itself", async () => {
  const auth = bearerAuthenticator(["alpha", "beta"], sha256Hex);
  const a = await auth.tenant("Bearer alpha");
  equal(await auth.tenant("Bearer alpha"), a);
  notEqual(await auth.tenant("Bearer beta"), a);
  equal(a?.includes("alpha"), false);
});
