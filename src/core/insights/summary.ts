/** The insights summary and pull quote, templated from the figures. */
import type { Insights } from '../schema/insights.js';
import { countIsHigher, type Analysed, type Figures } from './figures.js';
import { closeBehind, phrasesFor } from './faq.js';

/** Templated from the figures alone, good news and bad: nothing in it is invented. */
export function summaryOf(f: Figures): string | null {
  const n = f.all.length;
  if (n === 0) return null;
  const avg = f.averageRating;
  const five = f.all.filter((x) => x.review.rating === 5).length;
  const low = f.all.filter((x) => x.review.rating <= 2).length;
  const parts = [
    `${f.business.name} has ${n} review${n === 1 ? '' : 's'} averaging ${avg} out of 5 (${Math.round((five / n) * 100)}% five-star, ${Math.round((low / n) * 100)}% one or two stars).`,
  ];
  const praised = f.aspects.filter((a) => a.positive_count >= 3 && a.positive_pct >= 60).sort((x, y) => y.positive_count - x.positive_count || (x.id < y.id ? -1 : 1));
  if (praised.length) {
    const named = praised.slice(0, 2).map((a) => `${a.label.toLowerCase()} (${a.positive_pct}% positive of ${a.mention_count} mentions)`);
    // A third aspect praised about as often as the second is said, so "most often" names no false lead.
    const third = praised[2];
    const close = third && !countIsHigher(praised[1]!.positive_count, third.positive_count) ? `, with ${third.label.toLowerCase()} close behind (${third.positive_pct}% positive of ${third.mention_count} mentions)` : '';
    parts.push(`Customers most often praise ${named.join(' and ')}${close}.`);
  }
  const complaints = [...f.aspects].filter((a) => a.negative_count >= 1).sort((x, y) => y.negative_count - x.negative_count || (x.id < y.id ? -1 : 1));
  const complaint = complaints[0];
  if (complaint) {
    const said = phrasesFor(f, complaint.id, 'negative', 2);
    const words = said.length ? `, in words like ${said.map((p) => `"${p}"`).join(' and ')}` : '';
    parts.push(`The most common complaint is about ${complaint.label.toLowerCase()}: ${complaint.negative_count} negative mention${complaint.negative_count === 1 ? '' : 's'}${words}.${closeBehind(complaint.negative_count, complaints[1], complaints[1]?.negative_count ?? 0, 'negative mention')}`);
  }
  const techs = f.technicians.filter((t) => t.mention_count >= 3);
  const tech = techs[0];
  if (tech) {
    const next = techs[1];
    const close = next && !countIsHigher(tech.mention_count, next.mention_count) ? `, with ${next.name} close behind (${next.mention_count} reviews, average ${next.average_rating})` : '';
    parts.push(`${tech.name} is the technician named most often (${tech.mention_count} reviews, average ${tech.average_rating})${close}.`);
  }
  if (f.trend.direction !== 'insufficient_data') {
    parts.push(`Over the last 90 days the average rating is ${f.trend.recent_average_rating}, ${f.trend.direction === 'stable' ? 'about the same as' : f.trend.direction === 'improving' ? 'up from' : 'down from'} ${f.trend.previous_average_rating} in the 90 days before.`);
  }
  return parts.join(' ');
}

/** A real sentence from a good review that praises the most aspects without a complaint; newest wins ties. */
export function pullQuoteOf(all: readonly Analysed[]): Insights['pull_quote'] {
  let best: Analysed | null = null;
  for (const x of all) if (x.a.quote && (!best || x.a.quote.score > best.a.quote!.score)) best = x;
  if (!best) return null;
  const r = best.review;
  return { text: best.a.quote!.text, review_id: r.id, author: r.author, rating: r.rating, date: r.date };
}
