/**
 * Waits for a process that is not the test's child to exit, on the kernel's word: a pidfd
 * (`pidfd_open`, Linux 5.3) becomes readable when its process exits, so the wait ends on that
 * event, not on a look at `/proc` every so often. The tests use it for the upstreams a gateway
 * starts and stops. Needs `--allow-ffi` (the integration stage runs with every permission).
 *
 * @module
 */

const SYS_PIDFD_OPEN = 434n;
const POLLIN = 1;

const SYMBOLS = {
  syscall: { parameters: ["i64", "i64", "i64"], result: "i64" },
  // Off the main thread: the wait blocks a worker thread, never the test's event loop.
  poll: { parameters: ["buffer", "u64", "i32"], result: "i32", nonblocking: true },
  close: { parameters: ["i32"], result: "i32" },
} as const;

/**
 * Waits until the process `pid` has exited (a zombie not yet reaped has exited), at most `ms`.
 *
 * @param pid The process.
 * @param ms The longest wait: an upper bound only, the wait ends when the process does.
 * @returns Whether it exited within the time (`true` at once when there is no such process).
 */
export async function processExit(pid: number, ms: number): Promise<boolean> {
  const libc = Deno.dlopen("libc.so.6", SYMBOLS);
  try {
    const fd = Number(libc.symbols.syscall(SYS_PIDFD_OPEN, BigInt(pid), 0n));
    // ESRCH: no such process (gone and reaped). Any other failure would hide a live process.
    if (fd < 0) return !(await exists(`/proc/${pid}`));
    try {
      const entry = new Uint8Array(8); // struct pollfd { int fd; short events; short revents; }
      const view = new DataView(entry.buffer);
      view.setInt32(0, fd, true);
      view.setInt16(4, POLLIN, true);
      const end = performance.now() + ms;
      for (;;) {
        const left = Math.max(0, Math.min(Math.ceil(end - performance.now()), 2 ** 31 - 1));
        const ready = await libc.symbols.poll(entry, 1n, left);
        // -1: interrupted by a signal (the test's own children exiting), so wait again.
        if (ready >= 0 || left === 0) return ready > 0;
      }
    } finally {
      libc.symbols.close(fd);
    }
  } finally {
    libc.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
