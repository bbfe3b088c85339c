/** Validation of query and path parameters against zod schemas, with every problem named. */
import type { z } from 'zod';
import type { ValidationIssue } from '../core/schema/error.js';
import { fromQueryString } from '../core/schema/query-string.js';
import { UNDECODABLE, type ParsedQuery } from './form.js';

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** Messages quote what was sent up to this many characters, enough to recognise it; a longer value (a 200-character query) is cut. */
const QUOTED_CHARS = 40;

/** Said of a parameter parseQuery could not decode, naming the two usual causes: a byte of another charset, a bare "%". */
const NOT_UTF8 = 'must be valid percent-encoded UTF-8: é is %C3%A9, and a literal "%" is %25';

/** Text as a message quotes it: cut at QUOTED_CHARS code points, with an ellipsis. */
function quoted(text: string): string {
  const chars = [...text];
  return `"${chars.length > QUOTED_CHARS ? `${chars.slice(0, QUOTED_CHARS).join('')}…` : text}"`;
}

/**
 * Validates query-string or path values against a zod object schema. A parameter given twice
 * is refused rather than silently picking one, one that is not valid percent-encoded UTF-8
 * (listed by parseQuery) rather than read as its raw text, and unknown names are named in the answer.
 */
export function validateParams<S extends z.ZodObject>(schema: S, raw: Record<string, unknown>): Validated<z.infer<S>> {
  const issues: ValidationIssue[] = [];
  const undecodable = new Set((raw as ParsedQuery)[UNDECODABLE]);
  const single: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (undecodable.has(name)) issues.push({ parameter: name, code: 'invalid_encoding', message: `${NOT_UTF8}${typeof value === 'string' ? ` (got ${quoted(value)})` : ''}` });
    else if (Array.isArray(value)) issues.push({ parameter: name, code: 'repeated_parameter', message: `${quoted(name)} was given ${value.length} times; give it once` });
    else single[name] = value;
  }
  const known = Object.keys(schema.shape);
  const parsed = schema.safeParse(fromQueryString(schema, single));
  if (parsed.success) return issues.length ? { ok: false, issues } : { ok: true, value: parsed.data };
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = known.length ? `known parameters: ${known.join(', ')}` : 'this endpoint takes no query parameters';
        issues.push({ parameter: key, code: 'unknown_parameter', message: `unknown parameter ${quoted(key)}; ${hint}` });
      }
    } else {
      const parameter = String(issue.path[0] ?? '');
      const given = single[parameter];
      const suffix = typeof given === 'string' ? ` (got ${quoted(given)})` : '';
      issues.push({ parameter, code: issue.code, message: `${issue.message}${suffix}` });
    }
  }
  return { ok: false, issues };
}
