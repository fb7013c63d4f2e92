import { deepEqual, equal, match } from "node:assert/strict";
import {
  type CheckedRoot,
  checkRoots,
  MAX_ROOT_NAME_CHARS,
  MAX_ROOT_URI_CHARS,
  MAX_ROOTS,
  sharedRoots,
} from "../../../src/gateway/roots/check.ts";

function roots(...uris: string[]): CheckedRoot[] {
  const checked = checkRoots({ roots: uris.map((uri) => ({ uri })) });
  if (!checked.ok) throw new Error(checked.error.message);
  return checked.value;
}

function refused(result: unknown): string {
  const checked = checkRoots(result);
  equal(checked.ok, false);
  return checked.ok ? "" : checked.error.message;
}

Deno.test("a host's roots are file:// URIs, kept as sent with their names", () => {
  const checked = checkRoots({
    roots: [{ uri: "file:///home/me/a/", name: "A", _meta: { x: 1 } }, {
      uri: "file://localhost/srv",
    }],
  });
  equal(checked.ok, true);
  deepEqual(checked.ok && checked.value, [
    { root: { uri: "file:///home/me/a/", name: "A" }, path: "/home/me/a" },
    { root: { uri: "file://localhost/srv" }, path: "/srv" },
  ]);
  deepEqual(checkRoots({ roots: [] }), { ok: true, value: [] });
});

Deno.test("a hostile roots answer is refused whole, saying why", () => {
  match(refused(undefined), /no "roots" list/);
  match(refused({ roots: "file:///a" }), /no "roots" list/);
  match(refused({ roots: [{ uri: "https://example.com/" }] }), /root 0 is not a file:\/\/ URI/);
  match(refused({ roots: [{ uri: "file:///a" }, { uri: "/plain/path" }] }), /root 1 is not/);
  match(refused({ roots: [{ uri: "file://server/share" }] }), /not a file:\/\/ URI/);
  match(refused({ roots: [{ uri: "file:///a?x=1" }] }), /without query or fragment/);
  match(refused({ roots: [{ uri: "file:///a#top" }] }), /without query or fragment/);
  match(refused({ roots: [{ uri: 1 }] }), /root 0 has no "uri"/);
  match(refused({ roots: [null] }), /root 0 has no "uri"/);
  match(refused({ roots: [{ uri: "file:///a", name: 3 }] }), /name is no string/);
  const many = Array.from({ length: 10_000 }, (_, i) => ({ uri: `file:///r/${i}` }));
  match(refused({ roots: many }), new RegExp(`10000 roots, more than the ${MAX_ROOTS}`));
  const long = `file:///${"a".repeat(1_000_000)}`;
  match(refused({ roots: [{ uri: long }] }), new RegExp(`over ${MAX_ROOT_URI_CHARS}`));
  const named = { uri: "file:///a", name: "n".repeat(MAX_ROOT_NAME_CHARS + 1) };
  match(refused({ roots: [named] }), new RegExp(`over ${MAX_ROOT_NAME_CHARS}`));
  // At the bounds, taken.
  const bounded = Array.from({ length: MAX_ROOTS }, (_, i) => ({ uri: `file:///r/${i}` }));
  equal(checkRoots({ roots: bounded }).ok, true);
});

Deno.test("several hosts' roots meet where each allows: never more than any one", () => {
  const uris = (list: { uri: string }[]) => list.map((root) => root.uri);
  deepEqual(sharedRoots([]), []);
  deepEqual(uris(sharedRoots([roots("file:///a", "file:///b")])), ["file:///a", "file:///b"]);
  // A folder and one inside it: the inner one.
  deepEqual(uris(sharedRoots([roots("file:///home"), roots("file:///home/me/p")])), [
    "file:///home/me/p",
  ]);
  // Disjoint: nothing.
  deepEqual(sharedRoots([roots("file:///a"), roots("file:///b")]), []);
  // A host with no roots allows nothing.
  deepEqual(sharedRoots([roots("file:///a"), []]), []);
  // A sibling with a common prefix is not inside.
  deepEqual(sharedRoots([roots("file:///a"), roots("file:///a-b")]), []);
  deepEqual(uris(sharedRoots([roots("file:///a", "file:///a-b"), roots("file:///a/x")])), [
    "file:///a/x",
  ]);
  // Three hosts: what all three allow.
  deepEqual(
    uris(sharedRoots([
      roots("file:///w"),
      roots("file:///w/a", "file:///w/b"),
      roots("file:///w/b/c", "file:///w/a"),
    ])),
    ["file:///w/a", "file:///w/b/c"],
  );
  // The root folder contains everything.
  deepEqual(uris(sharedRoots([roots("file:///"), roots("file:///x")])), ["file:///x"]);
});

Deno.test("many hosts' roots meet within bounds", () => {
  // 1,000 sessions of 64 roots each, all different: bounded work, bounded answer.
  const hosts = Array.from(
    { length: 1_000 },
    (_, h) => roots(...Array.from({ length: MAX_ROOTS }, (_, i) => `file:///w/${i}/${h % 7}`)),
  );
  deepEqual(sharedRoots(hosts), []);
  const same = Array.from({ length: 1_000 }, () => roots("file:///w"));
  deepEqual(sharedRoots(same).map((root) => root.uri), ["file:///w"]);
});
