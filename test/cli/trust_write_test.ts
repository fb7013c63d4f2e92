// deno-lint-ignore-file no-console
// `unfold approve` edits the lock file as a transaction: two approves at once each keep the
// other's approvals (both read the lock before either writes, as two processes listing their
// upstreams do), a writer's turn between the re-read and the rename is taken in, a symlinked lock
// stays a symlink, its mode stays, a read-only lock is refused in one line with nothing written,
// and a running gateway still notices a change made at a symlink's target.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { approveCommand } from "../../src/cli/approve.ts";
import { type LockedTrust, openTrust, readLock, watchLock } from "../../src/cli/trust.ts";
import { lockEntry, serializeLock } from "../../src/gateway/trust/lock.ts";
import type { McpTool } from "../../src/tool.ts";

const ROUNDS = 20;

const tool = (name: string): McpTool => ({
  server: "s",
  name,
  description: `Does ${name}`,
  inputSchema: { type: "object" },
});

/** A config folder of its own, and approve's lines kept rather than printed. */
async function box() {
  const dir = await Deno.makeTempDir({ prefix: "unfold-trust-write-" });
  const config = `${dir}/mcp.json`;
  const env = { UNFOLD_CONFIG_DIR: `${dir}/unfold` };
  const open = async (): Promise<LockedTrust> => {
    const opened = await openTrust(config, { pinned: [], trust: "pin" }, "approve", env);
    if (!opened.ok) throw new Error(opened.error);
    return opened.value;
  };
  return {
    dir,
    lock: `${dir}/unfold.lock.json`,
    open,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** Runs `fn` with console output kept: the lines to stderr are returned. */
async function quiet<T>(fn: () => Promise<T>): Promise<{ value: T; err: string[] }> {
  const { log, error } = console;
  const err: string[] = [];
  console.log = () => {};
  console.error = (line: unknown) => err.push(String(line));
  try {
    return { value: await fn(), err };
  } finally {
    Object.assign(console, { log, error });
  }
}

async function approvedIds(path: string): Promise<string[]> {
  const read = await readLock(path);
  if (!read.ok) throw new Error(read.error);
  return Object.keys(read.value?.tools ?? {}).sort();
}

Deno.test(`two approves at once each keep the other's approvals (${ROUNDS} rounds)`, async () => {
  await using b = await box();
  const tools: McpTool[] = [];
  const expected: string[] = [];
  let lost = 0;
  for (let round = 0; round < ROUNDS; round++) {
    tools.push(tool(`a${round}`), tool(`b${round}`));
    // Both read the lock first, as two `unfold approve` processes do before listing upstreams.
    const [one, two] = [await b.open(), await b.open()];
    const { value: codes } = await quiet(() =>
      Promise.all([
        approveCommand(one, tools, [`s/a${round}`]),
        approveCommand(two, tools, [`s/b${round}`]),
      ])
    );
    deepEqual(codes, [0, 0]);
    expected.push(`s/a${round}`, `s/b${round}`);
    const have = new Set(await approvedIds(b.lock));
    lost += expected.filter((id) => !have.has(id)).length;
    // A lost approval is approved again, so that each round counts its own losses only.
    if (expected.some((id) => !have.has(id))) {
      await quiet(async () => approveCommand(await b.open(), tools, "all"));
    }
  }
  equal(lost, 0, `${lost} approvals lost over ${ROUNDS} rounds`);
  deepEqual(await approvedIds(b.lock), expected.sort());
});

Deno.test(`a writer's turn before approve's rename is taken in (${ROUNDS} rounds)`, async () => {
  await using b = await box();
  const tools: McpTool[] = [];
  let turns = 0;
  for (let round = 0; round < ROUNDS; round++) {
    tools.push(tool(`mine${round}`));
    const theirs = tool(`theirs${round}`);
    let written = false;
    const hooks = {
      beforeRename(target: string) {
        turns++;
        if (written) return;
        written = true;
        // Another writer adds its approval between approve's re-read and its rename.
        const text = Deno.readTextFileSync(target);
        const lock = JSON.parse(text);
        lock.tools[`s/theirs${round}`] = lockEntry(theirs);
        Deno.writeTextFileSync(target, serializeLock(lock));
      },
    };
    if (round === 0) await Deno.writeTextFile(b.lock, serializeLock({ version: 2, tools: {} }));
    const { value: code, err } = await quiet(async () =>
      approveCommand(await b.open(), tools, [`s/mine${round}`], false, hooks)
    );
    equal(code, 0, err.join("\n"));
    const have = await approvedIds(b.lock);
    ok(have.includes(`s/mine${round}`) && have.includes(`s/theirs${round}`), have.join(", "));
  }
  ok(turns >= 2 * ROUNDS, `approve wrote again after the other writer's turn (${turns} turns)`);
});

Deno.test("approve keeps a symlinked lock a symlink, and the lock's mode", async () => {
  await using b = await box();
  await Deno.mkdir(`${b.dir}/dotfiles`);
  const target = `${b.dir}/dotfiles/unfold.lock.json`;
  await Deno.writeTextFile(target, serializeLock({ version: 2, tools: {} }));
  await Deno.chmod(target, 0o640);
  await Deno.symlink(target, b.lock);
  const { value: code } = await quiet(async () =>
    approveCommand(await b.open(), [tool("t")], "all")
  );
  equal(code, 0);
  ok((await Deno.lstat(b.lock)).isSymlink, "the lock is still a symlink");
  equal(await Deno.readLink(b.lock), target);
  deepEqual(await approvedIds(target), ["s/t"]);
  equal((await Deno.stat(target)).mode! & 0o777, 0o640);
  // No temporary file is left beside the link or the target.
  for (const folder of [b.dir, `${b.dir}/dotfiles`]) {
    for await (const entry of Deno.readDir(folder)) ok(!entry.name.endsWith(".tmp"), entry.name);
  }
});

Deno.test("approve keeps a lock of mode 0600 at 0600, and makes a new one 0600", async () => {
  await using b = await box();
  const { value: first } = await quiet(async () =>
    approveCommand(await b.open(), [tool("t")], "all")
  );
  equal(first, 0);
  equal((await Deno.stat(b.lock)).mode! & 0o777, 0o600);
  await Deno.chmod(b.lock, 0o600);
  const { value: again } = await quiet(async () =>
    approveCommand(await b.open(), [tool("t"), tool("u")], "all")
  );
  equal(again, 0);
  equal((await Deno.stat(b.lock)).mode! & 0o777, 0o600);
});

Deno.test("approve refuses a read-only lock in one line and writes nothing", async () => {
  await using b = await box();
  const bytes = serializeLock({ version: 2, tools: { "s/old": lockEntry(tool("old")) } });
  await Deno.writeTextFile(b.lock, bytes);
  await Deno.chmod(b.lock, 0o444);
  const { value: code, err } = await quiet(async () =>
    approveCommand(await b.open(), [tool("old"), tool("new")], "all")
  );
  equal(code, 1);
  const refusal = err.filter((line) => line.startsWith("unfold: cannot approve"));
  equal(refusal.length, 1, err.join("\n"));
  match(refusal[0]!, /is read-only \(mode 0444\): nothing was written; make it writable/);
  ok(!refusal[0]!.includes("\n"));
  equal(await Deno.readTextFile(b.lock), bytes);
  equal((await Deno.stat(b.lock)).mode! & 0o777, 0o444);
});

Deno.test("approve refuses a lock broken meanwhile, and leaves it as it is", async () => {
  await using b = await box();
  const locked = await b.open();
  await Deno.writeTextFile(b.lock, "{ not json");
  const { value: code, err } = await quiet(() => approveCommand(locked, [tool("t")], "all"));
  equal(code, 1);
  match(err.at(-1)!, /^unfold: cannot approve: the lock file .* is /);
  equal(await Deno.readTextFile(b.lock), "{ not json");
});

Deno.test("a running gateway notices an approval written at a symlinked lock's target", async () => {
  await using b = await box();
  await Deno.mkdir(`${b.dir}/dotfiles`);
  const target = `${b.dir}/dotfiles/unfold.lock.json`;
  await Deno.writeTextFile(target, serializeLock({ version: 2, tools: {} }));
  await Deno.symlink(target, b.lock);
  const stop = new AbortController();
  const changed = Promise.withResolvers<void>();
  watchLock(b.lock, () => changed.resolve(), stop.signal);
  try {
    const { value: code } = await quiet(async () =>
      approveCommand(await b.open(), [tool("t")], "all")
    );
    equal(code, 0);
    // The watcher's event, or a failure after a bound (never a pass by waiting).
    let timer: ReturnType<typeof setTimeout> | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("no change seen in 10 s")), 10_000);
    });
    await Promise.race([changed.promise, bound]).finally(() => clearTimeout(timer));
  } finally {
    stop.abort();
  }
});
