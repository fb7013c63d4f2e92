// A configured server that cannot start is not "a server that does not exist": the model that asks
// for one of its tools is told the server is there but failed, and that it is tried again, so it
// does not conclude the id is wrong. Real processes: the npm servers and a command that is missing.
import { doesNotMatch, equal, match } from "node:assert/strict";
import { stdioClient, writeConfig } from "./_gateway.ts";

Deno.test({
  name:
    "an id of a configured server that failed to start says the server failed, not that it does not exist",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    // The test config (the npm servers) with an upstream whose command does not exist, restarts
    // held off for the test's length.
    const { path, dir } = await writeConfig({ broken: true });
    const client = await stdioClient(path);
    try {
      for (const action of ["execute", "describe"]) {
        const result = await client.callTool({
          name: "mcp",
          arguments: {
            action,
            name: "broken/read",
            ...(action === "execute" ? { arguments: {} } : {}),
          },
        });
        equal(result.isError, true);
        const text = JSON.stringify(result);
        doesNotMatch(text, /does not exist/);
        match(
          text,
          /The server \\"broken\\" is configured but its tools cannot be listed now \(failed/,
        );
        match(text, /ENOENT|No such file|not found/i);
      }
      // A server that does not exist is still said not to exist.
      const ghost = await client.callTool({
        name: "mcp",
        arguments: { action: "execute", name: "ghost/read", arguments: {} },
      });
      match(JSON.stringify(ghost), /The server \\"ghost\\" does not exist here/);
    } finally {
      await client.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
