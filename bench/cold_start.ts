/**
 * A first `deno task start` as a newcomer runs it: a copy of the project without node_modules and
 * an empty DENO_DIR, so every npm package comes from the registry. Prints the seconds until
 * `/healthz` answers, what the start left in DENO_DIR and in node_modules, and the packages it
 * fetched. Needs the npm registry; run it on an otherwise idle machine and note the load.
 *
 * ```sh
 * deno run -A bench/cold_start.ts
 * ```
 *
 * @module
 */
// deno-lint-ignore-file no-console

const ROOT = new URL("..", import.meta.url).pathname;
const project = await Deno.makeTempDir({ prefix: "unfold-cold-" });
const denoDir = await Deno.makeTempDir({ prefix: "unfold-cold-deno-dir-" });

async function run(command: string, args: string[], cwd = ROOT): Promise<string> {
  const out = await new Deno.Command(command, { args, cwd, stdout: "piped" }).output();
  return new TextDecoder().decode(out.stdout);
}

async function megabytes(path: string): Promise<number> {
  const out = await run("du", ["-sk", path]).catch(() => "0");
  return Math.round(Number.parseInt(out) / 1024);
}

try {
  await run("cp", ["-R", "deno.json", "deno.lock", "src", project]);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "start"],
    cwd: project,
    env: { DENO_DIR: denoDir, PORT: "0" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let output = "";
  const decoder = new TextDecoder();
  child.stderr.pipeTo(new WritableStream({ write: (c) => void (output += decoder.decode(c)) }));
  let url: string | undefined;
  for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
    output += chunk;
    url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
    if (url !== undefined) break;
  }
  if (url === undefined) throw new Error(`deno task start did not start:\n${output}`);
  const health = await fetch(`${url}/healthz`);
  const seconds = (performance.now() - started) / 1000;
  if (!health.ok) throw new Error(`/healthz answered ${health.status}`);
  await health.body?.cancel();
  child.kill("SIGTERM");
  await child.status;
  const npm = `${denoDir}/npm/registry.npmjs.org`;
  const packages: string[] = [];
  for await (const entry of Deno.readDir(npm)) {
    if (!entry.name.startsWith("@")) packages.push(entry.name);
    else {for await (const scoped of Deno.readDir(`${npm}/${entry.name}`)) {
        packages.push(`${entry.name}/${scoped.name}`);
      }}
  }
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ", 3).join(" ");
  console.log(`deno task start from an empty DENO_DIR (load ${load}):`);
  console.log(`  /healthz answered after ${seconds.toFixed(1)} s`);
  console.log(`  DENO_DIR: ${await megabytes(denoDir)} MB`);
  console.log(`  node_modules: ${await megabytes(`${project}/node_modules`)} MB`);
  console.log(`  ${packages.length} npm packages: ${packages.sort().join(", ")}`);
} finally {
  await Deno.remove(project, { recursive: true });
  await Deno.remove(denoDir, { recursive: true });
}
