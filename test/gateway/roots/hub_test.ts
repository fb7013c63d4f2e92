import { deepEqual, equal, match } from "node:assert/strict";
import { RootsHub } from "../../../src/gateway/roots/hub.ts";
import type { Scheduler } from "../../../src/utils/deadline.ts";

const answer = (...uris: string[]) => ({ roots: uris.map((uri) => ({ uri })) });

// A clock moved by hand: `tick()` runs what is due.
function clock(): { schedule: Scheduler; tick: () => void; pending: () => number } {
  const due = new Set<() => void>();
  return {
    schedule: (run) => {
      due.add(run);
      return () => void due.delete(run);
    },
    tick: () => {
      for (const run of [...due]) {
        due.delete(run);
        run();
      }
    },
    pending: () => due.size,
  };
}

// How many times each upstream was told its roots changed.
function told(hub: RootsHub, ...servers: string[]) {
  const counts: Record<string, number> = {};
  for (const server of servers) {
    counts[server] = 0;
    hub.upstream(server).onChanged(() => counts[server]!++);
  }
  return counts;
}

Deno.test("an upstream is given no roots until a host that sees it gives some, then told once", async () => {
  const hub = new RootsHub();
  const counts = told(hub, "fs");
  deepEqual(await hub.upstream("fs").list(), []);
  const host = hub.scope(() => true).open(() => "h");
  host.declared();
  // Declared, not answered: none (the wait is over at once: nothing waits with a settled host).
  host.answered(answer("file:///a"));
  deepEqual(await hub.upstream("fs").list(), [{ uri: "file:///a" }]);
  equal(counts.fs, 1);
  // The same roots again: no notification.
  host.answered(answer("file:///a"));
  equal(counts.fs, 1);
  host.answered(answer("file:///b"));
  equal(counts.fs, 2);
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///b" }]);
  // The host goes: none again, told.
  host.close();
  equal(counts.fs, 3);
  deepEqual(hub.rootsFor("fs"), []);
});

Deno.test("a host without roots narrows nothing, and its answers are ignored", () => {
  const hub = new RootsHub();
  const scope = hub.scope(() => true);
  const rooted = scope.open(() => "rooted");
  rooted.declared();
  rooted.answered(answer("file:///a"));
  const plain = scope.open(() => "plain");
  plain.undeclared();
  plain.answered(answer("file:///elsewhere"));
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a" }]);
});

Deno.test("each scope's roots reach only the servers it sees; shared servers get what all allow", () => {
  const hub = new RootsHub();
  const counts = told(hub, "fs", "notes");
  const wide = hub.scope(() => true).open(() => "wide");
  wide.declared();
  wide.answered(answer("file:///w"));
  const narrow = hub.scope((server) => server === "fs").open(() => "narrow");
  narrow.declared();
  narrow.answered(answer("file:///w/a"));
  const other = hub.scope((server) => server === "notes").open(() => "other");
  other.declared();
  other.answered(answer("file:///w/b"));
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///w/a" }]);
  deepEqual(hub.rootsFor("notes"), [{ uri: "file:///w/b" }]);
  deepEqual(hub.rootsFor("unseen"), [{ uri: "file:///w" }]);
  // Each told twice more than once: a session still to answer narrows to nothing meanwhile.
  deepEqual(counts, { fs: 3, notes: 3 });
});

Deno.test("a refused answer or a failed ask fails closed, logged once per host connection", () => {
  const lines: string[] = [];
  const hub = new RootsHub({ log: (line) => lines.push(line) });
  const host = hub.scope(() => true).open(() => "the host session s1");
  host.declared();
  host.answered(answer("file:///a"));
  host.answered(answer("https://example.com/"));
  deepEqual(hub.rootsFor("fs"), []);
  host.answered({ roots: Array.from({ length: 10_000 }, () => ({ uri: "file:///a" })) });
  host.failed("no answer within 10000 ms");
  equal(lines.length, 1);
  match(lines[0]!, /^roots of the host session s1: its roots\/list answer is refused: root 0 is/);
  // A good answer again: its roots are given on again.
  host.answered(answer("file:///a"));
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a" }]);
  host.failed("x".repeat(10_000));
  deepEqual(hub.rootsFor("fs"), []);
  // What a host's error says is quoted, cut: it writes no line of its own into the log.
  const liar = hub.scope(() => true).open(() => "liar");
  liar.declared();
  liar.failed(`bad\nroots of everyone: fine${"!".repeat(1_000)}`);
  equal(lines.length, 2);
  equal(lines[1]!.includes("\n"), false);
  equal(lines[1]!.length < 400, true, lines[1]);
});

Deno.test("an upstream's roots/list waits for a host still to answer, within a bound", async () => {
  const time = clock();
  const hub = new RootsHub({ schedule: time.schedule });
  const counts = told(hub, "fs");
  const host = hub.scope(() => true).open(() => "h");
  host.declared();
  const asked = hub.upstream("fs").list();
  host.answered(answer("file:///a"));
  // The answer is the list's: no notification on top.
  deepEqual(await asked, [{ uri: "file:///a" }]);
  equal(counts.fs, 0);
  // A host that never answers: it narrows to nothing at once (told), and the wait of an upstream
  // that asks ends with its clock, and gives none.
  const silent = hub.scope(() => true).open(() => "silent");
  silent.declared();
  equal(counts.fs, 1);
  const waiting = hub.upstream("fs").list();
  // (The first wait's timer, ended by the answer, is still on the clock: deadline() keeps it.)
  equal(time.pending(), 2);
  time.tick();
  deepEqual(await waiting, []);
  // Its answer, late, is told.
  silent.answered(answer("file:///a/b"));
  deepEqual(hub.rootsFor("fs"), [{ uri: "file:///a/b" }]);
  equal(counts.fs, 2);
});

Deno.test("the stdio gateway's upstreams wait for its host to say whether it has roots", async () => {
  const time = clock();
  const hub = new RootsHub({ awaitHost: true, schedule: time.schedule });
  const first = hub.upstream("fs").list();
  const host = hub.scope(() => true).open(() => "stdio");
  // Connected, not yet initialized: still waiting.
  equal(time.pending(), 1);
  host.undeclared();
  deepEqual(await first, []);
  // A host that never comes: the wait is bounded.
  const lonely = new RootsHub({ awaitHost: true, schedule: time.schedule });
  const waiting = lonely.upstream("fs").list();
  time.tick();
  deepEqual(await waiting, []);
});

Deno.test("an upstream flooding roots/list while a host is to answer costs one wait", async () => {
  const time = clock();
  const hub = new RootsHub({ schedule: time.schedule });
  const host = hub.scope(() => true).open(() => "h");
  host.declared();
  const asks = Array.from({ length: 10_000 }, () => hub.upstream("fs").list());
  equal(time.pending(), 1);
  host.answered(answer("file:///a"));
  const answers = await Promise.all(asks);
  equal(answers.length, 10_000);
  deepEqual(answers[9_999], [{ uri: "file:///a" }]);
  // Each answer is its own: one changed by its receiver changes no other.
  answers[0]![0]!.uri = "file:///changed";
  deepEqual(await hub.upstream("fs").list(), [{ uri: "file:///a" }]);
});
