/** Monthly figures and the rating trend of the insights document. */
import type { Insights } from '../schema/insights.js';
import { meanRating } from '../reviews.js';
import { sentimentCounts, type Analysed } from './figures.js';

export function monthlyFigures(all: readonly Analysed[]): Insights['temporal']['monthly'] {
  const months = new Map<string, Analysed[]>();
  for (const x of all) {
    const m = x.review.date.slice(0, 7);
    const list = months.get(m) ?? [];
    list.push(x);
    months.set(m, list);
  }
  return [...months.keys()].sort().map((month) => {
    const items = months.get(month)!;
    return {
      month,
      review_count: items.length,
      average_rating: meanRating(items.map((x) => x.review.rating))!,
      sentiment_score: sentimentCounts(items).score,
    };
  });
}

const TREND_WINDOW_DAYS = 90;
const TREND_MIN_REVIEWS = 5;
const TREND_THRESHOLD = 0.25;
const TREND_RULE = `Mean star rating of the ${TREND_WINDOW_DAYS} days up to the newest review against the ${TREND_WINDOW_DAYS} days before: improving if it rose by ${TREND_THRESHOLD} stars or more, declining if it fell by as much, otherwise stable; insufficient_data when either window has fewer than ${TREND_MIN_REVIEWS} reviews.`;

/** Windows count back from the newest review, not from today, so the result depends on the data alone. */
export function trendOf(all: readonly Analysed[]): Insights['temporal']['trend'] {
  const day = 86_400_000;
  const newest = all.reduce((m, x) => (x.review.date > m ? x.review.date : m), '');
  const end = newest ? Date.parse(`${newest}T00:00:00Z`) : 0;
  const recent: number[] = [];
  const previous: number[] = [];
  for (const { review } of all) {
    const age = (end - Date.parse(`${review.date}T00:00:00Z`)) / day;
    if (age < TREND_WINDOW_DAYS) recent.push(review.rating);
    else if (age < 2 * TREND_WINDOW_DAYS) previous.push(review.rating);
  }
  const r = meanRating(recent);
  const p = meanRating(previous);
  let direction: Insights['temporal']['trend']['direction'] = 'insufficient_data';
  if (r !== null && p !== null && recent.length >= TREND_MIN_REVIEWS && previous.length >= TREND_MIN_REVIEWS) {
    direction = r - p >= TREND_THRESHOLD ? 'improving' : p - r >= TREND_THRESHOLD ? 'declining' : 'stable';
  }
  return {
    direction,
    rule: TREND_RULE,
    recent_average_rating: r,
    previous_average_rating: p,
    recent_review_count: recent.length,
    previous_review_count: previous.length,
  };
}
