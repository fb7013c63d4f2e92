import { deepEqual, equal } from "node:assert/strict";
import { PROBLEMS } from "../src/http/problems.ts";
import { SETTING_VARIABLES } from "../src/http/settings.ts";
import { startDenoServer } from "./e2e/_processes.ts";

const README = await Deno.readTextFile(new URL("../README.md", import.meta.url));

Deno.test("the README's curl session runs against deno task start as documented", async () => {
  const marker = README.indexOf("`test/readme_test.ts` runs this very block");
  const start = README.indexOf("```sh\n", marker) + "```sh\n".length;
  const block = README.slice(start, README.indexOf("```\n", start));
  const server = await startDenoServer();
  try {
    // One JSON answer per line: a newline after every curl.
    const script = block.replaceAll("localhost:8787", server.url.replace("http://", ""))
      .replaceAll("curl -s ", "curl -s -w '\\n' ");
    const { code, stdout, stderr } = await new Deno.Command("bash", {
      args: ["-euo", "pipefail", "-c", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(code, 0, new TextDecoder().decode(stderr));
    const answers = new TextDecoder().decode(stdout).trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    equal(answers.length, 6);
    const [inject, search, early, execute, result, session] = answers;
    equal(inject.injection.mode, "manifest");
    equal(inject.injection.bridgeTool.function.name, "mcp");
    equal(search.matches[0].id, "slack/post_message");
    equal(early.error.code, "describe_first");
    deepEqual([execute.action, execute.arguments], ["execute", { channel: "#dev", text: "hi" }]);
    deepEqual(result, { toolResult: "ok", isError: false });
    deepEqual([session.generation, session.described, session.counters.executes], [1, [
      "slack/post_message",
    ], 1]);
  } finally {
    await server.close();
  }
});

Deno.test("the README's error table lists every problem code with its status, and no other", () => {
  const start = README.indexOf("| status | code ");
  const rows = README.slice(start, README.indexOf("\n\n", start)).split("\n").slice(2);
  const documented = rows.map((row) => {
    const [, status, code] = row.split("|").map((cell) => cell.trim());
    return `${status} ${code!.replaceAll("`", "")}`;
  });
  deepEqual(
    documented.sort(),
    Object.entries(PROBLEMS).map(([code, { status }]) => `${status} ${code}`).sort(),
  );
});

Deno.test("the README's settings table lists every UNFOLD_ variable, and no other", () => {
  const start = README.indexOf("| variable ");
  const rows = README.slice(start, README.indexOf("\n\n", start)).split("\n").slice(2);
  deepEqual(
    rows.map((row) => row.split("|")[1]!.trim().replaceAll("`", "")).sort(),
    Object.values(SETTING_VARIABLES).sort(),
  );
});
