/**
 * The Deno server: the HTTP API on `PORT` (default 8787) and `HOST` (default 127.0.0.1) with
 * in-memory sessions. `deno task start`.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { createApp } from "../http/app.ts";
import { settingsFromEnv } from "../http/settings.ts";
import { MemorySessionStore } from "../session/memory_store.ts";
import { VERSION } from "../version.ts";

const env = Deno.env.toObject();
const settings = settingsFromEnv(env);
const app = createApp({
  store: new MemorySessionStore({
    ttlSeconds: settings.sessionTtlSeconds,
    maxSessions: settings.maxSessions,
  }),
  settings,
});
const port = Number(env.PORT ?? 8787);
const hostname = env.HOST ?? "127.0.0.1";

const server = Deno.serve({
  port,
  hostname,
  onListen: ({ hostname, port }) => {
    const url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
    console.log(`unfold ${VERSION} listening on ${url} (in-memory sessions)`);
    const auth = settings.tokens.length > 0 ? ` -H 'authorization: Bearer <token>'` : "";
    console.log(
      `try: curl -s ${url}/v1/route${auth} -d '{"catalog":[{"server":"demo","name":"echo",` +
        `"description":"Echo a message","inputSchema":{"type":"object"}}],` +
        `"arguments":{"action":"search","query":"echo"}}'`,
    );
  },
}, app.fetch);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => server.shutdown());
}
