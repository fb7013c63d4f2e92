import { equal, ok, rejects } from "node:assert/strict";
import type { McpError } from "../../src/mcp/mod.ts";
import { connectStdio } from "../../src/mcp/stdio.ts";
import { StdioProcessTransport } from "../../src/mcp/_stdio_transport.ts";
import { everythingContract, rejectsWith } from "../_contracts/everything_contract.ts";
import { denoEnv, npmServer } from "./_servers.ts";

const FIXTURE = new URL("./_fixtures/crashing_server.ts", import.meta.url).pathname;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

function crashing(...args: string[]) {
  return {
    server: "crashing",
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", "--config", CONFIG, FIXTURE, ...args],
    env: denoEnv(),
  };
}

everythingContract("stdio", () =>
  Promise.resolve({
    connect: () =>
      connectStdio({
        server: "everything",
        ...npmServer("@modelcontextprotocol/server-everything", "stdio"),
        env: denoEnv(),
      }),
    stop: () => Promise.resolve(),
  }));

Deno.test("connectStdio() fails with connect when the command does not exist", async () => {
  const error = await rejectsWith(
    connectStdio({ server: "missing", command: "/no/such/mcp-server" }),
    "connect",
  );
  ok(error.message.startsWith('Cannot connect to "missing": '), error.message);
  ok(error.message.includes("command not found: /no/such/mcp-server"), error.message);
});

Deno.test("connectStdio() fails with connect, quoting the server's error output, when it exits at start", async () => {
  const error = await rejectsWith(connectStdio(crashing("--exit-at-start")), "connect");
  ok(error.message.includes("crashing_server: missing API_KEY, giving up"), error.message);
});

Deno.test("a stdio server that exits mid-call fails the call and every later one at once", async () => {
  const lost: McpError[] = [];
  const crashy = await connectStdio(crashing(), { onError: (error) => lost.push(error) });
  try {
    equal(await crashy.call("echo"), "alive");
    const error = await rejectsWith(crashy.call("crash"), "disconnected");
    ok(error.message.startsWith('Cannot call "crashing/crash": the server closed the connection'));
    ok(error.message.includes("crashing_server: out of memory, exiting"), error.message);
    equal(crashy.closed, true);
    await rejectsWith(crashy.call("echo"), "disconnected");
    equal(lost.length, 1);
    equal(lost[0]?.code, "disconnected");
  } finally {
    await crashy.close();
  }
});

Deno.test("connectStdio() forwards the server's error output to onStderr", async () => {
  let log = "";
  const crashy = await connectStdio(crashing(), { onStderr: (text) => log += text });
  await rejectsWith(crashy.call("crash"), "disconnected");
  await crashy.close();
  ok(log.includes("crashing_server: out of memory, exiting"), log);
});

Deno.test("connectStdio() rejects a bad server name or an empty command with a TypeError", async () => {
  await rejects(connectStdio({ server: "a/b", command: "x" }), TypeError);
  await rejects(connectStdio({ server: "", command: "x" }), TypeError);
  await rejects(connectStdio({ server: "x", command: "" }), TypeError);
});

Deno.test("a server that dies on a refused TLS certificate names the variable to set", async () => {
  // What a server run by deno prints behind a proxy that inspects TLS with its own authority.
  const script = "console.error('error: invalid peer certificate: UnknownIssuer'); Deno.exit(1)";
  const error = await rejectsWith(
    connectStdio({ server: "tls", command: Deno.execPath(), args: ["eval", script] }),
    "connect",
  );
  ok(error.message.includes("a TLS certificate was refused"), error.message);
  ok(error.message.includes("set DENO_CERT"), error.message);
  ok(error.message.includes("invalid peer certificate: UnknownIssuer"), error.message);
});

Deno.test("a stdio transport whose command is not there fails to start, and closes at once", async () => {
  const transport = new StdioProcessTransport({ command: "/no/such/mcp-server", args: [] });
  await rejects(transport.start(), /ENOENT/);
  // Before, closing waited for the exit of a process that never ran: for ever.
  await transport.close();
  equal(transport.pid, undefined);
});
