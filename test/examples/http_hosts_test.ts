import { match, ok } from "node:assert/strict";
import { startDenoServer } from "../e2e/_processes.ts";
import { startHttpEverything } from "../mcp/_servers.ts";
import { runExample } from "./_run.ts";

const TOKEN = "example-host-token";

function expectTurn(out: string, transport: string, executed: RegExp): void {
  match(out, new RegExp(`^Connected mcp-servers/everything over ${transport}: \\d+ tools$`, "m"));
  match(out, /== Injection at 8,000 tokens: level "(manifest|brief|names)"/);
  match(out, /<tool-catalogue level=/);
  match(out, /< \[search\] Top \d+ of \d+ tools for/);
  match(out, /< \[describe\] everything\/\S+: ".*"\nInput schema: \{/);
  match(out, executed);
  match(out, /< \[error\] Error unknown_tool: ".*" is a bare tool name/);
  match(out, /"describeToExecute": ?1/);
  match(out, /"executes": ?1/);
  // The catalogue is sent once, then named by reference.
  const [, full, byRef] = out.match(
    /== Request bodies: (\d+) bytes with the catalogue, then (\d+)/,
  )!;
  ok(Number(byRef) < 300 && Number(full) > 10 * Number(byRef), `${full} then ${byRef}`);
}

Deno.test("examples/http_host.py plays a model turn over the HTTP API with a real stdio MCP server", async () => {
  const server = await startDenoServer({ UNFOLD_API_TOKEN: TOKEN });
  try {
    const out = await runExample("python3", ["examples/http_host.py"], {
      UNFOLD_URL: server.url,
      UNFOLD_API_TOKEN: TOKEN,
    });
    expectTurn(out, "stdio", /< \[execute everything\/get-sum\] The sum of 2 and 3 is 5\./);
  } finally {
    await server.close();
  }
});

Deno.test("examples/http_host.sh plays a model turn over the HTTP API with a real Streamable HTTP MCP server", async () => {
  const server = await startDenoServer({ UNFOLD_API_TOKEN: TOKEN });
  // The example can start server-everything itself on MCP_PORT; the test starts it on a port the
  // system chose and hands the example its URL instead.
  await using everything = await startHttpEverything();
  try {
    const out = await runExample("bash", ["examples/http_host.sh"], {
      UNFOLD_URL: server.url,
      UNFOLD_API_TOKEN: TOKEN,
      MCP_URL: everything.url,
      PATH: Deno.env.get("PATH") ?? "",
    });
    expectTurn(out, "Streamable HTTP", /< \[execute everything\/echo\] Echo: hello from bash/);
  } finally {
    await server.close();
  }
});

Deno.test("examples/http_host.ts plays a model turn over the HTTP API with a real stdio MCP server", async () => {
  const server = await startDenoServer({ UNFOLD_API_TOKEN: TOKEN });
  try {
    const out = await runExample(
      Deno.execPath(),
      ["run", "-A", "--quiet", "examples/http_host.ts"],
      {
        UNFOLD_URL: server.url,
        UNFOLD_API_TOKEN: TOKEN,
      },
    );
    expectTurn(out, "stdio", /< \[execute everything\/get-sum\] The sum of 2 and 3 is 5\./);
  } finally {
    await server.close();
  }
});
