/**
 * `deno task start` fetches only what the server imports. Deno installs every npm package of
 * deno.json's `imports` and of the lockfile (wrangler, workerd, the MCP servers…) before it runs
 * anything, unless `--unstable-npm-lazy-caching` makes it fetch the module graph's packages alone
 * (still pinned and verified by deno.lock). `bench/cold_start.ts` measures a start from an empty
 * DENO_DIR over the network; this test proves the same offline, with the registry unreachable.
 */

import { deepEqual, equal } from "node:assert/strict";
import { startDenoServer } from "./e2e/_processes.ts";
import { npmPackagesOf } from "./_graph.ts";

const ROOT = new URL("..", import.meta.url).pathname;
// What src/deno/serve.ts imports: the HTTP app (hono, zod), the core (the JSON Schema validator)
// and code mode's Deno sandbox (acorn, its parser).
const SERVER_PACKAGES = ["@cfworker/json-schema", "acorn", "hono", "zod"];

async function npmCache(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).npmCache;
}

Deno.test("the server's module graph holds hono, zod, acorn and the core's one package only", async () => {
  deepEqual(await npmPackagesOf("src/deno/serve.ts"), SERVER_PACKAGES);
});

Deno.test("deno task start runs with only the server's packages in an empty DENO_DIR", async () => {
  const project = await Deno.makeTempDir({ prefix: "unfold-start-" });
  const denoDir = await Deno.makeTempDir({ prefix: "unfold-deno-dir-" });
  try {
    // A clone without node_modules, and a cache that holds those packages and nothing else.
    for (const path of ["deno.json", "deno.lock", "src"]) {
      await copy(`${ROOT}${path}`, `${project}/${path}`);
    }
    const npm = `${await npmCache()}/registry.npmjs.org`;
    for (const pkg of SERVER_PACKAGES) {
      await copy(`${npm}/${pkg}`, `${denoDir}/npm/registry.npmjs.org/${pkg}`);
    }
    // The registry is unreachable: any other package would have to be fetched, failing the start.
    const offline = "http://127.0.0.1:9";
    const server = await startDenoServer(
      { DENO_DIR: denoDir, HTTPS_PROXY: offline, HTTP_PROXY: offline, NO_PROXY: "" },
      project,
    );
    try {
      const health = await fetch(`${server.url}/healthz`);
      equal((await health.json()).ok, true);
    } finally {
      await server.close();
    }
  } finally {
    await Deno.remove(project, { recursive: true });
    await Deno.remove(denoDir, { recursive: true });
  }
});

async function copy(from: string, to: string): Promise<void> {
  await Deno.mkdir(to.slice(0, to.lastIndexOf("/")), { recursive: true });
  const out = await new Deno.Command("cp", { args: ["-R", from, to] }).output();
  equal(out.code, 0, new TextDecoder().decode(out.stderr));
}
