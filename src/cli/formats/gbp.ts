/** Reads a Google Business Profile reviews export into raw records. */
import { parseJsonImport } from './json.js';
import { ImportFileError, type ParsedImport } from './types.js';

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

interface GbpReview {
  reviewId?: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

/** Google's translated comments carry the original after "(Original)"; keep the customer's own words. */
function originalComment(comment: string | undefined): string | undefined {
  if (comment === undefined) return undefined;
  const marker = comment.indexOf('(Original)\n');
  if (marker >= 0) return comment.slice(marker + '(Original)\n'.length).trim();
  return comment.replace(/\n*\(Translated by Google\)[\s\S]*$/, '').trim();
}

/** A Google Business Profile API `reviews.list` response (or several pages' reviews concatenated). */
export function parseGbpImport(text: string): ParsedImport {
  const { records } = parseJsonImport(text);
  if (records.length === 0 && !/"reviews"\s*:/.test(text)) throw new ImportFileError('expected a Google Business Profile reviews list with a "reviews" array');
  return {
    records: records.map(({ where, value }) => {
      const g = (value ?? {}) as GbpReview;
      const date = typeof g.createTime === 'string' ? g.createTime.slice(0, 10) : g.createTime;
      const mapped: Record<string, unknown> = {
        author: g.reviewer?.displayName ?? (g.reviewer?.isAnonymous ? 'A Google user' : undefined),
        author_avatar_url: g.reviewer?.profilePhotoUrl ?? null,
        rating: g.starRating !== undefined && g.starRating in STARS ? STARS[g.starRating] : g.starRating,
        date,
        text: originalComment(g.comment) ?? null,
        source: 'google',
        source_url: null,
        owner_reply: g.reviewReply?.comment ? { text: g.reviewReply.comment, date: g.reviewReply.updateTime?.slice(0, 10) } : null,
        verified: true,
        // Google's review id is the stable key: our id derives from it (validateRecords), so the same review keeps its id when edited.
        source_id: g.reviewId ?? null,
      };
      return { where: `${where}, reviewId ${g.reviewId ?? '(none)'}`, value: mapped };
    }),
  };
}
