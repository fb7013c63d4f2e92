/**
 * The program of a Deno sandbox process: a `deno run` with no permissions, whose main module is
 * this text as a `data:` URL (nothing on disk to find or change). It builds a `node:vm` context
 * with code generation from strings and WebAssembly off (no `eval`, no `new Function`, and no
 * dynamic `import()`: the context has no import callback), compiles the harness and the script in
 * it, and carries the harness's messages over its pipes: one JSON text a line, stdout out, stdin
 * in. The context's global is an ordinary object (`DONT_CONTEXTIFY`), so the script reaches no
 * object of the process's own realm, which keeps only its pipes, its clock for the harness's
 * CPU reads.
 *
 * @module
 */
// deno-lint-ignore-file no-explicit-any

/**
 * The child's main function, sent as source (it uses nothing from outside itself).
 *
 * @param vm The `node:vm` module.
 * @param process The `node:process` module (its `cpuUsage`).
 */
export async function childMain(vmModule: unknown, processModule: unknown): Promise<void> {
  const vm = vmModule as any;
  const process = processModule as any;
  const D: any = (globalThis as any).Deno;
  const stdin = D.stdin;
  const stdout = D.stdout;
  const exit = D.exit;
  const later = setTimeout;
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  // The process's realm keeps what it needs, and loses the rest (walls behind the context's;
  // `Deno` stays, since node:process reads the CPU time through it).
  for (
    const name of [
      "fetch",
      "WebSocket",
      "Worker",
      "EventSource",
      "caches",
      "navigator",
      "BroadcastChannel",
    ]
  ) {
    try {
      delete (globalThis as any)[name];
    } catch { /* not configurable: left */ }
  }
  let writing: Promise<void> = Promise.resolve();
  const write = (text: string): Promise<void> => {
    const bytes = encoder.encode(text + "\n");
    writing = writing.then(async () => {
      for (let at = 0; at < bytes.length;) at += await stdout.write(bytes.subarray(at));
    });
    return writing;
  };
  const cpu = () => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  // A script's promise rejected with no handler is the script's affair, never the process's end.
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  const reader = stdin.readable.getReader();
  let buffer = "";
  const nextLine = async (): Promise<string | undefined> => {
    for (;;) {
      const newline = buffer.indexOf("\n");
      if (newline !== -1) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        return line;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += decoder.decode(value, { stream: true });
    }
  };
  const first = await nextLine();
  if (first === undefined) return exit(0);
  const init = JSON.parse(first);
  const context = vm.createContext(vm.constants.DONT_CONTEXTIFY, {
    codeGeneration: { strings: false, wasm: false },
  });
  const harness = vm.runInContext(init.harness, context, { filename: "harness.js" });
  let factory: unknown;
  try {
    factory = vm.runInContext(init.script, context, { filename: "script.js" });
  } catch (error: any) {
    await write(JSON.stringify({
      op: "done",
      ok: false,
      error: { kind: "syntax_error", message: String(error?.message ?? error).slice(0, 500) },
    }));
    return exit(0);
  }
  const base = cpu();
  const api = harness({
    post: (text: string) => void write(text),
    finish: (text: string) => void write(text).then(() => exit(0)),
    schedule: (task: () => void) => void later(task, 0),
    cpuMs: () => cpu() - base,
  }, init.settings);
  (async () => {
    for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
      if (line !== "") api.receive(line);
    }
  })();
  api.start(factory);
}

/**
 * The child program as a `data:` URL for `deno run`.
 *
 * @example Usage
 * ```ts
 * import { CHILD_PROGRAM } from "./_sandbox_child.ts";
 * import { ok } from "node:assert/strict";
 *
 * ok(CHILD_PROGRAM.startsWith("data:text/javascript,"));
 * ```
 */
export const CHILD_PROGRAM: string = `data:text/javascript,${
  encodeURIComponent(
    `import vm from "node:vm";\nimport process from "node:process";\n(${
      String(childMain)
    })(vm, process);\n`,
  )
}`;
