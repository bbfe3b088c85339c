/** The business profile schema. */
import { z } from 'zod';
import { WebUrl } from './common.js';

const AddressSchema = z
  .object({
    street_address: z.string().max(200).optional().describe('Street and number'),
    locality: z.string().max(100).optional().describe('City or town'),
    region: z.string().max(100).optional().describe('State, province or county'),
    postal_code: z.string().max(20).optional().describe('Postal or ZIP code'),
    country: z.string().max(100).optional().describe('Country name or ISO 3166-1 code'),
  })
  .strict()
  .meta({ id: 'Address', description: 'Postal address (schema.org PostalAddress)' });

const GeoSchema = z
  .object({
    latitude: z.number().min(-90).max(90).describe('Degrees north (negative: south)'),
    longitude: z.number().min(-180).max(180).describe('Degrees east (negative: west)'),
  })
  .strict()
  .meta({ id: 'Geo', description: 'WGS 84 coordinates' });

const Weekday = z.enum(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
const ClockTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a 24-hour time HH:MM');

const OpeningHoursSchema = z
  .object({
    days: z.array(Weekday).min(1).describe('Days these hours apply to'),
    opens: ClockTime.describe('Opening time, HH:MM (24-hour, local time)'),
    closes: ClockTime.describe('Closing time, HH:MM; 00:00 with opens 00:00 means open all day'),
  })
  .strict()
  .meta({ id: 'OpeningHours', description: 'One opening-hours rule (schema.org OpeningHoursSpecification)' });

const Slug = z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, 'must be a lower-case id of letters, digits, _ or -');

const ServiceSchema = z
  .object({
    id: Slug.describe('Stable service id, used by mentions_service'),
    label: z.string().min(1).max(100).describe('Display name'),
    aliases: z.array(z.string().min(1).max(100)).default([]).describe('Other words customers use for it'),
  })
  .strict()
  .meta({ id: 'Service', description: 'A service the business offers' });

const TechnicianSchema = z
  .object({
    name: z.string().min(1).max(100).describe('Name as customers write it'),
    aliases: z.array(z.string().min(1).max(100)).default([]).describe('Nicknames and full names'),
  })
  .strict()
  .meta({ id: 'Technician', description: 'A member of staff customers may name in reviews' });

const CustomAspectSchema = z
  .object({
    id: Slug.describe('New aspect id (must not be a built-in one)'),
    label: z.string().min(1).max(100).describe('Display name of the aspect'),
    cues: z.array(z.string().min(1).max(100)).min(1).describe('Words that mention the aspect'),
    positive: z.array(z.string().min(1).max(100)).default([]).describe('Phrases that praise it'),
    negative: z.array(z.string().min(1).max(100)).default([]).describe('Phrases that criticise it'),
  })
  .strict()
  .meta({ id: 'CustomAspect', description: 'An aspect the operator adds to the built-in taxonomy' });

/** Whether the runtime knows the IANA time zone (Intl throws a RangeError for one it does not). */
function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export const BusinessSchema = z
  .object({
    name: z.string().trim().min(1).max(200).describe('Business name'),
    description: z.string().max(2000).optional().describe('What the business does, in a sentence or two'),
    url: WebUrl.optional().describe("The business's own website"),
    telephone: z.string().max(40).optional().describe('Public phone number, as it should be shown'),
    email: z.email().optional().describe('Public contact e-mail address'),
    address: AddressSchema.optional().describe('Postal address'),
    geo: GeoSchema.optional().describe('Location on the map'),
    opening_hours: z.array(OpeningHoursSchema).optional().describe('Opening hours, one rule per set of days'),
    time_zone: z
      .string()
      .max(64)
      .refine(isTimeZone, 'must be an IANA time zone such as "America/Los_Angeles"')
      .optional()
      .describe('IANA time zone of the opening hours, e.g. "America/Los_Angeles"; the review page says from it whether the business is open now (from the visitor\'s clock when not given)'),
    service_areas: z.array(z.string().min(1).max(100)).default([]).describe('Towns and districts served'),
    services: z.array(ServiceSchema).default([]).describe('Services offered; insights count the reviews that mention each'),
    technicians: z.array(TechnicianSchema).default([]).describe('Staff customers may name; insights count the reviews that mention each'),
    custom_aspects: z.array(CustomAspectSchema).optional().describe('Aspects added to the built-in taxonomy for insights'),
    schema_org_type: z
      .string()
      .regex(/^[A-Z][A-Za-z]{2,60}$/, 'must be a schema.org type name such as "Plumber"')
      .optional()
      .describe('The most specific schema.org LocalBusiness type for the page markup, e.g. "HVACBusiness", "Plumber", "Electrician"; LocalBusiness when not given'),
    same_as: z
      .array(WebUrl)
      .max(20)
      .optional()
      .describe("The business's own profiles on other sites (Google Business Profile, Yelp, Facebook ...), for schema.org sameAs"),
    hide_technician_table: z
      .boolean()
      .optional()
      .describe('true: the review page leaves out its table of technicians with their review counts and ratings (scores of named employees); insights and the API are unchanged'),
  })
  .strict()
  .meta({ id: 'Business', description: 'The business whose reviews this service publishes' });
export type Business = z.infer<typeof BusinessSchema>;
