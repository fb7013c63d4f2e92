/**
 * One fresh V8 isolate serving its first request with the built Worker bundle (run by
 * `bench/cold_isolate.ts`, one process per measurement). The Durable Object bindings are stand-ins
 * that hand back a structured clone of what was stored (as an RPC result is deserialised); the CPU
 * time is the whole process's (every thread: an upper bound of the isolate's own), from just before
 * the bundle is imported to the end of the response body.
 *
 * Args: `<bundle.js> <record.json> <mode: store | ref | value> <body.json>`; prints one JSON line.
 *
 * @module
 */
// deno-lint-ignore-file no-console

import process from "node:process";

const [bundle, recordPath, mode, bodyPath] = Deno.args as [string, string, string, string];
const body = Deno.readTextFileSync(bodyPath);
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
    load: () => Promise.resolve(record.text ? structuredClone(record) : undefined),
  }),
};
const sessions = { idFromName: () => undefined, get: () => ({}) };
const request = () =>
  new Request("http://unfold.test/v1/route", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });

// This thread's CPU time (the isolate's, as Workers count it), in ms: Linux schedstat, in ns.
const threadMs = () =>
  Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
// The bindings, as cloudflare:workers exposes them at startup (the stand-in module reads this).
(globalThis as Record<string, unknown>).workerEnv = { SESSIONS: sessions, CATALOGS: catalogs };
const before = process.cpuUsage();
const threadBefore = threadMs();
const t0 = performance.now();
const worker = (await import(bundle)).default;
const imported = process.cpuUsage(before);
const threadImported = threadMs();
const response = await worker.fetch(request(), { SESSIONS: sessions, CATALOGS: catalogs });
const text = await response.text();
const total = process.cpuUsage(before);
const threadDone = threadMs();
const wall = performance.now() - t0;
if (response.status !== 200) throw new Error(`${response.status}: ${text.slice(0, 500)}`);
// The same request again in this isolate: warm.
const warmBefore = process.cpuUsage();
await (await worker.fetch(request(), { SESSIONS: sessions, CATALOGS: catalogs })).text();
const warm = process.cpuUsage(warmBefore);
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
  threadRequestMs: threadDone - threadImported,
  importMs: ms(imported),
  requestMs: ms(total) - ms(imported),
  totalMs: ms(total),
  wallMs: wall,
  warmMs: ms(warm),
  parseMs: ms(parse),
  indexStored: record.index !== undefined,
}));
