/**
 * Orders a server's tools among themselves by meaning. Within the best results, the tools of one
 * server often all fit a request and differ in lexical score by small margins that come from
 * incidental word counts (`save_presentation` before `auto_generate_presentation`). Re-ranking
 * the whole list by meaning moves tools across servers, which the lexical ranking places better;
 * so here each server keeps the places its tools hold, and only which of its tools takes which
 * place changes: by the lexical score (relative to the best result) plus a weight times the
 * cosine of the request's and the tool's vectors.
 *
 * @module
 */

import type { ScoredDoc } from "./word_sources.ts";

/**
 * Re-orders, within each server's places among the first `depth` results, that server's tools by
 * lexical score relative to the best result plus `weight` × their cosine with the request. Every
 * place keeps its score, so the scores still fall down the list; the results after `depth` and
 * the tools alone of their server there are unchanged. Cost: one pass over `depth` results and
 * one cosine for each tool that shares its server with another.
 *
 * @param top The ranking, best first.
 * @param serverOf Each tool's server number, by tool position.
 * @param depth How many of the first results are re-ordered.
 * @param weight The weight of the cosine (0: the ranking unchanged).
 * @param cosines Each given tool's cosine with the request, in order; undefined when the request
 * has no meaning to compare (the ranking is then unchanged).
 * @returns The ranking, best first.
 *
 * @example Two tools of server 0 swap places; server 1's tool keeps its place between them
 * ```ts
 * import { orderSiblings } from "./sibling_order.ts";
 * import { deepEqual } from "node:assert/strict";
 *
 * const top = [{ doc: 0, score: 10 }, { doc: 2, score: 9.9 }, { doc: 1, score: 9.8 }];
 * const serverOf = Int32Array.from([0, 0, 1]);
 * const cos = (docs: readonly number[]) => Float64Array.from(docs, (d) => (d === 1 ? 0.9 : 0.1));
 * deepEqual(orderSiblings(top, serverOf, 10, 0.5, cos).map((hit) => hit.doc), [1, 2, 0]);
 * ```
 */
export function orderSiblings(
  top: readonly ScoredDoc[],
  serverOf: Int32Array,
  depth: number,
  weight: number,
  cosines: (docs: readonly number[]) => Float64Array | undefined,
): ScoredDoc[] {
  const head = top.slice(0, Math.max(0, depth));
  if (!(weight > 0) || head.length < 2) return [...top];
  const places = new Map<number, number[]>();
  for (let i = 0; i < head.length; i++) {
    const server = serverOf[head[i]!.doc]!;
    const list = places.get(server);
    if (list === undefined) places.set(server, [i]);
    else list.push(i);
  }
  const shared = [...places.values()].filter((list) => list.length > 1);
  if (shared.length === 0) return [...top];
  const positions = shared.flat();
  const cos = cosines(positions.map((i) => head[i]!.doc));
  if (cos === undefined) return [...top];
  const key = new Float64Array(head.length);
  const best = head[0]!.score;
  positions.forEach((i, k) => key[i] = head[i]!.score / best + weight * cos[k]!);
  const ordered = [...top];
  for (const list of shared) {
    const docs = [...list].sort((a, b) => key[b]! - key[a]! || a - b).map((i) => head[i]!.doc);
    list.forEach((place, k) => ordered[place] = { doc: docs[k]!, score: head[place]!.score });
  }
  return ordered;
}
