import { demoReviews } from '../src/core/demo/reviews.js';
import { deterministicUlid } from '../src/core/ids.js';
import { sortNewestFirst } from '../src/core/reviews.js';
import type { Review } from '../src/core/schema/review.js';

/** N distinct reviews recombined from the demo texts, newest first: realistic words at any scale. */
export function benchReviews(n: number): Review[] {
  const base = demoReviews(320);
  return sortNewestFirst(
    Array.from({ length: n }, (_, i) => {
      const a = base[i % base.length]!;
      const b = base[(i * 7 + 3) % base.length]!;
      return { ...a, id: deterministicUlid(`bench-${i}`, a.date), text: a.text && b.text ? `${a.text} ${b.text.split('. ').slice(-2).join('. ')}` : a.text };
    }),
  );
}
