import { equal, match } from "node:assert/strict";

Deno.test("examples/quickstart.ts injects and plays search, describe, execute and a mistake", async () => {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", "examples/quickstart.ts"],
    cwd: new URL("../..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const out = new TextDecoder().decode(stdout);
  equal(code, 0, new TextDecoder().decode(stderr));
  match(out, /^mode: manifest, listing \d+ of 1920 tokens$/m);
  match(out, /\[search\] Top 1 of 2 tools for "tell the team on slack"/);
  match(
    out,
    /\[describe\] slack\/post_message: "Post a message to a Slack channel\."\nInput schema: /,
  );
  match(out, /\[execute\] \(slack\/post_message ran with \{"channel":"#dev","text":"hi"\}\)/);
  match(out, /\[error\] Error unknown_tool: "post_message" is a bare tool name/);
});
