import { equal, ok } from "node:assert/strict";
import { postPing } from "../_profile_routes.ts";
import { assertGuardPolicy, GUARD_TOKEN, LISTED_ORIGIN } from "../../http/_guard_cases.ts";
import { startHttpEverything } from "../../mcp/_servers.ts";
import { httpClient, startHttpGateway, writeConfig } from "../_gateway.ts";
import { gatewayScenario } from "../_scenario.ts";

const TOKEN = "gateway-test-token";

// A loopback proxy in front of the HTTP upstream that records the Authorization headers it sees.
function recordingProxy(
  target: string,
): { url: string; seen: string[]; stop: () => Promise<void> } {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    seen.push(request.headers.get("authorization") ?? "");
    const url = new URL(request.url);
    return fetch(new URL(url.pathname + url.search, target), {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: request.signal,
    });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/mcp`,
    seen,
    stop: () => server.shutdown(),
  };
}

Deno.test("the gateway over Streamable HTTP serves the real servers, with auth and origin checks", async (t) => {
  await using remote = await startHttpEverything();
  const proxy = recordingProxy(remote.url);
  const { path, dir } = await writeConfig({
    lab: true,
    remoteUrl: proxy.url,
    remoteHeaders: { Authorization: "Bearer upstream-own-token" },
    unfold: { pinned: ["memory/read_graph"] },
  });
  await using gateway = await startHttpGateway(path, {
    UNFOLD_API_TOKEN: `${TOKEN},${GUARD_TOKEN}`,
    UNFOLD_ALLOWED_ORIGINS: LISTED_ORIGIN,
  });
  try {
    await t.step("a request without the bearer token is refused with 401", async () => {
      const response = await postPing(gateway.url);
      equal(response.status, 401);
      equal((await response.json()).code, "unauthorized");
    });

    await t.step("a request from a foreign origin is refused with 403", async () => {
      const response = await postPing(gateway.url, {
        authorization: `Bearer ${TOKEN}`,
        origin: "http://evil.example.com",
      });
      equal(response.status, 403);
      equal((await response.json()).code, "origin_not_allowed");
    });

    await t.step("/mcp keeps the one origin and token policy of /v1", async () => {
      await assertGuardPolicy(
        (headers) => fetch(gateway.url, { headers }),
        new URL(gateway.url).origin,
      );
    });

    const client = await httpClient(gateway.url, { authorization: `Bearer ${TOKEN}` });
    try {
      await gatewayScenario(t, client, true);
    } finally {
      await client.close();
    }

    await t.step("the host's token never reaches an upstream", () => {
      ok(proxy.seen.length > 0);
      ok(proxy.seen.every((header) => header === "Bearer upstream-own-token"), proxy.seen.join());
    });
  } finally {
    await gateway.stop();
    await proxy.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
