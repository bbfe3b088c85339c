/** The demo business profile (fictional), seeded into an empty database so a first start shows something. */
import type { Business } from '../schema/business.js';

/** The demo business served when the database is empty: a fictional home-services company. */
export const DEMO_BUSINESS: Business = {
  name: 'Northwind Home Services',
  description:
    'Family-run heating, cooling, plumbing and electrical repair for homes in the Portland metro area since 2009. Demo data: the company and its reviews are fictional.',
  url: 'https://northwind-home.example',
  schema_org_type: 'HVACBusiness',
  same_as: ['https://reviews.example.com/google/northwind-home-services', 'https://reviews.example.com/yelp/northwind-home-services'],
  telephone: '+1-503-555-0142',
  email: 'hello@northwind-home.example',
  address: { street_address: '2150 SE Division St', locality: 'Portland', region: 'OR', postal_code: '97202', country: 'US' },
  geo: { latitude: 45.5048, longitude: -122.6431 },
  opening_hours: [
    { days: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], opens: '07:00', closes: '19:00' },
    { days: ['saturday'], opens: '08:00', closes: '16:00' },
  ],
  time_zone: 'America/Los_Angeles',
  service_areas: ['Portland', 'Beaverton', 'Gresham', 'Lake Oswego', 'Tigard', 'Hillsboro', 'Milwaukie'],
  services: [
    { id: 'ac_repair', label: 'AC repair', aliases: ['air conditioning', 'air conditioner', 'AC', 'A/C', 'heat pump'] },
    { id: 'furnace_repair', label: 'Furnace repair', aliases: ['furnace', 'heater', 'heating'] },
    { id: 'water_heater', label: 'Water heater', aliases: ['water heater', 'tankless', 'hot water'] },
    { id: 'drain_cleaning', label: 'Drain cleaning', aliases: ['drain', 'clog', 'clogged', 'sewer line'] },
    { id: 'leak_repair', label: 'Leak repair', aliases: ['leak', 'leaking', 'burst pipe'] },
    { id: 'electrical', label: 'Electrical repair', aliases: ['electrical', 'breaker', 'panel', 'wiring', 'outlet'] },
    { id: 'maintenance', label: 'Maintenance plan', aliases: ['tune-up', 'maintenance', 'annual service'] },
  ],
  technicians: [
    { name: 'Marco', aliases: ['Marco Diaz'] },
    { name: 'Priya', aliases: ['Priya Shah'] },
    { name: 'Tom', aliases: ['Tommy', 'Tom Becker'] },
    { name: 'Lena', aliases: ['Lena Ortiz'] },
    { name: 'Dwayne', aliases: ['DJ', 'Dwayne Carter'] },
  ],
};
