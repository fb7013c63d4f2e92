/**
 * A proxy on 127.0.0.1 that refuses everything and writes down what was asked of it: given to a
 * host and its MCP servers as `HTTP(S)_PROXY`, it shows every attempt to leave the machine (the
 * first line of each request: `CONNECT dl.deno.land:443 HTTP/1.1`) and lets none through.
 *
 * @module
 */

/** A running refusing proxy. */
export interface RefusingProxy extends AsyncDisposable {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** The first line of every request, in order. */
  asked: string[];
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts a refusing proxy.
 *
 * @returns The proxy, listening on a port the system chose.
 */
export function refusingProxy(): RefusingProxy {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const asked: string[] = [];
  const open = new Set<Deno.Conn>();
  const serving = (async () => {
    for await (const conn of listener) {
      open.add(conn);
      void (async () => {
        try {
          const buffer = new Uint8Array(4096);
          const n = await conn.read(buffer);
          const head = new TextDecoder().decode(buffer.subarray(0, n ?? 0));
          asked.push(head.split("\r\n", 1)[0] ?? "");
          await conn.write(
            new TextEncoder().encode(
              "HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
            ),
          );
        } catch {
          // the client went first
        } finally {
          open.delete(conn);
          try {
            conn.close();
          } catch {
            // closed
          }
        }
      })();
    }
  })().catch(() => {});
  const addr = listener.addr as Deno.NetAddr;
  const close = async () => {
    listener.close();
    for (const conn of open) {
      try {
        conn.close();
      } catch {
        // closed
      }
    }
    await serving;
  };
  return { url: `http://127.0.0.1:${addr.port}`, asked, close, [Symbol.asyncDispose]: close };
}
