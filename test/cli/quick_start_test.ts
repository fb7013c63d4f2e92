// The README's quick start as a new user types it, read from the README: on a fresh clone, with an
// empty Deno cache and a home of their own, `deno task install`, `unfold setup claude-desktop` on
// a Claude Desktop file that holds the example's servers, `unfold inspect`. The install must fetch
// only what the gateway imports, not every package of deno.json (wrangler, workerd, the browser
// used by the page tests: over 500 MB and half a minute).
// deno-lint-ignore-file no-console
import { ok } from "node:assert/strict";
import { dirname } from "node:path";
import { cloneRepo, machineEnv, ROOT } from "../_deno.ts";
import { HOSTS } from "../../src/cli/hosts/known.ts";

// What the first hour may fetch into the Deno cache and node_modules together.
const MAX_FETCHED_BYTES = 80 * 1024 * 1024;

const README = await Deno.readTextFile(`${ROOT}README.md`);

async function bytesUnder(path: string): Promise<number> {
  const out = await new Deno.Command("du", { args: ["-sb", path] }).output();
  if (!out.success) return 0;
  return Number(new TextDecoder().decode(out.stdout).split("\t")[0]);
}

// This machine's Deno cache, where the example's upstreams (started by `deno run npm:…`) come from,
// as on the user's machine.
async function usualDenoDir(): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

Deno.test({
  name: "the README's quick start runs on a fresh clone and fetches only what the gateway needs",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const block = /## Quick start: the gateway\n\n```sh\n([\s\S]*?)```/.exec(README);
    ok(block, "the README has no quick start block");
    const lines = block[1]!.trim().split("\n").map((line) => line.replace(/\s+#.*$/, "").trim());
    ok(lines[0] === "deno task install" && lines.length === 3, lines.join("\n"));
    const temp = await Deno.makeTempDir({ prefix: "unfold-quick-start-" });
    try {
      const repo = await cloneRepo(temp);
      await Deno.mkdir(`${temp}/home`);
      const env: Record<string, string> = {
        ...machineEnv(["PATH"]),
        HOME: `${temp}/home`,
        DENO_NO_UPDATE_CHECK: "1",
        DENO_DIR: `${temp}/cache`,
        DENO_INSTALL_ROOT: `${temp}/root`,
        UNFOLD_CACHE_DIR: `${temp}/unfold-cache`,
      };
      const example = JSON.parse(await Deno.readTextFile(`${repo}/examples/gateway/mcp.json`));
      const denoDir = await usualDenoDir();
      for (const server of Object.values(example.mcpServers) as { env?: object }[]) {
        server.env = { ...server.env, DENO_DIR: denoDir };
      }
      const hostFile = HOSTS["claude-desktop"]!.path(env, Deno.build.os);
      await Deno.mkdir(dirname(hostFile), { recursive: true });
      await Deno.writeTextFile(
        hostFile,
        JSON.stringify({ globalShortcut: "Alt+Space", mcpServers: example.mcpServers }),
      );
      const started = performance.now();
      let stdout = "";
      for (const line of lines) {
        const [first, ...args] = line.split(/\s+/);
        const out = await new Deno.Command(
          first === "deno" ? Deno.execPath() : `${temp}/root/bin/${first}`,
          { args, cwd: first === "deno" ? repo : temp, env, clearEnv: true, stdin: "null" },
        ).output();
        stdout = new TextDecoder().decode(out.stdout);
        ok(out.success, `${line}: ${new TextDecoder().decode(out.stderr).slice(-2_000)}`);
      }
      const seconds = (performance.now() - started) / 1000;
      for (const server of ["everything", "filesystem", "memory"]) {
        ok(new RegExp(`\\n${server}\\s+ready`).test(stdout), stdout.slice(0, 1_000));
      }
      const cache = await bytesUnder(`${temp}/cache`);
      const modules = await bytesUnder(`${temp}/root`) + await bytesUnder(`${repo}/node_modules`);
      console.log(
        `quick start: install, setup and inspect took ${seconds.toFixed(1)} s; fetched ${
          (cache / 1e6).toFixed(1)
        } MB into DENO_DIR and ${(modules / 1e6).toFixed(1)} MB into node_modules`,
      );
      ok(cache + modules <= MAX_FETCHED_BYTES, `fetched ${cache + modules} bytes`);
    } finally {
      await Deno.remove(temp, { recursive: true });
    }
  },
});
