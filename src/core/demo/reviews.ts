/** Demo reviews for the demo business, the same on every machine (a seeded generator). */
import { deterministicUlid } from '../ids.js';
import { seededRandom } from '../seeded-random.js';
import type { Review } from '../schema/review.js';
import { DEMO_BUSINESS } from './business.js';

type Pol = 'pos' | 'neg';

/** Jobs customers call about: the service, what went wrong, and the words they use for it. */
const JOBS = [
  { service: 'AC', problem: 'our AC stopped blowing cold air' },
  { service: 'heat pump', problem: 'the heat pump was making a grinding noise' },
  { service: 'furnace', problem: 'we had no heat on a freezing night' },
  { service: 'furnace', problem: 'the furnace kept short cycling' },
  { service: 'water heater', problem: 'we had no hot water' },
  { service: 'tankless', problem: 'our tankless unit kept throwing an error code' },
  { service: 'drain', problem: 'the kitchen drain was completely clogged' },
  { service: 'sewer line', problem: 'the sewer line backed up into the basement' },
  { service: 'leak', problem: 'there was a leak under the bathroom sink' },
  { service: 'burst pipe', problem: 'a burst pipe flooded the laundry room' },
  { service: 'breaker', problem: 'a breaker kept tripping' },
  { service: 'panel', problem: 'our old electrical panel needed replacing' },
  { service: 'tune-up', problem: 'it was time for the annual tune-up' },
];

const OPENERS = [
  'Called Northwind because {problem}.',
  'We booked them after {problem}.',
  '{problem_cap}, so I called around and Northwind could come that week.',
  'Used them for {service} work in {area}.',
  'Second time using Northwind, this time because {problem}.',
];

const TECH: Record<Pol, string[]> = {
  pos: [
    '{tech} was friendly and clearly knew the job.',
    '{tech} was polite, professional and explained everything.',
    'Ask for {tech}, the best technician we have had.',
    '{tech} did an excellent job and was very respectful of our home.',
    'Huge thanks to {tech} for going above and beyond.',
  ],
  neg: [
    '{tech} seemed rushed and did not explain anything.',
    '{tech} was rude when I asked questions.',
    'The technician, {tech}, did not seem to know what to do.',
  ],
};

const ASPECTS: Record<string, Record<Pol, string[]>> = {
  punctuality: {
    pos: ['Our tech arrived right on time.', 'They showed up exactly when they said they would.', 'Arrived early in the window and called ahead.', 'The tech was punctual.'],
    neg: ['The tech showed up two hours late with no call.', 'Nobody showed up for the first appointment.', 'They were late twice and never apologized.'],
  },
  pricing: {
    pos: ['The price was fair and there were no surprises on the bill.', 'Pricing was reasonable compared to other quotes.', 'Great value for the money.', 'They gave an upfront quote and stuck to it.'],
    neg: ['The price was way too high for a thirty minute job.', 'I felt overcharged for a simple part.', 'The final bill was almost double the quote.', 'Way too expensive for what they did.'],
  },
  communication: {
    pos: ['The office kept me updated by text the whole time.', 'They explained the options clearly before starting.', 'Great communication from booking to finish.'],
    neg: ['Nobody called back when I asked for an update.', 'Communication was poor and I had to chase them for answers.', 'They never told me about the extra charges.'],
  },
  professionalism: {
    pos: ['Very professional and courteous crew.', 'Professional from start to finish.', 'Respectful, wore shoe covers and treated our home with care.'],
    neg: ['Very unprofessional attitude.', 'The tech was on the phone the whole visit and acted like we were a bother.'],
  },
  quality: {
    pos: ['Everything has worked perfectly since.', 'The repair was done right the first time.', 'Quality work, the system runs better than ever.', 'The new unit works great.'],
    neg: ['The AC still does not work after two visits.', 'The same leak came back a week later.', 'The repair did not fix the problem.', 'Sloppy work that had to be redone.'],
  },
  knowledge: {
    pos: ['The tech diagnosed the problem in minutes.', 'Very knowledgeable and found the real cause quickly.', 'Clearly an expert who knew exactly what was wrong.'],
    neg: ['The tech could not figure out what was wrong.', 'Misdiagnosed the problem and replaced a part we did not need.'],
  },
  cleanliness: {
    pos: ['Cleaned up afterwards and left no mess.', 'Left the work area cleaner than it was before.'],
    neg: ['They left a mess in the basement.', 'Muddy footprints all over the carpet and debris left behind.'],
  },
  scheduling: {
    pos: ['They fit us in the same day.', 'Easy to schedule online and they came the next morning.', 'Quick response on a weekend.'],
    neg: ['The earliest appointment was two weeks out.', 'They rescheduled on us three times.', 'Hard to get an appointment.'],
  },
  customer_service: {
    pos: ['The office staff were friendly and helpful.', 'Excellent customer service.', 'The woman on the phone was so kind and helpful.'],
    neg: ['Customer service was terrible.', 'The office was dismissive when I complained.'],
  },
  warranty: {
    pos: ['When a part failed a month later they came back and fixed it under warranty at no charge.', 'They called a week later to follow up and make sure everything was working.'],
    neg: ['They refused to honor the warranty.', 'No follow up after the repair and they ignored my calls when it broke again.'],
  },
};

const CLOSERS: Record<Pol, string[]> = {
  pos: ['Highly recommend!', 'Will definitely use them again.', 'We have found our go-to company.', 'Five stars, thank you!', ''],
  neg: ['Never again.', 'Would not recommend.', 'Look elsewhere.', 'Very disappointed.', ''],
};

const REPLIES: Record<Pol, string[]> = {
  pos: [
    'Thank you for the kind words! We will pass them on to {tech}.',
    'Thanks for choosing Northwind. We are glad everything is working again.',
    'We appreciate you taking the time to share this. See you at the next tune-up!',
  ],
  neg: [
    'We are sorry to hear this. Please call our service manager at 503-555-0142 so we can make it right.',
    'Thank you for the feedback. We have reviewed this visit with the team and would like to talk with you directly.',
  ],
};

const AUTHORS = [
  'Dana K.', 'Miguel R.', 'Sarah Thompson', 'J. Patel', 'Chris Nguyen', 'Alicia M.', 'Robert Hale', 'Emily W.', 'Sam O.',
  'Kevin Brooks', 'Nora L.', 'Hannah Park', 'Ben Carter', 'Olivia G.', 'Marcus Lee', 'Priscilla D.', 'Tyler Green', 'Grace H.',
  'Ahmed S.', 'Lauren Fox', 'Diego M.', 'Rachel Stone', 'Pat Kim', 'Victor Chen', 'Megan Rhodes', 'Isaac B.', 'Yuki T.',
  'Carla Jimenez', 'Owen P.', 'Fatima Z.', 'Greg Wilson', 'Tess A.',
];

const SOURCES = ['google', 'google', 'google', 'google', 'google', 'google', 'yelp', 'yelp', 'facebook', 'website'];
const TECH_NAMES = ['Marco', 'Priya', 'Tom', 'Tommy', 'Lena', 'Dwayne', 'DJ', 'Marco Diaz'];
const ASPECT_IDS = Object.keys(ASPECTS);
const RATINGS = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 4, 4, 4, 4, 3, 3, 2, 1, 1];

function pick<T>(rand: () => number, list: readonly T[]): T {
  return list[Math.floor(rand() * list.length)]!;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** A few hundred varied, realistic reviews over two years, identical on every run. */
export function demoReviews(count = 320, endDate = '2026-11-15'): Review[] {
  const rand = seededRandom(20091);
  const end = Date.parse(`${endDate}T00:00:00Z`);
  const span = 730 * 86_400_000;
  const reviews: Review[] = [];
  for (let i = 0; i < count; i++) {
    // Later months get more reviews, as a growing business does.
    const date = isoDay(end - Math.floor(span * (1 - Math.sqrt(rand()))));
    const rating = pick(rand, RATINGS);
    const job = pick(rand, JOBS);
    const tech = pick(rand, TECH_NAMES);
    const area = pick(rand, DEMO_BUSINESS.service_areas);
    const fill = (s: string) =>
      s
        .replaceAll('{problem_cap}', job.problem[0]!.toUpperCase() + job.problem.slice(1))
        .replaceAll('{problem}', job.problem)
        .replaceAll('{service}', job.service)
        .replaceAll('{area}', area)
        .replaceAll('{tech}', tech);
    const mood: Pol = rating >= 4 ? 'pos' : 'neg';
    let text: string | null = null;
    if (rand() >= 0.08) {
      const parts = [fill(pick(rand, OPENERS))];
      if (rand() < 0.7) parts.push(fill(pick(rand, TECH[mood])));
      const aspectCount = 1 + Math.floor(rand() * 3);
      const used = new Set<string>();
      for (let a = 0; a < aspectCount; a++) {
        const aspect = pick(rand, ASPECT_IDS);
        if (used.has(aspect)) continue;
        used.add(aspect);
        // Middling ratings mix praise and complaint, as real ones do.
        const pol: Pol = rating === 3 || rating === 4 ? (rand() < (rating === 4 ? 0.75 : 0.45) ? 'pos' : 'neg') : mood;
        parts.push(pick(rand, ASPECTS[aspect]![pol]));
      }
      const closer = pick(rand, CLOSERS[mood]);
      if (closer) parts.push(closer);
      text = parts.join(' ');
    }
    const source = pick(rand, SOURCES);
    const replied = rand() < (rating <= 2 ? 0.8 : 0.35);
    const replyDate = isoDay(Math.min(end, Date.parse(`${date}T00:00:00Z`) + Math.floor(rand() * 4) * 86_400_000));
    const author = pick(rand, AUTHORS);
    const seed = `demo-${i}`;
    reviews.push({
      id: deterministicUlid(seed, date),
      author,
      author_avatar_url: null,
      rating,
      date,
      text,
      source,
      source_url: source === 'google' || source === 'yelp' ? `https://reviews.example.com/${source}/${i + 1}` : null,
      owner_reply: replied ? { text: fill(pick(rand, REPLIES[mood])), date: replyDate } : null,
      verified: source !== 'website',
      // A review from a review site carries that site's own id; one left on the website has none.
      source_id: source === 'website' ? null : `${source}-review-${i + 1}`,
    });
  }
  return reviews;
}
