/** Reads a Google Business Profile reviews export into raw records. */
import { lineBreaksAsLf, type FieldSpellings } from '../../core/import-plan.js';
import { parseJsonImport } from './json.js';
import { ImportFileError, type ParsedImport } from './types.js';

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

const TIMESTAMP = 'a timestamp such as "2026-02-03T17:45:00Z"';

/** Google's names for the review fields it fills, and the values it writes where they are not ours: errors name what is in the file. */
export const GBP_SPELLINGS: FieldSpellings = {
  source_id: { name: 'reviewId' },
  author: { name: 'reviewer.displayName' },
  author_avatar_url: { name: 'reviewer.profilePhotoUrl' },
  rating: { name: 'starRating', accepted: `one of ${Object.keys(STARS).join(', ')}` },
  date: { name: 'createTime', accepted: TIMESTAMP },
  text: { name: 'comment' },
  'owner_reply.text': { name: 'reviewReply.comment' },
  'owner_reply.date': { name: 'reviewReply.updateTime', accepted: TIMESTAMP },
};

/** The day of a Google timestamp; anything else goes on as written, for validation to refuse. */
const day = (t: unknown) => (typeof t === 'string' && /^\d{4}-\d{2}-\d{2}(?:[T ]|$)/.test(t) ? t.slice(0, 10) : t);

interface GbpReview {
  reviewId?: string;
  reviewer?: { displayName?: string; profilePhotoUrl?: string; isAnonymous?: boolean };
  starRating?: string;
  comment?: string;
  createTime?: string;
  updateTime?: string;
  reviewReply?: { comment?: string; updateTime?: string };
}

/**
 * Google's translated comments carry the original after "(Original)"; keep the customer's own
 * words. The markers are found on LF line breaks, so a Windows file's are made LF here, ahead of
 * validation, which tidies every text (line breaks and the white space at its ends).
 */
function originalComment(comment: unknown): unknown {
  const lf = lineBreaksAsLf(comment);
  // Anything but text (a number where a hand-edited file has one) goes on as it is, for validation to refuse.
  if (typeof lf !== 'string') return lf;
  const marker = lf.indexOf('(Original)\n');
  if (marker >= 0) return lf.slice(marker + '(Original)\n'.length);
  return lf.replace(/\n*\(Translated by Google\)[\s\S]*$/, '');
}

/** Whether a reply comment says anything: one of white space alone is no reply, as an empty one is (validation would refuse it once trimmed). */
const replied = (comment: unknown) => (typeof comment === 'string' ? comment.trim() !== '' : Boolean(comment));

/** A Google Business Profile API `reviews.list` response (or several pages' reviews concatenated). */
export function parseGbpImport(text: string): ParsedImport {
  const { records } = parseJsonImport(text);
  if (records.length === 0 && !/"reviews"\s*:/.test(text)) throw new ImportFileError('expected a Google Business Profile reviews list with a "reviews" array');
  return {
    spellings: GBP_SPELLINGS,
    records: records.map(({ where, value }) => {
      const g = (value ?? {}) as GbpReview;
      const mapped: Record<string, unknown> = {
        author: g.reviewer?.displayName ?? (g.reviewer?.isAnonymous ? 'A Google user' : undefined),
        author_avatar_url: g.reviewer?.profilePhotoUrl ?? null,
        rating: g.starRating !== undefined && g.starRating in STARS ? STARS[g.starRating] : g.starRating,
        date: day(g.createTime),
        text: originalComment(g.comment) ?? null,
        source: 'google',
        source_url: null,
        owner_reply: replied(g.reviewReply?.comment) ? { text: g.reviewReply?.comment, date: day(g.reviewReply?.updateTime) } : null,
        verified: true,
        // Google's review id is the stable key: our id derives from it (validateRecords), so the same review keeps its id when edited.
        source_id: g.reviewId ?? null,
      };
      return { where: where.replace(/\)$/, `, reviewId ${g.reviewId ?? '(none)'})`), value: mapped };
    }),
  };
}
