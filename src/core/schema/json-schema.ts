/** JSON Schema from the zod schemas, for OpenAPI, MCP and the pages. */
import { z } from 'zod';

/**
 * zod writes a bare nullable as `type: ["number", "null"]` and a constrained one as `anyOf`;
 * MCP clients flag the array form as less portable, so every nullable comes out as `anyOf`.
 * Rewrites the finished schema in place (zod folds an `anyOf` back after any override).
 */
export function portableNullables(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) portableNullables(item);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  for (const value of Object.values(schema)) portableNullables(value);
  const type = schema.type;
  if (!Array.isArray(type) || type.length !== 2 || !type.includes('null')) return;
  const { description, default: fallback, ...rest } = schema;
  for (const key of Object.keys(schema)) delete schema[key];
  Object.assign(schema, {
    anyOf: [{ ...rest, type: type.find((t) => t !== 'null') }, { type: 'null' }],
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
  });
}

/** JSON Schema (2020-12) of a zod schema, without `$schema`: for embedding in OpenAPI, MCP tool lists and pages. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  portableNullables(out);
  return out;
}

/**
 * The same for an object schema, expanded at the root: a registered schema (one with a meta
 * id) would otherwise come out as a bare `$ref`, where MCP and the data-model tables need
 * `type: "object"` with its properties.
 */
export function objectJsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  return jsonSchemaOf(z.object(schema.shape), io);
}

/**
 * Gives every `anyOf` without a `type` the union of its branches' types, and every type-less
 * `allOf` branch of a string (zod's form for several patterns) `type: "string"`. JSON Schema
 * needs neither, but Scalar's strict schema model rejects a schema without a type ("Expected
 * union value"); the added types say nothing the branches do not. `$ref`s are looked up in `components`.
 */
export function typedUnions(node: unknown, components: Record<string, { type?: unknown }>): void {
  if (Array.isArray(node)) {
    for (const item of node) typedUnions(item, components);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  for (const value of Object.values(schema)) typedUnions(value, components);
  if (Array.isArray(schema.anyOf) && schema.type === undefined) {
    const types = (schema.anyOf as { type?: unknown; $ref?: string }[]).map((b) => (b.$ref ? components[b.$ref.split('/').pop()!]?.type : b.type));
    if (types.every((t) => typeof t === 'string')) schema.type = [...new Set(types as string[])];
  }
  if (schema.type === 'string' && Array.isArray(schema.allOf)) for (const branch of schema.allOf as Record<string, unknown>[]) branch.type ??= 'string';
}
