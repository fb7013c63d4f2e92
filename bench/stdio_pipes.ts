/**
 * Which way of spawning a stdio server gives the faster round trip on its pipes:
 * `node:child_process` (what `src/mcp/_stdio_transport.ts` uses) or `Deno.Command`. Each spawns
 * the same Deno process that answers every JSON-RPC line with an empty result; one line is sent
 * and its answer awaited, the two alternating so that machine load hits both alike. Prints p50,
 * p90 and the mean of each, and the CPU this process spent per round trip on each (from
 * `/proc/self/stat`, one after the other: a figure that load disturbs less).
 *
 * Run: `deno run -A bench/stdio_pipes.ts [rounds=3000]`
 *
 * @module
 */
// deno-lint-ignore-file no-console

import { spawn } from "node:child_process";

const ROUNDS = Number(Deno.args[0] ?? 3_000);
const WARM_UP = 200;
// The server: one answer per line, written as soon as the line is read.
const SERVER = `
const decoder = new TextDecoder();
const encoder = new TextEncoder();
let buffered = "";
for await (const chunk of Deno.stdin.readable) {
  buffered += decoder.decode(chunk, { stream: true });
  let end;
  while ((end = buffered.indexOf("\\n")) >= 0) {
    const { id } = JSON.parse(buffered.slice(0, end));
    buffered = buffered.slice(end + 1);
    await Deno.stdout.write(encoder.encode(JSON.stringify({ jsonrpc: "2.0", id, result: {} }) + "\\n"));
  }
}`;
const ARGS = ["eval", SERVER];

interface Pipe {
  send(line: string): void;
  onLine(listener: (line: string) => void): void;
  stop(): void;
}

// Calls the listener with each line of a stream of chunks.
function lines(listener: () => (line: string) => void): (chunk: Uint8Array) => void {
  const decoder = new TextDecoder();
  let buffered = "";
  return (chunk) => {
    buffered += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffered.indexOf("\n")) >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      listener()(line);
    }
  };
}

function viaChildProcess(): Pipe {
  const child = spawn(Deno.execPath(), ARGS, { stdio: ["pipe", "pipe", "inherit"] });
  let listener = (_line: string) => {};
  child.stdout!.on("data", lines(() => listener));
  return {
    send: (line) => void child.stdin!.write(line),
    onLine: (next) => listener = next,
    stop: () => child.kill(),
  };
}

function viaDenoCommand(): Pipe {
  const child = new Deno.Command(Deno.execPath(), {
    args: ARGS,
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  let listener = (_line: string) => {};
  const read = lines(() => listener);
  void (async () => {
    for await (const chunk of child.stdout) read(chunk);
  })();
  return {
    send: (line) => void writer.write(encoder.encode(line)),
    onLine: (next) => listener = next,
    stop: () => child.kill(),
  };
}

function roundTrip(pipe: Pipe, id: number): Promise<number> {
  const start = performance.now();
  return new Promise((resolve) => {
    pipe.onLine(() => resolve(performance.now() - start));
    pipe.send(`${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`);
  });
}

const pipes: Record<string, Pipe> = {
  "node:child_process": viaChildProcess(),
  "Deno.Command": viaDenoCommand(),
};
const times: Record<string, number[]> = {};
for (const [name, pipe] of Object.entries(pipes)) {
  times[name] = [];
  for (let i = 0; i < WARM_UP; i++) await roundTrip(pipe, i);
}
for (let i = 0; i < ROUNDS; i++) {
  for (const [name, pipe] of Object.entries(pipes)) times[name]!.push(await roundTrip(pipe, i));
}
console.log("| spawned with | round trips | p50 ms | p90 ms | mean ms |");
console.log("| --- | ---: | ---: | ---: | ---: |");
for (const [name, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  const at = (q: number) => list[Math.floor(list.length * q)]!.toFixed(3);
  const mean = list.reduce((sum, time) => sum + time, 0) / list.length;
  console.log(`| ${name} | ${list.length} | ${at(0.5)} | ${at(0.9)} | ${mean.toFixed(3)} |`);
}
// This process's CPU time so far, in µs (user + system clock ticks of 10 ms).
function cpuMicros(): number {
  const fields = Deno.readTextFileSync("/proc/self/stat").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}
for (const [name, pipe] of Object.entries(pipes)) {
  const before = cpuMicros();
  for (let i = 0; i < ROUNDS; i++) await roundTrip(pipe, i);
  console.log(`${name}: ${((cpuMicros() - before) / ROUNDS).toFixed(1)} µs of CPU per round trip`);
}
console.log(`load average: ${Deno.loadavg().map((load) => load.toFixed(2)).join(" ")}`);
for (const pipe of Object.values(pipes)) pipe.stop();
Deno.exit(0);
