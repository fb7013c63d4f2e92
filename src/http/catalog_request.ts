/**
 * Reading an inject or route request and finding its catalogue: by the text that arrived (a warm
 * request parses only the small rest of its body; its catalogue is neither parsed nor validated
 * again), by reference (`catalogRef`), or validated in full on a miss. Every answer equals what
 * parsing and validating the whole body would give: any request the quick way cannot settle goes
 * the whole way, so its problems are the same.
 *
 * @module
 */

import type * as z from "zod/mini";
import type { McpTool, ServerInfo } from "../tool.ts";
import { type Parsed, parseText, readBody } from "./body.ts";
import { type CachedCatalog, type CatalogCache, catalogText } from "./catalog_cache.ts";
import { splitMembers } from "./json_members.ts";
import { NATIVE_KINDS, type NativeKind } from "./native_schemas.ts";
import { problem } from "./problems.ts";
import type { RequestSchemas } from "./schemas.ts";

/** What a catalogue request needs. */
export interface CatalogRequestDeps {
  /** The deployment's schemas. */
  schemas: RequestSchemas;
  /** The catalogue cache. */
  cache: CatalogCache;
  /** The largest body accepted, in bytes. */
  maxBytes: number;
}

/** The body of an inject request, without its catalogue. */
export type InjectBody = z.output<RequestSchemas["InjectRest"]>;
/** The body of a route request, without its catalogue. */
export type RouteBody = z.output<RequestSchemas["RouteRest"]>;
/** The body of a native route's request, without its catalogue. */
export type NativeBody<K extends NativeKind> = z.output<
  RequestSchemas[`${(typeof NATIVE_KINDS)[K]}Rest`]
>;
/** The body of an explain request, without its catalogue. */
export type ExplainBody = z.output<RequestSchemas["ExplainRest"]>;
/** A kind of catalogue request. */
export type Kind = "inject" | "route" | "explain" | NativeKind;
/** The body of a kind of catalogue request, without its catalogue. */
export type CatalogBody<K extends Kind> = K extends "inject" ? InjectBody
  : K extends "route" ? RouteBody
  : K extends "explain" ? ExplainBody
  : K extends NativeKind ? NativeBody<K>
  : never;
type AnyBody = { catalogRef?: string | undefined };

/**
 * Reads an inject or route request: its body (without the catalogue) and its cached catalogue.
 *
 * @param request The request.
 * @param tenant The tenant it comes from.
 * @param kind Which route: `inject`, `route` or `explain`.
 * @param deps Schemas, cache and size limit.
 * @returns The body and the catalogue, or a problem response (`catalog_unknown` for a reference
 * this server does not hold, `invalid_catalog` and the body's other problems).
 *
 * @example Usage
 * ```ts
 * import { readCatalogRequest } from "./catalog_request.ts";
 * import { CatalogCache } from "./catalog_cache.ts";
 * import { httpSchemas } from "./schemas.ts";
 * import { DEFAULT_SETTINGS } from "./settings.ts";
 * import { sha256Hex } from "../canonical_json.ts";
 * import { equal } from "node:assert/strict";
 *
 * const deps = { schemas: httpSchemas(DEFAULT_SETTINGS), cache: new CatalogCache({ hash: sha256Hex }), maxBytes: 1e6 };
 * const catalog = [{ server: "s", name: "t", inputSchema: { type: "object" } }];
 * const headers = { "content-type": "application/json" };
 * const post = (body: unknown) => new Request("http://x/", { method: "POST", headers, body: JSON.stringify(body) });
 * const first = await readCatalogRequest(post({ catalog }), "", "inject", deps);
 * if (!first.ok) throw new Error("unexpected");
 * const again = await readCatalogRequest(post({ catalogRef: first.value.entry.catalogHash }), "", "inject", deps);
 * equal(again.ok && again.value.entry, first.value.entry);
 * ```
 */
export function readCatalogRequest(
  request: Request,
  tenant: string,
  kind: "inject",
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: InjectBody; entry: CachedCatalog }>>;
export function readCatalogRequest(
  request: Request,
  tenant: string,
  kind: "route",
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: RouteBody; entry: CachedCatalog }>>;
export function readCatalogRequest(
  request: Request,
  tenant: string,
  kind: "explain",
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: ExplainBody; entry: CachedCatalog }>>;
export function readCatalogRequest<K extends NativeKind>(
  request: Request,
  tenant: string,
  kind: K,
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: NativeBody<K>; entry: CachedCatalog }>>;
export async function readCatalogRequest(
  request: Request,
  tenant: string,
  kind: Kind,
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: AnyBody; entry: CachedCatalog }>> {
  const read = await readBody(request, deps.maxBytes);
  if (!read.ok) return read;
  const text = read.value;
  const quick = byText(text, tenant, kind, deps);
  if (quick !== undefined) return await quick;
  // The whole way: parse and validate everything, then find or add the catalogue.
  const parsed = parseText(text, schemasOf(kind, deps.schemas).whole);
  if (!parsed.ok) return parsed;
  const { catalog, servers, ...body } = parsed.value as AnyBody & {
    catalog?: unknown[];
    servers?: unknown[];
  };
  if (catalog === undefined) return byRef(body, tenant, deps.cache);
  return added(body, tenant, undefined, catalog, servers, deps.cache);
}

// The quick way, or undefined when the whole body must be parsed to decide.
function byText(
  text: string,
  tenant: string,
  kind: Kind,
  deps: CatalogRequestDeps,
): Promise<Parsed<{ body: AnyBody; entry: CachedCatalog }>> | undefined {
  const split = splitMembers(text, ["catalog", "servers"]);
  if (split === undefined) return undefined;
  const restSchema = schemasOf(kind, deps.schemas).rest;
  let rest: unknown;
  try {
    rest = JSON.parse(split.rest);
  } catch {
    return undefined;
  }
  const valid = restSchema.safeParse(rest);
  if (!valid.success) return undefined;
  const body = valid.data as AnyBody;
  const catalog = split.values.get("catalog");
  const servers = split.values.get("servers");
  if (catalog === undefined) {
    return servers === undefined && body.catalogRef !== undefined
      ? byRef(body, tenant, deps.cache)
      : undefined;
  }
  if (body.catalogRef !== undefined) return undefined;
  const key = catalogText(catalog, servers);
  const hit = deps.cache.byText(tenant, key);
  if (hit !== undefined) return Promise.resolve({ ok: true, value: { body, entry: hit } });
  let part: unknown;
  try {
    part = JSON.parse(
      `{"catalog":${catalog}${servers === undefined ? "" : `,"servers":${servers}`}}`,
    );
  } catch {
    return undefined;
  }
  const validPart = deps.schemas.CatalogPart.safeParse(part);
  if (!validPart.success) return undefined;
  return added(body, tenant, key, validPart.data.catalog, validPart.data.servers, deps.cache);
}

async function byRef<B extends AnyBody>(
  body: B,
  tenant: string,
  cache: CatalogCache,
): Promise<Parsed<{ body: B; entry: CachedCatalog }>> {
  const entry = await cache.byHash(tenant, body.catalogRef!);
  if (entry !== undefined) return { ok: true, value: { body, entry } };
  return {
    ok: false,
    response: problem(
      "catalog_unknown",
      `This server does not hold the catalogue ${body.catalogRef}: send it again as "catalog" ` +
        `(with its "servers"), then use the catalogHash of the answer`,
      [{ pointer: "/catalogRef", message: "is not a catalogue this server holds" }],
    ),
  };
}

async function added<B extends AnyBody>(
  body: B,
  tenant: string,
  text: string | undefined,
  catalog: readonly unknown[],
  servers: readonly unknown[] | undefined,
  cache: CatalogCache,
): Promise<Parsed<{ body: B; entry: CachedCatalog }>> {
  // zod leaves absent optional fields absent, as McpTool and ServerInfo expect.
  const added = await cache.add(
    tenant,
    text,
    catalog as McpTool[],
    (servers ?? []) as ServerInfo[],
  );
  if (added.ok) return { ok: true, value: { body, entry: added.value } };
  const e = added.error;
  return {
    ok: false,
    response: problem("invalid_catalog", e.message, [{ pointer: e.pointer, message: e.rule }]),
  };
}

// The schemas of a kind of request: the whole body, and the body without its catalogue.
function schemasOf(
  kind: Kind,
  schemas: RequestSchemas,
): { whole: z.ZodMiniType; rest: z.ZodMiniType } {
  if (kind === "inject") return { whole: schemas.InjectRequest, rest: schemas.InjectRest };
  if (kind === "route") return { whole: schemas.RouteRequest, rest: schemas.RouteRest };
  if (kind === "explain") return { whole: schemas.ExplainRequest, rest: schemas.ExplainRest };
  const name = NATIVE_KINDS[kind];
  return { whole: schemas[`${name}Request`], rest: schemas[`${name}Rest`] };
}
