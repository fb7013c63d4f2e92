/**
 * An OAuth-protected MCP server on this machine, to try `unfold login` without a remote account:
 * server-everything over Streamable HTTP behind a small OAuth 2.1 authorization server (discovery,
 * dynamic registration, PKCE; it approves every sign-in at once, as a signed-in user would). Both
 * listen on 127.0.0.1 only. Ctrl-C stops them.
 *
 * Run: `deno run -A --node-modules-dir=auto examples/oauth_server.ts`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { startOAuthGate } from "../test/mcp/_oauth_gate.ts";
import { startHttpEverything } from "../test/mcp/_servers.ts";

const everything = await startHttpEverything();
const gate = startOAuthGate(everything.url);
console.log(`An OAuth-protected MCP server listens at ${gate.url}`);
console.log("Put it in a config, then sign in and look:");
console.log(`  echo '{"mcpServers": {"demo": {"url": "${gate.url}"}}}' > demo.json`);
console.log("  unfold login --config demo.json demo");
console.log("  unfold inspect --config demo.json");
const stop = Promise.withResolvers<void>();
for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, stop.resolve);
await stop.promise;
await gate.close();
await everything.stop();
Deno.exit(0);
