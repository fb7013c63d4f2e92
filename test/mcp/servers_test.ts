import { deepEqual, equal, ok, rejects, throws } from "node:assert/strict";
import { connectServers, type McpConnection, McpError } from "../../src/mcp/mod.ts";
import { Injector, InvalidCatalogError, type McpCatalog } from "../../mod.ts";
import { tool } from "../_data.ts";
import { fakeTool, serve, serveRaw } from "./_memory.ts";

function echoServer(name: string, tools: string[], title?: string) {
  return serve(name, {
    tools: tools.map((tool) => fakeTool(tool)),
    call: (tool, args) => ({
      content: [{ type: "text", text: `${name}/${tool} ${JSON.stringify(args)}` }],
    }),
    ...(title === undefined ? {} : { title }),
  });
}

async function connection(name: string, tools: string[], title?: string): Promise<McpConnection> {
  return (await echoServer(name, tools, title)).connection;
}

Deno.test("connectServers() gathers every server's tools into one catalogue", async () => {
  const servers = await connectServers([
    connection("github", ["create_issue", "list_issues"], "GitHub"),
    connection("slack", ["post_message"]),
  ]);
  deepEqual(servers.catalog.tools.map((tool) => `${tool.server}/${tool.name}`), [
    "github/create_issue",
    "github/list_issues",
    "slack/post_message",
  ]);
  deepEqual([...servers.connections.keys()], ["github", "slack"]);
  deepEqual(servers.catalog.servers, [{ server: "github", title: "GitHub" }]);
  await servers.close();
});

Deno.test("connectServers() describes servers with the host's information first", async () => {
  const servers = await connectServers(
    [connection("github", ["create_issue"], "GitHub"), connection("slack", ["post_message"])],
    { servers: [{ server: "slack", title: "Slack", description: "Team chat" }] },
  );
  deepEqual(servers.catalog.servers, [
    { server: "github", title: "GitHub" },
    { server: "slack", title: "Slack", description: "Team chat" },
  ]);
  await servers.close();
});

Deno.test("the invoker of connectServers() sends each call to its tool's server", async () => {
  const servers = await connectServers([
    connection("github", ["create_issue"]),
    connection("slack", ["post_message"]),
  ]);
  const injector = new Injector(servers.catalog);
  const slack = await injector.handle(
    { action: "execute", name: "slack/post_message", arguments: { text: "hi" } },
    servers.invoker,
  );
  equal(slack.toolResult, 'slack/post_message {"text":"hi"}');
  const github = await injector.handle(
    { action: "execute", name: "github/create_issue", arguments: {} },
    servers.invoker,
  );
  equal(github.toolResult, "github/create_issue {}");
  throws(
    () => servers.invoker.invoke(tool("jira", "create_ticket"), {}),
    TypeError,
  );
  await servers.close();
});

Deno.test("connectServers() closes every connection when one fails to connect", async () => {
  const ok1 = await connection("github", ["create_issue"]);
  const failure = new McpError("connect", 'Cannot connect to "slack": refused');
  await rejects(connectServers([ok1, Promise.reject(failure)]), (error) => error === failure);
  equal(ok1.closed, true);
});

Deno.test("connectServers() closes every connection when listing a server's tools fails", async () => {
  const good = await connection("github", ["create_issue"]);
  const { connection: broken } = await serveRaw("broken", () => {
    throw new Error("no tools today");
  });
  await rejects(
    connectServers([good, broken]),
    (error) => error instanceof McpError && error.code === "list_tools",
  );
  equal(good.closed, true);
  equal(broken.closed, true);
});

Deno.test("connectServers() refuses two connections with one server name, closing both", async () => {
  const first = await connection("github", ["a"]);
  const second = await connection("github", ["b"]);
  await rejects(connectServers([first, second]), TypeError);
  equal(first.closed, true);
  equal(second.closed, true);
});

Deno.test("connectServers() rejects invalid server information, closing everything", async () => {
  const github = await connection("github", ["a"]);
  await rejects(
    connectServers([github], { servers: [{ server: "jira", title: "Jira" }] }),
    InvalidCatalogError,
  );
  equal(github.closed, true);
});

Deno.test("onCatalogChanged() hands listeners a new catalogue after a server changes its tools", async () => {
  let tools = [fakeTool("post_message")];
  const slack = await serve("slack", { list: () => ({ tools }) });
  const servers = await connectServers([connection("github", ["create_issue"]), slack.connection]);
  const before = servers.catalog;
  const changed = Promise.withResolvers<McpCatalog>();
  servers.onCatalogChanged((catalog) => changed.resolve(catalog));
  tools = [fakeTool("post_message"), fakeTool("add_reaction")];
  await slack.server.sendToolListChanged();
  const after = await changed.promise;
  equal(before.size, 2);
  equal(after.size, 3);
  equal(servers.catalog, after);
  ok(after.get("slack/add_reaction"));
  await servers.close();
});

Deno.test("close() of connectServers() closes every connection, and may be called again", async () => {
  const servers = await connectServers([connection("a", ["x"]), connection("b", ["y"])]);
  await servers.close();
  ok([...servers.connections.values()].every((connection) => connection.closed));
  await servers.close();
});
