/** The insights FAQ: questions a customer asks, answered from the figures alone. */
import type { AspectEntry, Insights } from '../schema/insights.js';
import { countIsHigher, shareIsHigher, topCounts, type Figures } from './figures.js';
import { pct } from './numbers.js';

type Faq = Insights['faq'][number];

/** The most frequent phrases that judged an aspect one way. */
export function phrasesFor(f: Figures, aspect: string, polarity: 'positive' | 'negative', n = 3): string[] {
  return topCounts(f.aspectIndex.get(aspect)?.phrases[polarity] ?? [], n);
}

/** Review ids for an aspect: some praise and some complaint, newest first, so an answer shows both sides. */
function aspectEvidence(f: Figures, aspect: string): string[] {
  const e = f.aspectIndex.get(aspect);
  return e ? [...e.ids.positive.slice(0, 3), ...e.ids.negative.slice(0, 2)] : [];
}

function aspectAnswer(e: AspectEntry, f: Figures): string {
  const verdict = e.positive_pct >= 80 ? 'Mostly positive' : e.positive_pct >= 60 ? 'Largely positive' : e.positive_pct >= 40 ? 'Mixed' : 'Mostly negative';
  const quote = (ps: string[]) => ps.slice(0, 3).map((p) => `"${p}"`).join(', ');
  const praise = phrasesFor(f, e.id, 'positive');
  const complaint = phrasesFor(f, e.id, 'negative');
  return `${verdict}: ${e.mention_count} of ${f.all.length} reviews talk about ${e.label.toLowerCase()}; ${e.positive_count} positive (${e.positive_pct}%), ${e.negative_count} negative, ${e.neutral_count} neutral.${praise.length ? ` Praise: ${quote(praise)}.` : ''}${complaint.length ? ` Complaints: ${quote(complaint)}.` : ''}`;
}

const ASPECT_QUESTIONS: [id: string, aspect: string, question: string][] = [
  ['on_time', 'punctuality', 'Do they show up on time?'],
  ['fair_prices', 'pricing', 'Are their prices fair?'],
  ['quality', 'quality_of_work', 'Do their repairs last?'],
  ['knowledge', 'technical_knowledge', 'Do their technicians know what they are doing?'],
  ['communication', 'communication', 'Do they keep customers informed?'],
  ['clean_up', 'cleanliness', 'Do they clean up after themselves?'],
  ['availability', 'scheduling', 'How quickly can they come out?'],
  ['warranty', 'warranty', 'Do they stand behind their work?'],
];

/** How a technician reads in a list: "Marco (named in 55 reviews, 41 positive, average 4.24)". */
const techFigures = (t: Figures['technicians'][number]) => `${t.name} (named in ${t.mention_count} reviews, ${t.sentiment.positive} positive, average ${t.average_rating})`;

/**
 * "Best" only where the numbers carry it: the technician whose reviews are most often positive,
 * if that share is above every other's by more than chance gives for their counts (shareIsHigher).
 * Otherwise the answer says no one stands out and gives the counts, naming who is praised in the
 * most reviews as just that.
 */
function bestTechnician(f: Figures): Faq | null {
  const named = f.technicians.filter((t) => t.mention_count >= 3);
  if (named.length === 0) return null;
  const rate = (t: (typeof named)[number]) => t.sentiment.positive / t.mention_count;
  const ranked = [...named].sort((x, y) => rate(y) - rate(x) || y.mention_count - x.mention_count || (x.name < y.name ? -1 : 1));
  const lead = ranked[0]!;
  const question = 'Who is the best technician?';
  // The first technician the leader is not ahead of beyond chance, if any.
  const rival = ranked.slice(1).find((t) => !shareIsHigher(lead.sentiment.positive, lead.mention_count, t.sentiment.positive, t.mention_count));
  const share = (t: (typeof named)[number]) => `${t.sentiment.positive} of ${t.mention_count}, ${pct(t.sentiment.positive, t.mention_count)}%`;
  if (ranked.length > 1 && !rival) {
    const others = ranked.slice(1, 3).map(techFigures);
    return {
      id: 'best_technician',
      question,
      answer: `${lead.name}, by what customers write: ${lead.sentiment.positive} of the ${lead.mention_count} reviews naming ${lead.name} are positive (${pct(lead.sentiment.positive, lead.mention_count)}%), average rating ${lead.average_rating}, more often than for any other technician by a margin their review counts support (95% interval). Next: ${others.join(', ')}.`,
      review_ids: lead.example_review_ids,
    };
  }
  const byCount = [...named].sort((x, y) => y.sentiment.positive - x.sentiment.positive || y.mention_count - x.mention_count || (x.name < y.name ? -1 : 1));
  const why = rival
    ? `${lead.name} has the highest share of positive reviews (${share(lead)}), but the lead over ${rival.name} (${share(rival)}) is within what chance gives for this many reviews`
    : `${lead.name} is the only technician named in three or more reviews, with no one to compare against`;
  return {
    id: 'best_technician',
    question,
    answer: `No one technician stands out: ${why}. Praised in the most reviews: ${byCount.slice(0, 3).map(techFigures).join(', ')}.`,
    review_ids: byCount[0]!.example_review_ids,
  };
}

/** The first entries of a list sorted by `count` (most first) that share the first one's count: one, or several when they tie. */
export function levelWithFirst<T>(sorted: readonly T[], count: (t: T) => number): T[] {
  const top = sorted[0];
  if (top === undefined) return [];
  let n = 1;
  while (n < sorted.length && count(sorted[n]!) === count(top)) n++;
  return sorted.slice(0, n);
}

/**
 * Names in a sentence: "a", "a and b", "a, b, and c"; past four, "a, b, c, d, and 2 more". Labels
 * hold "and" ("pricing and value"), so the last comma is always there, and two names of which one
 * holds "and" are parted by a comma too ("pricing and value, and punctuality").
 */
export function listed(names: readonly string[]): string {
  const shown = names.length > 4 ? [...names.slice(0, 4), `${names.length - 4} more`] : names;
  if (shown.length < 2) return shown[0] ?? '';
  if (shown.length === 2 && !shown.some((n) => n.includes(' and '))) return shown.join(' and ');
  return `${shown.slice(0, -1).join(', ')}, and ${shown[shown.length - 1]}`;
}

/**
 * " Quality of work is close behind (36 reviews)." when the runner-up's count is within chance of the
 * first's (countIsHigher), so "most" is not read as a clear lead; runners-up tied with each other are
 * named together. `rest`: the entries after the leaders, sorted by `count` (most first).
 */
export function closeBehind(first: number, rest: readonly AspectEntry[], count: (a: AspectEntry) => number, unit = 'review'): string {
  const level = levelWithFirst(rest, count);
  const n = level.length ? count(level[0]!) : 0;
  if (n === 0 || countIsHigher(first, n)) return '';
  const names = listed(level.map((a, i) => (i === 0 ? a.label : a.label.toLowerCase())));
  return level.length > 1 ? ` ${names} are close behind (${n} ${unit}${n === 1 ? '' : 's'} each).` : ` ${names} is close behind (${n} ${unit}${n === 1 ? '' : 's'}).`;
}

/**
 * The answer to "what most?" from the aspects sorted by `count` (most first, the first above 0): the
 * first with its share, or the aspects tied at the top named together (naming one of them "most"
 * would invent a lead), then those close behind.
 */
function mostAnswer(sorted: readonly AspectEntry[], count: (a: AspectEntry) => number, verb: 'praised' | 'criticised', share: (a: AspectEntry) => number): { level: AspectEntry[]; text: string } {
  const level = levelWithFirst(sorted, count);
  const first = level[0]!;
  const n = count(first);
  const reviews = `${n} review${n === 1 ? '' : 's'}`;
  const lead =
    level.length > 1
      ? `No one aspect stands out: ${listed(level.map((a) => a.label.toLowerCase()))} are each ${verb} in ${reviews}.`
      : `${first.label}: ${verb} in ${reviews} (${share(first)}% of those that mention it).`;
  return { level, text: `${lead}${closeBehind(n, sorted.slice(level.length), count)}` };
}

/** Questions a prospective customer asks, each answered from the figures with the reviews behind them. Unanswerable ones are left out. */
export function faqFor(f: Figures): Faq[] {
  const out: Faq[] = [];
  const n = f.all.length;
  if (n === 0) return out;
  for (const [id, aspect, question] of ASPECT_QUESTIONS) {
    const e = f.aspects.find((a) => a.id === aspect);
    if (!e || e.mention_count < 3) continue;
    out.push({ id, question, answer: aspectAnswer(e, f), review_ids: aspectEvidence(f, aspect) });
  }
  const tech = bestTechnician(f);
  if (tech) out.push(tech);
  const judged = f.aspects.filter((a) => a.mention_count > 0);
  const byPraise = [...judged].sort((x, y) => y.positive_count - x.positive_count || (x.id < y.id ? -1 : 1));
  const praised = byPraise[0];
  if (praised && praised.positive_count > 0) {
    const { level, text } = mostAnswer(byPraise, (a) => a.positive_count, 'praised', (a) => a.positive_pct);
    out.push({
      id: 'most_praised',
      question: 'What do customers like most?',
      answer: text,
      review_ids: level.length > 1 ? level.flatMap((a) => f.aspectIndex.get(a.id)!.ids.positive.slice(0, 1)).slice(0, 5) : aspectEvidence(f, praised.id).slice(0, 3),
    });
  }
  const byComplaint = [...judged].sort((x, y) => y.negative_count - x.negative_count || (x.id < y.id ? -1 : 1));
  const complained = byComplaint[0];
  if (complained && complained.negative_count > 0) {
    const { level, text } = mostAnswer(byComplaint, (a) => a.negative_count, 'criticised', (a) => pct(a.negative_count, a.mention_count));
    const words = level.length > 1 ? [] : phrasesFor(f, complained.id, 'negative');
    out.push({
      id: 'most_complained',
      question: 'What do customers complain about most?',
      answer: `${text}${words.length ? ` Typical words: ${words.map((p) => `"${p}"`).join(', ')}.` : ''}`,
      review_ids: level.length > 1 ? level.flatMap((a) => f.aspectIndex.get(a.id)!.ids.negative.slice(0, 1)).slice(0, 5) : f.aspectIndex.get(complained.id)!.ids.negative.slice(0, 5),
    });
  }
  const replied = f.all.filter((x) => x.review.owner_reply !== null);
  const negatives = f.all.filter((x) => x.review.rating <= 2);
  const negReplied = negatives.filter((x) => x.review.owner_reply !== null);
  out.push({
    id: 'owner_replies',
    question: 'Does the business respond to reviews?',
    answer: `It replied publicly to ${replied.length} of ${n} reviews (${pct(replied.length, n)}%)${negatives.length ? `, including ${negReplied.length} of the ${negatives.length} one- and two-star reviews` : ''}.`,
    review_ids: negReplied.slice(0, 3).concat(replied.slice(0, 2)).map((x) => x.review.id).filter((v, i, a) => a.indexOf(v) === i),
  });
  if (f.trend.direction !== 'insufficient_data') {
    out.push({
      id: 'trend',
      question: 'Are reviews getting better or worse?',
      answer: `${f.trend.direction[0]!.toUpperCase()}${f.trend.direction.slice(1)}: the last 90 days average ${f.trend.recent_average_rating} stars over ${f.trend.recent_review_count} reviews, against ${f.trend.previous_average_rating} over ${f.trend.previous_review_count} in the 90 days before.`,
      review_ids: f.all.slice(0, 3).map((x) => x.review.id),
    });
  }
  return out;
}
