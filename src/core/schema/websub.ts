/** The WebSub subscription request schema. */
import { z } from 'zod';

/** C0 controls, DEL and C1 controls: never part of a URL as sent (RFC 3986 percent-encodes them). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/** A WebSub subscription request (W3C WebSub §5.1), form-encoded. Unknown fields are ignored (§5.1). */
export const HubRequestSchema = z
  .object({
  'hub.callback': z
    .string({ error: 'hub.callback is required' })
    .max(2048, 'hub.callback is longer than 2048 characters')
    // The URL parser would drop or encode them; refused instead, so what is stored and shown is what was sent.
    .refine((v) => !CONTROL_CHARACTER.test(v), { message: 'hub.callback must not contain control characters; percent-encode them', params: { code: 'invalid_callback' } })
    .refine((v) => URL.canParse(v), 'hub.callback is not a URL')
    .refine((v) => !URL.canParse(v) || new URL(v).protocol === 'https:', 'hub.callback must be an https:// URL')
    .describe("The subscriber's HTTPS callback URL; its query string is kept"),
  'hub.mode': z.enum(['subscribe', 'unsubscribe'], { error: 'hub.mode must be "subscribe" or "unsubscribe"' }),
  'hub.topic': z.string({ error: 'hub.topic is required' }).describe('One of the three topic URLs'),
  'hub.lease_seconds': z
    .string()
    // Any length: a lease beyond the maximum is clamped to it (WebSub §5.1), not refused.
    .regex(/^\d+$/, 'hub.lease_seconds must be a whole number of seconds')
    .transform(Number)
    .optional()
    .describe('Requested lease; the hub clamps it and states the granted value in the verification request'),
  'hub.secret': z
    .string()
    .refine((v) => Buffer.byteLength(v) < 200, 'hub.secret must be shorter than 200 bytes')
    .refine((v) => v.length > 0, 'hub.secret must not be empty')
    .optional()
    .describe('Key for X-Hub-Signature (HMAC-SHA256 of each delivery)'),
  })
  .describe('W3C WebSub subscription request (application/x-www-form-urlencoded)');
