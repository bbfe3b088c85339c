/** The insights summary and pull quote, templated from the figures. */
import type { Insights } from '../schema/insights.js';
import { countIsHigher, type Analysed, type Figures } from './figures.js';
import { closeBehind, levelWithFirst, listed, phrasesFor } from './faq.js';

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
    // The first two, and any praised as often as the second: "most often" names no false lead.
    const named = [praised[0]!, ...levelWithFirst(praised.slice(1), (a) => a.positive_count)];
    const said = named.map((a) => `${a.label.toLowerCase()} (${a.positive_pct}% positive of ${a.mention_count} mentions)`);
    // The next aspects, praised about as often as the last named (and as often as each other), are said too.
    const next = levelWithFirst(praised.slice(named.length), (a) => a.positive_count);
    const close =
      next.length && !countIsHigher(named[named.length - 1]!.positive_count, next[0]!.positive_count)
        ? `, with ${listed(next.map((a) => `${a.label.toLowerCase()} (${a.positive_pct}% positive of ${a.mention_count} mentions)`))} close behind`
        : '';
    parts.push(`Customers most often praise ${listed(said)}${close}.`);
  }
  const complaints = [...f.aspects].filter((a) => a.negative_count >= 1).sort((x, y) => y.negative_count - x.negative_count || (x.id < y.id ? -1 : 1));
  const complaint = complaints[0];
  if (complaint) {
    const level = levelWithFirst(complaints, (a) => a.negative_count);
    const count = `${complaint.negative_count} negative mention${complaint.negative_count === 1 ? '' : 's'}`;
    const behind = closeBehind(complaint.negative_count, complaints.slice(level.length), (a) => a.negative_count, 'negative mention');
    if (level.length > 1) parts.push(`No complaint stands out: ${listed(level.map((a) => a.label.toLowerCase()))} have ${count} each.${behind}`);
    else {
      const said = phrasesFor(f, complaint.id, 'negative', 2);
      const words = said.length ? `, in words like ${said.map((p) => `"${p}"`).join(' and ')}` : '';
      parts.push(`The most common complaint is about ${complaint.label.toLowerCase()}: ${count}${words}.${behind}`);
    }
  }
  const techs = f.technicians.filter((t) => t.mention_count >= 3);
  const tech = techs[0];
  if (tech) {
    const level = levelWithFirst(techs, (t) => t.mention_count);
    const next = levelWithFirst(techs.slice(level.length), (t) => t.mention_count);
    const close =
      next.length && !countIsHigher(tech.mention_count, next[0]!.mention_count)
        ? `, with ${listed(next.map((t) => `${t.name} (${t.mention_count} reviews, average ${t.average_rating})`))} close behind`
        : '';
    parts.push(
      level.length > 1
        ? `${listed(level.map((t) => `${t.name} (average ${t.average_rating})`))} are the technicians named most often, in ${tech.mention_count} reviews each${close}.`
        : `${tech.name} is the technician named most often (${tech.mention_count} reviews, average ${tech.average_rating})${close}.`,
    );
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
