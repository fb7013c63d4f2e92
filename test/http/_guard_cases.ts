// The one origin/host/token policy, asserted the same way against every HTTP face.
import { equal, notEqual } from "node:assert/strict";
import { BEARER_CHALLENGE } from "../../src/http/guard.ts";

/** The token and the listed origin every face under test is configured with. */
export const GUARD_TOKEN = "guard-token";
export const LISTED_ORIGIN = "https://app.example.com";

/**
 * Asserts the policy on one face: `call(headers)` sends a request to a guarded path of a server
 * configured with `UNFOLD_API_TOKEN=GUARD_TOKEN` and `UNFOLD_ALLOWED_ORIGINS=LISTED_ORIGIN`,
 * reached at `ownOrigin`.
 */
export async function assertGuardPolicy(
  call: (headers: Record<string, string>) => Promise<Response>,
  ownOrigin: string,
): Promise<void> {
  const bearer = { authorization: `Bearer ${GUARD_TOKEN}` };
  const refused = async (headers: Record<string, string>, code: string, why: string) => {
    const response = await call(headers);
    equal(response.headers.get("content-type"), "application/problem+json", why);
    equal((await response.json()).code, code, why);
    return response;
  };
  await refused({ ...bearer, origin: "http://evil.example.com" }, "origin_not_allowed", "foreign");
  // A loopback page other than the server's own is another program: not implied.
  await refused({ ...bearer, origin: "http://localhost:3000" }, "origin_not_allowed", "loopback");
  await refused({ ...bearer, origin: "null" }, "origin_not_allowed", "opaque origin");
  const anonymous = await refused({}, "unauthorized", "no token");
  equal(anonymous.status, 401);
  equal(anonymous.headers.get("www-authenticate"), BEARER_CHALLENGE);
  for (
    const headers of [bearer, { ...bearer, origin: LISTED_ORIGIN }, {
      ...bearer,
      origin: ownOrigin,
    }]
  ) {
    const response = await call(headers);
    await response.body?.cancel();
    notEqual(response.status, 401, JSON.stringify(headers));
    notEqual(response.status, 403, JSON.stringify(headers));
  }
}
