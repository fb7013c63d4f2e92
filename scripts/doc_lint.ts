/**
 * `deno doc --lint` over the package's public surface, as `deno task test` runs it: the root
 * alone (the core names nothing outside itself) and every `deno.json` export together (a
 * subpath may name the root's types). The entries are read from `deno.json`, so a new export is
 * linted without editing a list.
 *
 * Usage: `deno run --allow-read --allow-run scripts/doc_lint.ts`
 *
 * @module
 */

const root = new URL("..", import.meta.url);
const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", root)));
const entries = Object.values(config.exports as Record<string, string>);

for (const files of [["./mod.ts"], entries]) {
  const linted = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--lint", ...files],
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!linted.success) {
    await Deno.stderr.write(
      new TextEncoder().encode(`deno doc --lint ${files.join(" ")} failed\n`),
    );
    Deno.exit(1);
  }
}
