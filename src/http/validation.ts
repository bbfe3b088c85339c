/** Validation of query and path parameters against zod schemas, with every problem named. */
import type { z } from 'zod';
import type { ValidationIssue } from '../core/schema/error.js';
import { fromQueryString } from '../core/schema/query-string.js';

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/**
 * Validates query-string or path values against a zod object schema. A parameter given twice
 * is refused rather than silently picking one, and unknown names are named in the answer.
 */
export function validateParams<S extends z.ZodObject>(schema: S, raw: Record<string, unknown>): Validated<z.infer<S>> {
  const issues: ValidationIssue[] = [];
  const single: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) issues.push({ parameter: name, code: 'repeated_parameter', message: `"${name}" was given ${value.length} times; give it once` });
    else single[name] = value;
  }
  const parsed = schema.safeParse(fromQueryString(schema, single));
  if (parsed.success) return issues.length ? { ok: false, issues } : { ok: true, value: parsed.data };
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        issues.push({ parameter: key, code: 'unknown_parameter', message: `unknown parameter "${key}"; known parameters: ${Object.keys(schema.shape).join(', ')}` });
      }
    } else {
      const parameter = String(issue.path[0] ?? '');
      const given = single[parameter];
      const suffix = typeof given === 'string' ? ` (got "${given}")` : '';
      issues.push({ parameter, code: issue.code, message: `${issue.message}${suffix}` });
    }
  }
  return { ok: false, issues };
}
