// The command line as someone who has never seen unfold types it: help and version exit 0,
// a mistake is one line and the command's usage, exit 2.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { parseArgs } from "../../src/cli/args.ts";
import { VERSION } from "../../src/version.ts";
import { runCli } from "../gateway/_gateway.ts";
import { HOST_NAMES } from "../../src/cli/hosts/known.ts";

const COMMANDS = ["setup", "gateway", "inspect", "approve", "search", "login"];

Deno.test("unfold --help, help COMMAND, COMMAND --help and --version exit 0", async () => {
  const help = await runCli(["--help"]);
  equal(help.code, 0, help.stderr);
  for (const command of COMMANDS) match(help.stdout, new RegExp(`\\n {2}${command} `));
  for (const command of COMMANDS) {
    const topic = await runCli(["help", command]);
    equal(topic.code, 0, topic.stderr);
    match(topic.stdout, new RegExp(`^Usage: unfold ${command} `));
    deepEqual(await runCli([command, "--help"]), topic);
  }
  const version = await runCli(["--version"]);
  deepEqual(version, { code: 0, stdout: `${VERSION}\n`, stderr: "" });
});

Deno.test("a usage mistake is one line and the command's usage, exit 2", async () => {
  const cases: [string[], string][] = [
    [["gatway"], 'unknown command gatway; did you mean "gateway"?'],
    [["gateway", "--porrt", "1"], 'unknown option --porrt; did you mean "--port"?'],
    [["inspect", "--http"], "unfold inspect takes no --http"],
    [["gateway", "--config"], "--config needs a value"],
    [["gateway", "--http=yes"], "--http takes no value"],
    [["setup"], "setup needs one host name (`unfold setup --help` lists them)"],
  ];
  for (const [argv, line] of cases) {
    const run = await runCli(argv);
    equal(run.code, 2, argv.join(" "));
    equal(run.stdout, "");
    const [first, second, ...rest] = run.stderr.split("\n");
    equal(first, `unfold: ${line}`);
    ok(second!.startsWith(argv[0] === "gatway" ? "Run `unfold --help`" : "Usage: unfold "), second);
    deepEqual(rest, [""]);
  }
});

Deno.test("--config defaults to unfold's own config, in the unfold config directory", () => {
  const parsed = parseArgs(["inspect"], "/home/ada/.config/unfold/mcp.json");
  ok(parsed.ok);
  equal(parsed.value.config, "/home/ada/.config/unfold/mcp.json");
  equal(parsed.value.configGiven, false);
  deepEqual(parseArgs(["inspect"]), {
    ok: false,
    error: "--config FILE is required (no default: set UNFOLD_CONFIG_DIR, XDG_CONFIG_HOME or HOME)",
    usage: "Usage: unfold inspect [--config FILE] [--profile NAME] [--json]",
  });
});

Deno.test("without --config and without unfold's own config, the command says how to make one, exit 1", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-args-" });
  try {
    const run = await runCli(["inspect"], { UNFOLD_CONFIG_DIR: dir });
    equal(run.code, 1);
    equal(
      run.stderr,
      `unfold: cannot read the config "${dir}/mcp.json": no such file; run \`unfold setup HOST\` (HOST: ${
        HOST_NAMES.join(", ")
      }) or give --config FILE\n`,
    );
  } finally {
    await Deno.remove(dir);
  }
});

Deno.test("a --config naming a folder is one line, exit 1, not a stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "unfold-args-" });
  try {
    const run = await runCli(["inspect", "--config", dir]);
    equal(run.code, 1);
    equal(
      run.stderr,
      `unfold: cannot read the config "${dir}": it is a folder; give the config file in it\n`,
    );
  } finally {
    await Deno.remove(dir);
  }
});

Deno.test("parseArgs() reads unfold forget, with or without a profile, and needs no config", () => {
  const all = parseArgs(["forget"]);
  equal(all.ok && all.value.command, "forget");
  equal(all.ok && all.value.profile, undefined);
  const one = parseArgs(["forget", "--profile", "work"]);
  equal(one.ok && one.value.profile, "work");
  const wrong = parseArgs(["forget", "--http"]);
  equal(wrong.ok, false);
});
