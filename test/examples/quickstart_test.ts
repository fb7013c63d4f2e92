import { match } from "node:assert/strict";
import { runExample } from "./_run.ts";

Deno.test("examples/quickstart.ts injects and plays search, describe, execute and a mistake", async () => {
  const out = await runExample(Deno.execPath(), ["run", "--quiet", "examples/quickstart.ts"]);
  match(out, /^mode: manifest, listing \d+ of 1920 tokens$/m);
  match(out, /\[search\] Top 1 of 2 tools for "tell the team on slack"/);
  match(
    out,
    /\[describe\] slack\/post_message: "Post a message to a Slack channel\."\nInput schema: /,
  );
  match(out, /\[execute\] \(slack\/post_message ran with \{"channel":"#dev","text":"hi"\}\)/);
  match(out, /\[error\] Error unknown_tool: "post_message" is a bare tool name/);
});
