import { deepEqual, equal, match, ok } from "node:assert/strict";
import { denoEnv } from "../../mcp/_servers.ts";
import { fake, memoryServer, RawGateway, writeChaosConfig } from "../chaos/_chaos.ts";
import { cliCommand, httpClient, startHttpGateway } from "../_gateway.ts";

// server-memory (real) and a fake with echo and pid; three profiles that narrow them.
function profileConfig() {
  return writeChaosConfig((dir) => ({
    memory: memoryServer(dir),
    side: fake("healthy"),
  }), {
    startupTimeoutMs: 8_000,
    profiles: {
      mem: { servers: ["memory"], availableContextTokens: 32_000 },
      echo: { tools: ["side/*", "!side/pid"] },
      typo: { tools: ["side/ecoh"] },
    },
  });
}

type Message = Record<string, unknown>;
const text = (result: Message) => RawGateway.text(result);

// What the model is told about a tool that does not exist, with its name replaced.
function shape(result: Message, name: string): string {
  return text(result).replaceAll(name, "NAME");
}

Deno.test("a profile over stdio sees, searches, describes and executes only its own tools", async () => {
  const { path } = await profileConfig();
  await using gateway = new RawGateway(path, ["--profile", "echo"]);
  const init = await gateway.initialize();
  const overview = await gateway.overview();
  ok(!String(init.instructions).includes("memory"), String(init.instructions));
  ok(!overview.includes("memory"), overview);
  match(overview, /side\/echo/);
  equal(text(await gateway.execute("side/echo", { text: "mine" })), "mine");

  // side/pid and memory/* exist upstream but not for this profile: answered as a tool of that
  // server that exists nowhere (the same words: the memory server itself "does not exist here"),
  // with no suggestion naming any hidden tool.
  const hiddenIds = /side\/pid|memory\//;
  for (const hidden of ["side/pid", "memory/read_graph"]) {
    const absent = `${hidden.split("/")[0]}/no_such_tool`;
    for (const action of ["describe", "execute"]) {
      const answer = await gateway.bridge({ action, name: hidden, arguments: {} });
      const nowhere = await gateway.bridge({ action, name: absent, arguments: {} });
      equal(answer.isError, true);
      equal(
        shape(answer, hidden).replace(/ Closest ids: [^.]*\./, ""),
        shape(nowhere, absent).replace(/ Closest ids: [^.]*\./, ""),
      );
      ok(!hiddenIds.test(text(answer).replaceAll(hidden, "")), text(answer));
    }
  }
  const search = await gateway.bridge({ action: "search", query: "pid process graph entities" });
  ok(!/side\/pid|memory\//.test(text(search)), text(search));
  const typo = await gateway.bridge({ action: "describe", name: "side/pd" });
  ok(!text(typo).includes("side/pid"), text(typo));
});

Deno.test("an unknown profile over stdio is a config error of one line naming the closest", async () => {
  const { path } = await profileConfig();
  const { command, args } = cliCommand("gateway", "--config", path, "--profile", "echp");
  const output = await new Deno.Command(command, { args, env: denoEnv(), stdin: "null" }).output();
  equal(output.code, 1);
  const stderr = new TextDecoder().decode(output.stderr).trim();
  equal(stderr.split("\n").length, 1, stderr);
  match(stderr, /unknown profile "echp": the profiles are mem, echo, typo; did you mean "echo"\?/);
});

Deno.test("profiles over HTTP: /mcp/NAME serves each profile beside /mcp, /mcp/unknown is 404", async () => {
  const { path } = await profileConfig();
  await using gateway = await startHttpGateway(path);
  const base = gateway.url;
  const call = async (url: string, args: Message) => {
    const client = await httpClient(url);
    try {
      return await client.callTool({ name: "mcp", arguments: args }) as Message;
    } finally {
      await client.close();
    }
  };
  const mem = await call(`${base}/mem`, { action: "search", query: "echo text read graph" });
  ok(/memory\//.test(text(mem)) && !/side\//.test(text(mem)), text(mem));
  const echo = await call(`${base}/echo`, { action: "search", query: "echo text read graph" });
  ok(/side\/echo/.test(text(echo)) && !/memory\//.test(text(echo)), text(echo));
  const all = await call(base, { action: "search", query: "echo text read graph" });
  ok(/side\/echo/.test(text(all)) && /memory\//.test(text(all)), text(all));
  const hidden = await call(`${base}/mem`, {
    action: "execute",
    name: "side/echo",
    arguments: { text: "no" },
  });
  equal(hidden.isError, true);

  const unknown = await fetch(`${base}/unknown`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  equal(unknown.status, 404);
  equal(unknown.headers.get("content-type"), "application/problem+json");
  const body = await unknown.json();
  deepEqual([body.code, /no profile "unknown"/.test(body.detail)], ["not_found", true]);
});

Deno.test("a profile's tool id that no ready server lists is said once on stderr, with the closest", async () => {
  const { path } = await profileConfig();
  await using gateway = new RawGateway(path, ["--profile", "typo"]);
  await gateway.initialize();
  await gateway.until(
    () =>
      gateway.log.some((line) =>
        line.includes(
          'profile "typo": "side/ecoh" matches no tool of side; did you mean "side/echo"?',
        )
      ),
    "the typo line",
  );
});
