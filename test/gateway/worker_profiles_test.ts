import { deepEqual, equal, ok } from "node:assert/strict";
import { startGatewayWorker } from "../workers/_gateway_worker.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { httpClient } from "./_gateway.ts";
import { bridge } from "./_scenario.ts";
import { assertNothingHidden, GATEWAY_ROUTES, postPing, profileBodies } from "./_profile_routes.ts";

const WIDE = "worker-wide-token";
const SUMS = "worker-sums-token";

// Two server-everything over HTTP: "remote", of which the profile "sums" takes the get-* tools
// but get-env, and "vault", which it does not see at all.
Deno.test("the Worker serves /mcp/NAME for each profile beside /mcp, and a profile is a boundary there", async (t) => {
  await using remote = await startHttpEverything();
  await using vault = await startHttpEverything();
  const upstreams = JSON.stringify({
    mcpServers: { remote: { url: remote.url }, vault: { url: vault.url } },
    unfold: {
      profiles: {
        sums: {
          servers: ["remote"],
          tools: ["remote/get-*", "!remote/get-env"],
          tokens: ["${SUMS_TOKEN}"],
        },
      },
    },
  });
  const worker = await startGatewayWorker({
    UNFOLD_UPSTREAMS: upstreams,
    UNFOLD_API_TOKEN: WIDE,
    SUMS_TOKEN: SUMS,
  });
  const wide = { authorization: `Bearer ${WIDE}` };
  const sums = { authorization: `Bearer ${SUMS}` };
  try {
    await t.step("the profile's token searches, describes and executes its own tools", async () => {
      const client = await httpClient(`${worker.url}/mcp/sums`, sums);
      try {
        const found = await bridge(client, { action: "search", query: "echo back sum" });
        const ids = (found.structuredContent?.matches as { id: string }[]).map((m) => m.id);
        ok(ids.includes("remote/get-sum") && !ids.includes("remote/echo"), ids.join(", "));
        const hidden = await bridge(client, { action: "describe", name: "remote/echo" });
        equal(hidden.isError, true);
        await bridge(client, { action: "describe", name: "remote/get-sum" });
        const sum = await bridge(client, {
          action: "execute",
          name: "remote/get-sum",
          arguments: { a: 2, b: 3 },
        });
        ok(JSON.stringify(sum.content).includes("5"), JSON.stringify(sum.content));
      } finally {
        await client.close();
      }
    });

    await t.step("the gateway-wide token opens /mcp, and an unknown profile is 404", async () => {
      const everything = await httpClient(`${worker.url}/mcp`, wide);
      try {
        const found = await bridge(everything, { action: "search", query: "echo back" });
        ok(
          (found.structuredContent?.matches as { id: string }[]).some((m) =>
            m.id === "remote/echo"
          ),
        );
      } finally {
        await everything.close();
      }
      const unknown = await postPing(`${worker.url}/mcp/unknown`, wide);
      equal(unknown.status, 404);
      equal((await unknown.json()).code, "not_found");
    });

    await t.step(
      "before the token, a profile that exists and one that does not are alike",
      async () => {
        for (const headers of [{}, { authorization: "Bearer wrong" }, sums]) {
          const known = await postPing(
            `${worker.url}/mcp/${headers === sums ? "other" : "sums"}`,
            headers,
          );
          const unknown = await postPing(`${worker.url}/mcp/unknown`, headers);
          deepEqual([known.status, await known.text()], [unknown.status, await unknown.text()]);
          equal(known.status, 401);
        }
      },
    );

    await t.step("no route tells the profile's client of a tool or server outside it", async () => {
      const origin = new URL(worker.url).origin;
      const view = await (await fetch(`${origin}/view?context=1000000`, { headers: wide })).json();
      const names = new Set(
        [...JSON.stringify(view).matchAll(/remote\/([\w-]+)/g)].map((m) => m[1]!),
      );
      const hiddenTools = [...names].filter((name) =>
        !name.startsWith("get-") || name === "get-env"
      );
      ok(hiddenTools.length >= 5, hiddenTools.join(", "));
      const { bodies, asked } = await profileBodies(origin, "sums", SUMS, "unknown", {
        queries: ["echo back a message", "environment variables", "vault"],
        ids: ["remote/echo", "remote/get-env", "vault/get-sum"],
      });
      deepEqual([...asked].sort(), [...GATEWAY_ROUTES].sort());
      await assertNothingHidden(
        bodies,
        new RegExp(`vault|(?<![\\w-])(${hiddenTools.join("|")})(?![\\w-])`, "i"),
      );
      const status = JSON.parse(bodies.find(([r]) => r === "GET /status")![2]);
      deepEqual(status.servers.map((s: { server: string }) => s.server), ["remote"]);
      // The page names the profile it shows, and lists no other.
      equal(status.profile, "sums");
      equal(status.profiles, undefined);
      const whole = await (await fetch(`${origin}/status`, { headers: wide })).json();
      deepEqual(whole.profiles.map((p: { name: string }) => p.name), ["sums"]);
    });
  } finally {
    await worker.close();
  }
});
