// editFile, the whole transaction every writer of a user's file goes through: concurrent edits
// each keep the other's change; a writer's turn between the read and the rename makes the change
// again from what is there; the same bytes write nothing; a file's mode is kept unless one is
// asked for; a read-only file is refused in one line; a change that fails writes nothing; a file
// that never stops changing is given up on after MAX_EDIT_TRIES.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { editFile, MAX_EDIT_TRIES, type Outcome } from "../../src/utils/file_transaction.ts";

const ROUNDS = 20;
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes ?? new Uint8Array());
const append = (line: string) => (bytes: Uint8Array | undefined): Outcome<Uint8Array> => ({
  ok: true,
  value: new TextEncoder().encode(`${text(bytes)}${line}\n`),
});

async function folder() {
  const dir = await Deno.makeTempDir({ prefix: "unfold-transaction-" });
  return {
    dir,
    file: `${dir}/list.txt`,
    lockDir: `${dir}/locks`,
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test(`two edits at once each keep the other's change (${ROUNDS} rounds)`, async () => {
  await using f = await folder();
  const expected: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const done = await Promise.all([
      editFile(f.file, append(`a${round}`), { lockDir: f.lockDir }),
      editFile(f.file, append(`b${round}`), { lockDir: f.lockDir }),
    ]);
    ok(done.every((d) => d.ok));
    expected.push(`a${round}`, `b${round}`);
  }
  deepEqual((await Deno.readTextFile(f.file)).trim().split("\n").sort(), expected.sort());
});

Deno.test("a writer's turn before the rename: the change is made again from what is there", async () => {
  await using f = await folder();
  await Deno.writeTextFile(f.file, "first\n");
  let changes = 0;
  let turns = 0;
  const done = await editFile(f.file, (bytes) => (changes++, append("mine")(bytes)), {
    lockDir: f.lockDir,
    hooks: {
      beforeRename(target) {
        if (turns++ === 0) Deno.writeTextFileSync(target, "first\ntheirs\n");
      },
    },
  });
  ok(done.ok);
  equal(changes, 2);
  equal(await Deno.readTextFile(f.file), "first\ntheirs\nmine\n");
});

Deno.test("the same bytes write nothing; a mode is kept unless one is asked for", async () => {
  await using f = await folder();
  await Deno.writeTextFile(f.file, "same\n");
  await Deno.chmod(f.file, 0o640);
  const before = (await Deno.stat(f.file)).ino;
  let turns = 0;
  const same = await editFile(f.file, (bytes) => ({ ok: true, value: bytes }), {
    lockDir: f.lockDir,
    hooks: { beforeRename: () => void turns++ },
  });
  ok(same.ok);
  equal(turns, 0);
  equal((await Deno.stat(f.file)).ino, before);
  ok((await editFile(f.file, append("more"), { lockDir: f.lockDir })).ok);
  equal((await Deno.stat(f.file)).mode! & 0o777, 0o640);
  ok((await editFile(f.file, append("secret"), { lockDir: f.lockDir, mode: 0o600 })).ok);
  equal((await Deno.stat(f.file)).mode! & 0o777, 0o600);
});

Deno.test("a read-only file is refused in one line, with the way out the writer names", async () => {
  await using f = await folder();
  await Deno.writeTextFile(f.file, "kept\n");
  await Deno.chmod(f.file, 0o444);
  const plain = await editFile(f.file, append("x"), { lockDir: f.lockDir });
  equal(plain.ok, false);
  const line = plain.ok ? "" : plain.error;
  match(line, /list\.txt is read-only \(mode 0444\): nothing was written; make it writable/);
  ok(!line.includes("--scope") && !line.includes("\n"), line);
  const setup = await editFile(f.file, append("x"), { lockDir: f.lockDir, leaveOut: "(--file)" });
  match(setup.ok ? "" : setup.error, /or leave it out \(--file\)$/);
  equal(await Deno.readTextFile(f.file), "kept\n");
  // A writer that sets the mode (a secret's 0600) owns the file: written, at that mode.
  ok((await editFile(f.file, append("x"), { lockDir: f.lockDir, mode: 0o600 })).ok);
  equal((await Deno.stat(f.file)).mode! & 0o777, 0o600);
});

Deno.test("a change that fails writes nothing; a file that keeps changing is given up on", async () => {
  await using f = await folder();
  await Deno.writeTextFile(f.file, "kept\n");
  const refused = await editFile(f.file, () => ({ ok: false, error: "no" }), {
    lockDir: f.lockDir,
  });
  deepEqual(refused, { ok: false, error: "no" });
  let turns = 0;
  const busy = await editFile(f.file, append("mine"), {
    lockDir: f.lockDir,
    hooks: { beforeRename: (target) => Deno.writeTextFileSync(target, `turn ${turns++}\n`) },
  });
  equal(turns, MAX_EDIT_TRIES);
  match(busy.ok ? "" : busy.error, /kept changing while it was written \(16 tries\)/);
  equal(await Deno.readTextFile(f.file), `turn ${MAX_EDIT_TRIES - 1}\n`);
  deepEqual([...Deno.readDirSync(f.dir)].filter((e) => e.name.endsWith(".tmp")), []);
});
