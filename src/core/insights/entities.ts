/** Entities named in reviews: technicians, services, problems and service areas, and how to match them. */
import type { Business } from '../schema/business.js';
import { wholeWordMatcher } from '../text-match.js';

/** What customers call about. Fixed list, matched as whole words in the review text. */
const PROBLEMS: readonly { id: string; label: string; phrases: string[] }[] = [
  { id: 'no_heat', label: 'No heat', phrases: ['no heat', 'not heating', 'stopped heating', 'freezing', 'heat went out', 'furnace stopped', 'furnace died'] },
  { id: 'no_cooling', label: 'No cooling', phrases: ['not cooling', 'stopped cooling', 'blowing warm', 'stopped blowing cold', 'not blowing cold', 'no ac', 'no a/c', 'ac died', 'ac went out'] },
  { id: 'no_hot_water', label: 'No hot water', phrases: ['no hot water', 'cold showers', 'water heater died', 'water heater went out'] },
  { id: 'leak', label: 'Leak', phrases: ['leak', 'leaks', 'leaking', 'leaky', 'burst pipe', 'flooded', 'flooding', 'dripping'] },
  { id: 'clog', label: 'Clog or backup', phrases: ['clog', 'clogged', 'clogs', 'backed up', 'backup', 'slow drain'] },
  { id: 'noise', label: 'Noise', phrases: ['noise', 'noisy', 'grinding', 'banging', 'rattling', 'squealing', 'buzzing'] },
  { id: 'electrical_fault', label: 'Electrical fault', phrases: ['breaker kept tripping', 'tripping', 'sparking', 'flickering', 'dead outlet', 'power went out'] },
  { id: 'error_code', label: 'Error code', phrases: ['error code', 'error codes', 'throwing an error'] },
  { id: 'short_cycling', label: 'Short cycling', phrases: ['short cycling', 'short-cycling', 'cycling on and off'] },
  { id: 'replacement', label: 'Replacement or upgrade', phrases: ['needed replacing', 'replace the', 'new unit', 'new system', 'upgrade', 'replacement'] },
  { id: 'maintenance', label: 'Routine maintenance', phrases: ['tune-up', 'tune up', 'annual service', 'maintenance', 'inspection'] },
];

export interface EntityMatchers {
  technicians: { name: string; aliases: string[]; re: RegExp }[];
  services: { id: string; label: string; re: RegExp }[];
  problems: { id: string; label: string; re: RegExp }[];
  areas: { name: string; re: RegExp }[];
}

export function entityMatchers(business: Business): EntityMatchers {
  const keep = <T extends { re: RegExp | null }>(x: T): x is T & { re: RegExp } => x.re !== null;
  return {
    technicians: business.technicians.map((t) => ({ name: t.name, aliases: t.aliases, re: wholeWordMatcher([t.name, ...t.aliases]) })).filter(keep),
    services: business.services.map((s) => ({ id: s.id, label: s.label, re: wholeWordMatcher([s.label, ...s.aliases]) })).filter(keep),
    problems: PROBLEMS.map((p) => ({ id: p.id, label: p.label, re: wholeWordMatcher(p.phrases) })).filter(keep),
    areas: business.service_areas.map((a) => ({ name: a, re: wholeWordMatcher([a]) })).filter(keep),
  };
}

/**
 * Names the reviews credit or blame in a technician's role but that are not on the roster:
 * "our tech, Sam, ...", "ask for Sam", "thanks to Sam", "Sam was great".
 */
const TECH_CONTEXT = [
  /\b(?:[Tt]ech|[Tt]echnician|[Pp]lumber|[Ee]lectrician|[Ii]nstaller|[Ss]erviceman)\s*,?\s+(?:named\s+)?([A-Z][a-z]{2,14})\b/g,
  /\b(?:[Aa]sk for|[Rr]equest|[Tt]hanks to|[Tt]hank you,?|[Kk]udos to|[Ss]hout ?out to)\s+([A-Z][a-z]{2,14})\b/g,
];
const NOT_NAMES = new Set([
  'The', 'They', 'She', 'His', 'Her', 'Our', 'This', 'That', 'Then', 'When', 'What', 'Everything', 'Nobody', 'Everyone', 'Someone',
  'Service', 'Customer', 'Office', 'Company', 'Technician', 'Tech', 'Plumber', 'Price', 'Work', 'Job', 'Today', 'Yesterday', 'Monday',
  'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Google', 'Yelp', 'Very', 'Great', 'Excellent', 'Highly', 'And',
  'But', 'Also', 'Just', 'Everybody', 'Install', 'Installation', 'Repair', 'Quality', 'Communication', 'Scheduling', 'Overall', 'Staff',
  'Thanks', 'Thank', 'Called', 'Used', 'Second', 'Nothing', 'Anyone', 'There', 'Here', 'Which', 'Who', 'How', 'Why', 'Where',
]);

/** A finder of the candidate names in a text for one business: what it skips is worked out once, not per review. */
export function technicianNameFinder(business: Business): (text: string) => string[] {
  const known = new Set(business.technicians.flatMap((t) => [t.name, ...t.aliases]).map((n) => n.toLowerCase()));
  const businessWords = new Set([...business.name.split(/\s+/), ...business.service_areas.flatMap((a) => a.split(/\s+/))]);
  return (text) => {
    const out = new Set<string>();
    for (const re of TECH_CONTEXT) {
      re.lastIndex = 0;
      for (const m of text.matchAll(re)) {
        const name = m[1]!;
        if (!NOT_NAMES.has(name) && !businessWords.has(name) && !known.has(name.toLowerCase())) out.add(name);
      }
    }
    return [...out];
  };
}
