/** Schema pieces shared by the other schemas: dates and web URLs. */
import { z } from 'zod';

/** A calendar date, `YYYY-MM-DD`; impossible dates such as 2026-02-30 are rejected. */
export const IsoDate = z.iso.date().describe('Calendar date, YYYY-MM-DD');

/** IsoDate as a request parameter: one plain message for whatever is wrong with it (the import words its own). */
export const IsoDateParam = z.iso.date({ error: 'must be a real date written YYYY-MM-DD, e.g. 2026-03-14' }).describe('Calendar date, YYYY-MM-DD');

/** Only web URLs: review text and pages link to these, so `javascript:` and friends are refused. */
export const WebUrl = z.url({ protocol: /^https?$/ }).max(2048);

/** ULID: 26 characters of Crockford base32, sortable by time. */
export const Ulid = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Z]{26}$/, 'must be a ULID (26 characters, Crockford base32)')
  .describe('Stable review id (ULID); the merge key across re-imports');
