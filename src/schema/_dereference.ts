/**
 * `dereference` of `@cfworker/json-schema` 4.1.6 (`src/dereference.ts`, MIT, by Jeremy Danyow and
 * contributors; see the NOTICE beside this file): the lookup of every subschema by absolute URI.
 * Vendored for one change: `encodePointer` is total. Upstream's `encodeURI` threw on a property name
 * holding a lone surrogate, so a valid schema could not be compiled (found by the fuzz suite); here
 * such a code unit becomes `%ED%xx%xx` (its generalised UTF-8), which no valid text encodes to, so
 * lookups stay unique. The base URI is fixed (upstream read `self.location`). And subschemas are not
 * registered under their JSON pointers: each pointer holds every ancestor's key, so registering
 * them all cost the schema's size times its depth (seconds for long keys nested 60 deep);
 * {@linkcode resolveReference} walks a pointer when a `$ref` needs it, to the same subschemas.
 * The keyword tables have no prototype, so a key named `constructor` is no keyword. Everything
 * else is upstream's, formatted by `deno fmt`.
 *
 * @module
 */

import type { Schema } from "@cfworker/json-schema";

// unfold: encodeURI, but total over lone surrogates.
function encodePointer(p: string): string {
  const escaped = p.replace(/~/g, "~0").replace(/\//g, "~1");
  return escaped.replace(/[\ud800-\udfff]|[^\ud800-\udfff]+/g, (part) => {
    const unit = part.charCodeAt(0);
    if (part.length === 1 && unit >= 0xd800 && unit <= 0xdfff) {
      return `%${(0xe0 | (unit >> 12)).toString(16).toUpperCase()}%${
        (0x80 | ((unit >> 6) & 0x3f)).toString(16).toUpperCase()
      }%${(0x80 | (unit & 0x3f)).toString(16).toUpperCase()}`;
    }
    return encodeURI(part).replace(/#/g, "%23");
  });
}

const uriFragmentCharacter = /^[A-Za-z0-9._~!$&'()*+,;=:@/?-]$/;
const uriPercentEncoding = /^%[0-9A-Fa-f]{2}$/;
const uriUnreservedCharacter = /^[A-Za-z0-9._~-]$/;

/**
 * Normalizes a URI fragment for comparison as described by RFC 3986.
 *
 * JSON Pointer fragments use percent-encoding for characters outside the URI
 * fragment grammar (RFC 6901 section 6). Preserve encoded reserved characters,
 * normalize hexadecimal digits to uppercase, and decode encoded unreserved
 * characters. Encoding non-URI characters also retains compatibility with
 * schema references produced without the required percent-encoding.
 */
function normalizeURIFragment(fragment: string): string {
  let normalized = "";

  for (let index = 0; index < fragment.length;) {
    const character = fragment[index];
    const encoded = fragment.slice(index, index + 3);

    if (character === "%" && uriPercentEncoding.test(encoded)) {
      const decoded = String.fromCharCode(parseInt(encoded.slice(1), 16));
      normalized += uriUnreservedCharacter.test(decoded) ? decoded : encoded.toUpperCase();
      index += 3;
      continue;
    }

    const codePoint = String.fromCodePoint(fragment.codePointAt(index)!);
    normalized += uriFragmentCharacter.test(codePoint) ? codePoint : encodeURIComponent(codePoint);
    index += codePoint.length;
  }

  return normalized;
}

function resolveURI(reference: string, baseURI: URL): URL {
  const url = new URL(reference, baseURI.href);
  url.hash = url.hash ? normalizeURIFragment(url.hash.slice(1)) : "";
  return url;
}

// unfold: the keyword tables have no prototype: a schema key named `constructor` or `toString`
// (an upstream's choice) is an unknown keyword, not one of Object.prototype's members.
function keywords(table: Record<string, boolean>): Record<string, boolean> {
  return Object.assign(Object.create(null), table);
}

const schemaArrayKeyword: Record<string, boolean> = keywords({
  prefixItems: true,
  items: true,
  allOf: true,
  anyOf: true,
  oneOf: true,
});

const schemaMapKeyword: Record<string, boolean> = keywords({
  $defs: true,
  definitions: true,
  properties: true,
  patternProperties: true,
  dependentSchemas: true,
});

const ignoredKeyword: Record<string, boolean> = keywords({
  id: true,
  $id: true,
  $ref: true,
  $schema: true,
  $anchor: true,
  $vocabulary: true,
  $comment: true,
  default: true,
  enum: true,
  const: true,
  required: true,
  dependentRequired: true,
  type: true,
  maximum: true,
  minimum: true,
  exclusiveMaximum: true,
  exclusiveMinimum: true,
  multipleOf: true,
  maxLength: true,
  minLength: true,
  pattern: true,
  format: true,
  maxItems: true,
  minItems: true,
  uniqueItems: true,
  maxProperties: true,
  minProperties: true,
});

/**
 * Default base URI for schemas without an $id.
 * https://json-schema.org/draft/2019-09/json-schema-core.html#initial-base
 * https://tools.ietf.org/html/rfc3986#section-5.1
 */
// unfold: a fixed base, not the page's location: the same lookup in every runtime.
const initialBaseURI: URL = new URL("https://github.com/cfworker");

export function dereference(
  schema: Schema | boolean,
  lookup: Record<string, Schema | boolean> = Object.create(null),
  baseURI: URL = initialBaseURI,
  basePointer = "",
): Record<string, Schema | boolean> {
  if (schema && typeof schema === "object" && !Array.isArray(schema)) {
    const id: string = schema.$id || schema["id"];
    if (id) {
      const url = resolveURI(id, baseURI);
      if (url.hash.length > 1) {
        lookup[url.href] = schema;
      } else {
        url.hash = ""; // normalize hash https://url.spec.whatwg.org/#dom-url-hash
        if (basePointer === "") {
          baseURI = url;
        } else {
          dereference(schema, lookup, baseURI);
        }
      }
    }
  } else if (schema !== true && schema !== false) {
    return lookup;
  }

  // compute the schema's URI and add it to the mapping.
  // unfold: only a resource's root; resolveReference finds the others by their pointers.
  const schemaURI = baseURI.href;
  if (basePointer === "") {
    if (lookup[schemaURI] !== undefined && lookup[schemaURI] !== schema) {
      throw new Error(`Duplicate schema URI "${schemaURI}".`);
    }
    lookup[schemaURI] = schema;
  }

  // exit early if this is a boolean schema.
  if (schema === true || schema === false) {
    return lookup;
  }

  // set the schema's absolute URI.
  // unfold: for a resource's root only (nothing reads it; a pointer would cost its depth).
  if (basePointer === "" && schema.__absolute_uri__ === undefined) {
    Object.defineProperty(schema, "__absolute_uri__", {
      enumerable: false,
      value: schemaURI,
    });
  }

  // if a $ref is found, resolve it's absolute URI.
  if (schema.$ref && schema.__absolute_ref__ === undefined) {
    const url = resolveURI(schema.$ref, baseURI);
    Object.defineProperty(schema, "__absolute_ref__", {
      enumerable: false,
      value: url.href,
    });
  }

  // if a $recursiveRef is found, resolve it's absolute URI.
  if (schema.$recursiveRef && schema.__absolute_recursive_ref__ === undefined) {
    const url = resolveURI(schema.$recursiveRef, baseURI);
    Object.defineProperty(schema, "__absolute_recursive_ref__", {
      enumerable: false,
      value: url.href,
    });
  }

  // if an $anchor is found, compute it's URI and add it to the mapping.
  if (schema.$anchor) {
    const url = resolveURI("#" + schema.$anchor, baseURI);
    lookup[url.href] = schema;
  }

  // process subschemas.
  for (const key in schema) {
    if (ignoredKeyword[key]) {
      continue;
    }
    // unfold: any non-empty pointer marks a subschema; its text is never built.
    const keyBase = "/";
    const subSchema = schema[key];
    if (Array.isArray(subSchema)) {
      if (schemaArrayKeyword[key]) {
        const length = subSchema.length;
        for (let i = 0; i < length; i++) {
          dereference(subSchema[i], lookup, baseURI, keyBase);
        }
      }
    } else if (schemaMapKeyword[key]) {
      for (const subKey in subSchema) {
        dereference(subSchema[subKey], lookup, baseURI, keyBase);
      }
    } else {
      dereference(subSchema, lookup, baseURI, keyBase);
    }
  }

  return lookup;
}

// schema identification examples
// https://json-schema.org/draft/2019-09/json-schema-core.html#rfc.appendix.A
// $ref delegation
// https://github.com/json-schema-org/json-schema-spec/issues/514
// output format
// https://json-schema.org/draft/2019-09/json-schema-core.html#output
// JSON pointer
// https://tools.ietf.org/html/rfc6901
// JSON relative pointer
// https://tools.ietf.org/html/draft-handrews-relative-json-pointer-01

// unfold: each object's keys by their encoded pointer segment, built once per object.
const segments = new WeakMap<object, Map<string, string>>();

function keyOf(node: Record<string, unknown>, segment: string): string | undefined {
  let keys = segments.get(node);
  if (keys === undefined) {
    keys = new Map();
    for (const key in node) keys.set(encodePointer(key), key);
    segments.set(node, keys);
  }
  return keys.get(segment);
}

/**
 * unfold: the subschema a `$ref`'s absolute URI names. A URI `dereference` registered (a resource's
 * root, an anchor, an `$id`) is looked up; a JSON pointer fragment is walked from its resource's
 * root through exactly the members `dereference` descends into (so it finds the subschemas that
 * upstream registered under their pointers, and nothing else), and remembered in the lookup.
 * Linear in the pointer, each object's keys encoded once.
 *
 * @param lookup The lookup `dereference` made.
 * @param uri The absolute URI (`__absolute_ref__`).
 * @returns The subschema, or `undefined`.
 */
export function resolveReference(
  lookup: Record<string, Schema | boolean>,
  uri: string,
): Schema | boolean | undefined {
  const known = lookup[uri];
  if (known !== undefined) return known;
  const hash = uri.indexOf("#");
  if (hash === -1 || uri[hash + 1] !== "/") return undefined;
  let node: unknown = lookup[uri.slice(0, hash)];
  const parts = uri.slice(hash + 2).split("/");
  for (let i = 0; i < parts.length; i++) {
    if (typeof node !== "object" || node === null || Array.isArray(node)) return undefined;
    const key = keyOf(node as Record<string, unknown>, parts[i]!);
    if (key === undefined || ignoredKeyword[key]) return undefined;
    const value = (node as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      if (!schemaArrayKeyword[key] || i + 1 === parts.length) return undefined;
      const index = parts[++i]!;
      if (!/^(?:0|[1-9][0-9]*)$/.test(index) || Number(index) >= value.length) return undefined;
      node = value[Number(index)];
    } else if (schemaMapKeyword[key]) {
      if (i + 1 === parts.length || typeof value !== "object" || value === null) return undefined;
      const subKey = keyOf(value as Record<string, unknown>, parts[++i]!);
      if (subKey === undefined) return undefined;
      node = (value as Record<string, unknown>)[subKey];
    } else node = value;
  }
  const found = typeof node === "boolean" || (typeof node === "object" && node !== null &&
      !Array.isArray(node))
    ? node as Schema | boolean
    : undefined;
  if (found !== undefined) lookup[uri] = found;
  return found;
}
