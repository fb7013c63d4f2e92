/**
 * The Deno server: the HTTP API on `PORT` (default 8787) and `HOST` (default 127.0.0.1) with
 * in-memory sessions. `deno task start`. A bad setting or an address it cannot listen on is one
 * line on stderr and exit code 1.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { createApp } from "../http/app.ts";
import { isLoopbackName } from "../http/guard.ts";
import { pageHandler } from "../http/page.ts";
import { checkSettings, type HttpSettings } from "../http/settings.ts";
import { MemorySessionStore } from "../session/memory_store.ts";
import { backgroundRanker } from "../ranking/deno_ranker.ts";
import { DenoSandbox } from "./code_sandbox.ts";
import { loadDenoRanker } from "./ranking_file.ts";
import { VERSION } from "../version.ts";
import { type LearnedStore, Learning } from "../session/learned.ts";
import { fileLearnedStore } from "../cli/learned_store.ts";
import { unfoldCacheDir } from "../cli/cache_dir.ts";

const DEFAULT_PORT = 8787;
const DEFAULT_HOST = "127.0.0.1";

function fail(message: string): never {
  console.error(`unfold: ${message}`);
  Deno.exit(1);
}

const env = Deno.env.toObject();
const checked = checkSettings(env);
if (!checked.ok) fail(checked.error.message);
const settings: HttpSettings = checked.value;
const port = env.PORT === undefined || env.PORT === "" ? DEFAULT_PORT : Number(env.PORT);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  fail(`Invalid PORT: must be an integer from 0 to 65535, got ${JSON.stringify(env.PORT)}`);
}
const hostname = env.HOST || DEFAULT_HOST;

// What search learns from each tenant's runs: kept under the cache directory when this process
// may read and write there (`deno task start` may not: then it lasts as long as the process).
function learnedStore(): LearnedStore | undefined {
  const dir = unfoldCacheDir(env);
  if (dir === undefined) return undefined;
  const granted = (name: "read" | "write") =>
    Deno.permissions.querySync({ name, path: dir }).state === "granted";
  return granted("read") && granted("write")
    ? fileLearnedStore(dir, (line) => console.error(`unfold: ${line}`))
    : undefined;
}

// Code mode's sandbox, for requests that turn it on: a child deno per run, with no permissions
// (this server may run only `deno`: --allow-run=deno), one started ahead for the next run.
const sandbox = new DenoSandbox({ prewarm: 1 });

const app = createApp({
  store: new MemorySessionStore({
    ttlSeconds: settings.sessionTtlSeconds,
    maxSessions: settings.maxSessions,
    maxKeptBytesPerSession: settings.maxKeptBytes,
  }),
  settings,
  loopbackOnly: isLoopbackName(hostname),
  // The word vectors load in the background, after startup; lexical search until then.
  catalogs: { ranker: backgroundRanker({ load: () => loadDenoRanker() }) },
  learning: new Learning(learnedStore(), { log: (line) => console.error(`unfold: ${line}`) }),
  codeMode: { sandbox },
});

// The page at GET / (src/page/), then the API.
const page = pageHandler();
const serve = async (request: Request) => (await page(request)) ?? await app.fetch(request);

let server: Deno.HttpServer;
try {
  server = Deno.serve({
    port,
    hostname,
    onListen: ({ hostname, port }) => {
      const url = `http://${hostname.includes(":") ? `[${hostname}]` : hostname}:${port}`;
      console.log(`unfold ${VERSION} listening on ${url} (in-memory sessions); the page: ${url}/`);
      const auth = settings.tokens.length > 0 ? ` -H 'authorization: Bearer <token>'` : "";
      console.log(
        `try: \`curl -s ${url}/v1/route${auth} -H 'content-type: application/json' -d '{"catalog":[{"server":"demo","name":"echo",` +
          `"description":"Echo a message","inputSchema":{"type":"object"}}],` +
          `"arguments":{"action":"search","query":"echo"}}'\``,
      );
    },
  }, serve);
} catch (e) {
  const where = `${hostname}:${port}`;
  if (e instanceof Deno.errors.AddrInUse) {
    fail(`Cannot listen on ${where}: the port is in use; set PORT to a free one (0 picks one)`);
  }
  // Anything else Deno.serve throws is about the address too (lookup, permission, interface).
  fail(
    `Cannot listen on ${where}: ${e instanceof Error ? e.message : String(e)}; check HOST and PORT`,
  );
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, () => {
    void sandbox.close();
    void server.shutdown();
  });
}
