import { deepEqual, equal } from "node:assert/strict";
import { type FileRead, readRegularFile } from "../../src/utils/regular_file.ts";

// A read that blocked (as reading a named pipe with no writer did) fails the test instead of
// hanging it: the bound is a hang guard, not a timing.
async function guarded(read: Promise<FileRead>): Promise<FileRead> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("the read is still waiting")), 10_000);
  });
  return await Promise.race([read, hung]).finally(() => clearTimeout(timer));
}

async function mkfifo(path: string): Promise<void> {
  const made = await new Deno.Command("mkfifo", { args: [path] }).output();
  equal(made.code, 0, new TextDecoder().decode(made.stderr));
}

Deno.test("readRegularFile() refuses a named pipe with no writer at once instead of waiting", async () => {
  const dir = await Deno.makeTempDir();
  await mkfifo(`${dir}/pipe`);
  const read = await guarded(readRegularFile(`${dir}/pipe`, 1024));
  deepEqual(read, { ok: false, code: "not_regular", reason: "it is not a regular file" });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readRegularFile() refuses a folder and a device, which stat sizes at 0", async () => {
  const dir = await Deno.makeTempDir();
  equal((await guarded(readRegularFile(dir, 1024))).ok, false);
  deepEqual(await guarded(readRegularFile("/dev/zero", 1024)), {
    ok: false,
    code: "not_regular",
    reason: "it is not a regular file",
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readRegularFile() reads a file up to its limit and refuses one byte more", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(`${dir}/a`, "é".repeat(8)); // 16 bytes
  deepEqual(await readRegularFile(`${dir}/a`, 16), { ok: true, text: "é".repeat(8) });
  deepEqual(await readRegularFile(`${dir}/a`, 15), {
    ok: false,
    code: "too_large",
    reason: "it is over 15 bytes",
  });
  await Deno.writeTextFile(`${dir}/empty`, "");
  deepEqual(await readRegularFile(`${dir}/empty`, 15), { ok: true, text: "" });
  deepEqual(await readRegularFile(`${dir}/missing`, 15), {
    ok: false,
    code: "not_found",
    reason: "no such file",
  });
  await Deno.remove(dir, { recursive: true });
});
