/** The WebSub subscription request schema. */
import { z } from 'zod';

/** A WebSub subscription request (W3C WebSub §5.1), form-encoded. Unknown fields are ignored (§5.1). */
export const HubRequestSchema = z
  .object({
  'hub.callback': z
    .string({ error: 'hub.callback is required' })
    .max(2048, 'hub.callback is longer than 2048 characters')
    .refine((v) => URL.canParse(v), 'hub.callback is not a URL')
    .refine((v) => !URL.canParse(v) || new URL(v).protocol === 'https:', 'hub.callback must be an https:// URL')
    .describe("The subscriber's HTTPS callback URL; its query string is kept"),
  'hub.mode': z.enum(['subscribe', 'unsubscribe'], { error: 'hub.mode must be "subscribe" or "unsubscribe"' }),
  'hub.topic': z.string({ error: 'hub.topic is required' }).describe('One of the three topic URLs'),
  'hub.lease_seconds': z
    .string()
    .regex(/^\d{1,10}$/, 'hub.lease_seconds must be a whole number of seconds')
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
