/**
 * One fresh V8 isolate serving its first request with the built Worker bundle (run by
 * `bench/cold_isolate.ts`, one process per measurement). The Durable Object bindings are stand-ins
 * that hand back what was stored as an RPC result arrives (V8-serialised beforehand, deserialised
 * in the request). CPU time: this thread's (the isolate's) from the call of the Worker's `fetch` to
 * its Response (building the request and streaming the response are the runtime's), the module's
 * import apart; and the whole process's (every thread), an upper bound.
 *
 * The `ASSETS` binding hands back the ranking data's file (read before the clock starts: on Workers
 * the runtime delivers an asset's bytes), so the first request includes opening it.
 *
 * Args: `<bundle.js> <record.json> <mode: store | ref | value> <body.json> <ranking data>`; prints
 * one JSON line.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import process from "node:process";
import v8 from "node:v8";

const [bundle, recordPath, mode, bodyPath, assetsPath] = Deno.args as [
  string,
  string,
  string,
  string,
  string,
];
const body = Deno.readTextFileSync(bodyPath);
const assetBytes = Deno.readFileSync(assetsPath);
const assets = { fetch: () => Promise.resolve(new Response(assetBytes)) };
type Stored = { text?: string[]; index?: { format: string; chunks: Uint8Array[] } };
let record: Stored = {};
if (mode === "ref") {
  const saved = JSON.parse(Deno.readTextFileSync(recordPath));
  record = {
    text: saved.text,
    ...(saved.index
      ? {
        index: {
          format: saved.index.format,
          chunks: Array.from(
            { length: saved.index.chunks },
            (_, i) => Deno.readFileSync(`${recordPath}.index.${i}`),
          ),
        },
      }
      : {}),
  };
}
const catalogs = {
  idFromName: (name: string) => name,
  get: () => ({
    save: (text: string[]) => Promise.resolve(void (record = { text: structuredClone(text) })),
    saveIndex: (format: string, chunks: Uint8Array[]) => {
      record.index = { format, chunks: structuredClone(chunks) };
      return Promise.resolve(true);
    },
    // As an RPC result arrives: serialised by the Durable Object (its CPU, done here beforehand),
    // deserialised by this isolate.
    load: () => Promise.resolve(serialised ? v8.deserialize(serialised) : undefined),
  }),
};
const serialised = mode === "ref" ? v8.serialize(record) : undefined;
const sessions = { idFromName: () => undefined, get: () => ({}) };
const request = () =>
  new Request("http://unfold.test/v1/route", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });

// This thread's CPU time (the isolate's, as Workers count it), in ms: clock_gettime of
// CLOCK_THREAD_CPUTIME_ID through libc (exact when read; /proc schedstat lags by a scheduler tick).
const libc = Deno.dlopen("libc.so.6", {
  clock_gettime: { parameters: ["i32", "buffer"], result: "i32" },
});
const timespec = new BigInt64Array(2);
const threadMs = () => {
  libc.symbols.clock_gettime(3, timespec); // CLOCK_THREAD_CPUTIME_ID
  return Number(timespec[0]!) * 1e3 + Number(timespec[1]!) / 1e6;
};
// The bindings, as cloudflare:workers exposes them at startup (the stand-in module reads this).
const env = { SESSIONS: sessions, CATALOGS: catalogs, ASSETS: assets };
(globalThis as Record<string, unknown>).workerEnv = env;
const before = process.cpuUsage();
const threadBefore = threadMs();
const t0 = performance.now();
const worker = (await import(bundle)).default;
const imported = process.cpuUsage(before);
const threadImported = threadMs();
// The request arrives built and the response leaves through the runtime (native in workerd):
// measured is what the Worker's code does between them.
const first = request();
const threadFetch = threadMs();
const response = await worker.fetch(first, env);
const total = process.cpuUsage(before);
const threadDone = threadMs();
const text = await response.text();
const wall = performance.now() - t0;
if (response.status !== 200) throw new Error(`${response.status}: ${text.slice(0, 500)}`);
// The same request again in this isolate: warm (the median of 9 more, this thread's time).
const warmBefore = process.cpuUsage();
await (await worker.fetch(request(), env)).text();
const warm = process.cpuUsage(warmBefore);
const warmTimes: number[] = [];
for (let i = 0; i < 9; i++) {
  const warmRequest = request();
  const threadWarm = threadMs();
  const warmResponse = await worker.fetch(warmRequest, env);
  warmTimes.push(threadMs() - threadWarm);
  await warmResponse.text();
}
const ranker = response.headers.get("unfold-ranker");
const parseBefore = process.cpuUsage();
JSON.parse(body);
const parse = process.cpuUsage(parseBefore);
const ms = (u: { user: number; system: number }) => (u.user + u.system) / 1000;
if (mode === "store") {
  const index = record.index;
  index?.chunks.forEach((chunk, i) => Deno.writeFileSync(`${recordPath}.index.${i}`, chunk));
  Deno.writeTextFileSync(
    recordPath,
    JSON.stringify({
      text: record.text,
      ...(index ? { index: { format: index.format, chunks: index.chunks.length } } : {}),
    }),
  );
}
console.log(JSON.stringify({
  threadImportMs: threadImported - threadBefore,
  threadRequestMs: threadDone - threadFetch,
  importMs: ms(imported),
  requestMs: ms(total) - ms(imported),
  totalMs: ms(total),
  wallMs: wall,
  warmMs: ms(warm),
  threadWarmMs: warmTimes.sort((a, b) => a - b)[4],
  ranker,
  parseMs: ms(parse),
  indexStored: record.index !== undefined,
}));
