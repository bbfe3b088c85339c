import { z } from 'zod';

/** JSON Schema (2020-12) of a zod schema, without `$schema`: for embedding in OpenAPI, MCP tool lists and pages. */
export function jsonSchemaOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
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
