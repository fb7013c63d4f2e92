// A config the gateway refuses is refused before any upstream is spawned: one line, exit 1, and
// no process started. The upstream here is a shell that counts its spawns in a file.
import { equal, match } from "node:assert/strict";
import { runCli } from "../gateway/_gateway.ts";
import { denoEnv } from "../mcp/_servers.ts";

// A server entry whose every spawn appends one line to `counter`; it then exits (no MCP).
const counting = (counter: string) => ({
  command: "sh",
  args: ["-c", `echo spawned >> ${counter}`],
});

async function spawns(counter: string): Promise<number> {
  const text = await Deno.readTextFile(counter).catch(() => "");
  return text.split("\n").filter((line) => line === "spawned").length;
}

// Runs `unfold gateway` on the config written with `counter` in `dir`, and the lock file given.
async function gateway(
  config: (counter: string) => unknown,
  options: { args?: string[]; env?: Record<string, string>; lock?: string } = {},
) {
  const dir = await Deno.makeTempDir({ prefix: "unfold-spawn-after-checks-" });
  try {
    const counter = `${dir}/spawns.txt`;
    await Deno.writeTextFile(`${dir}/mcp.json`, JSON.stringify(config(counter)));
    if (options.lock !== undefined) {
      await Deno.writeTextFile(`${dir}/unfold.lock.json`, options.lock);
    }
    const run = await runCli(
      ["gateway", "--config", `${dir}/mcp.json`, ...options.args ?? []],
      { ...denoEnv(), ...options.env },
    );
    return { ...run, spawns: await spawns(counter) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const MISTAKES = [
  {
    what: "a describe-first mode that does not exist",
    config: (c: string) => ({
      mcpServers: { s: counting(c) },
      unfold: { describeFirst: "always" },
    }),
    line: /\/unfold\/describeFirst/,
  },
  {
    what: "a mistyped unfold key",
    config: (c: string) => ({ mcpServers: { s: counting(c) }, unfold: { strat: "lazy" } }),
    line: /did you mean "start"/,
  },
  {
    what: "a profile the config lacks",
    config: (c: string) => ({ mcpServers: { s: counting(c) } }),
    args: ["--profile", "work"],
    line: /unknown profile "work"/,
  },
  {
    what: "a profile named like an Object.prototype member that the config lacks",
    config: (c: string) => ({ mcpServers: { s: counting(c) }, unfold: { profiles: { work: {} } } }),
    args: ["--profile", "constructor"],
    line: /unknown profile "constructor": the profiles are work$/m,
  },
  {
    what: "a bad UNFOLD_* variable",
    config: (c: string) => ({ mcpServers: { s: counting(c) } }),
    env: { UNFOLD_MAX_TOOLS: "many" },
    line: /UNFOLD_MAX_TOOLS/,
  },
  {
    what: "a lock file that is not JSON",
    config: (c: string) => ({ mcpServers: { s: counting(c) } }),
    lock: "{ not json",
    line: /unfold\.lock\.json/,
  },
];
for (const { what, config, line, ...options } of MISTAKES) {
  Deno.test(`unfold gateway refuses ${what} before it spawns any upstream`, async () => {
    const run = await gateway(config, options);
    equal(run.code, 1, run.stderr);
    equal(run.stderr.trim().split("\n").length, 1, run.stderr);
    match(run.stderr, line);
    equal(run.spawns, 0);
  });
}

Deno.test("unfold inspect spawns the counting upstream of a good config (the count works)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-spawn-after-checks-" });
  try {
    const counter = `${dir}/spawns.txt`;
    await Deno.writeTextFile(
      `${dir}/mcp.json`,
      JSON.stringify({ mcpServers: { s: counting(counter) }, unfold: { startupTimeoutMs: 5000 } }),
    );
    await runCli(["inspect", "--config", `${dir}/mcp.json`]);
    equal(await spawns(counter) >= 1, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
