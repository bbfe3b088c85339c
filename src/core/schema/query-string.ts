/** The query-string face of a JSON-typed parameter schema: decimal text read as numbers, the words true/false (and, where a schema asks, a bare flag) as booleans. */
import type { z } from 'zod';
import { jsonSchemaOf } from './json-schema.js';

const DECIMAL = /^-?\d+(\.\d+)?$/;
const BOOLEAN_WORDS: Readonly<Record<string, boolean>> = { true: true, false: false };

interface FieldTypes {
  numeric: ReadonlySet<string>;
  boolean: ReadonlySet<string>;
}
const fieldTypes = new WeakMap<z.ZodObject, FieldTypes>();
const bareFlagSchemas = new WeakSet<z.ZodObject>();

/**
 * Marks a schema whose flags, given bare in a query string (`?with-text`, an empty value), are
 * true, as a bare HTML attribute is: the widget's, whose query parameters are its attributes.
 * Other schemas keep an empty value as text, which fails as the wrong type.
 */
export function bareFlagsAreTrue<S extends z.ZodObject>(schema: S): S {
  bareFlagSchemas.add(schema);
  return schema;
}

function typesOf(schema: z.ZodObject): FieldTypes {
  let types = fieldTypes.get(schema);
  if (!types) {
    const fields = Object.entries(schema.shape as Record<string, z.ZodType>).map(([name, field]) => ({ name, type: String(jsonSchemaOf(field, 'input').type) }));
    const named = (wanted: string[]): Set<string> => new Set(fields.filter((f) => wanted.includes(f.type)).map((f) => f.name));
    types = { numeric: named(['integer', 'number']), boolean: named(['boolean']) };
    fieldTypes.set(schema, types);
  }
  return types;
}

/**
 * Query strings carry only text, so the one schema (typed as JSON, as MCP arguments are) is
 * given numbers and booleans where it wants them: "5" becomes 5 and "true" true; "", "[5]",
 * "1" for a boolean or "true" for a number stay text and fail as the wrong type, never coerced.
 * The one exception: "" for a flag of a schema marked by bareFlagsAreTrue is true.
 */
export function fromQueryString(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  const { numeric, boolean } = typesOf(schema);
  const bare = bareFlagSchemas.has(schema);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') out[name] = value;
    else if (numeric.has(name) && DECIMAL.test(value)) out[name] = Number(value);
    else if (boolean.has(name) && Object.hasOwn(BOOLEAN_WORDS, value)) out[name] = BOOLEAN_WORDS[value];
    else if (boolean.has(name) && bare && value === '') out[name] = true;
    else out[name] = value;
  }
  return out;
}
