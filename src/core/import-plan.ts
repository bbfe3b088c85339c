/** Import planning: validates incoming records and works out what to add, update and remove. */
import { z } from 'zod';
import { PLACEHOLDER_BUSINESS } from './dataset.js';
import { DEMO_BUSINESS } from './demo/business.js';
import { demoReviews } from './demo/reviews.js';
import { deterministicUlid } from './ids.js';
import { canonicalReview } from './reviews.js';
import { BusinessSchema, type Business } from './schema/business.js';
import { Ulid } from './schema/common.js';
import { changedForReaders } from './feeds/websub-topics.js';
import { ReviewInputSchema, ReviewSchema, type Review } from './schema/review.js';

/** One record that failed validation, located so the operator can find it in the file. */
export interface RecordError {
  /** Where the record is: "record 4 (reviews[3])", "record 2 (CSV line 3)". */
  where: string;
  /** The field as the file names it ("starRating", "owner_reply_date", "owner_reply.text"), or "(record)" for the record as a whole. */
  field: string;
  message: string;
}

export class ImportValidationError extends Error {
  constructor(readonly errors: RecordError[]) {
    // A record can fail on several fields: the count is of records, the problems are listed apart.
    const records = new Set(errors.map((e) => e.where)).size;
    super(`${records} invalid record${records === 1 ? '' : 's'}${errors.length > records ? ` (${errors.length} problems)` : ''}; nothing was imported`);
    this.name = 'ImportValidationError';
  }
}

/** A raw record from an import file and where it came from. */
export interface RawRecord {
  where: string;
  value: unknown;
}

/** How an import format writes one review field where it differs from the review's own name or values. */
export interface FieldSpelling {
  /** The field's name in the file, e.g. "starRating" for rating. */
  name?: string;
  /** What the format accepts there, after "must be": "one of ONE, TWO, THREE, FOUR, FIVE". */
  accepted?: string;
}
/** A format's spellings, keyed by the review field's dotted path ("rating", "owner_reply.date"). */
export type FieldSpellings = Readonly<Partial<Record<string, FieldSpelling>>>;

/** What a date field accepts, said the same way wherever a date is refused. */
export const DATE_RULE = 'a date written YYYY-MM-DD, e.g. 2026-03-14';

/**
 * Messages for zod's stock issues, worded for someone fixing a file (the schemas' own messages,
 * such as a ULID's, take precedence). Only imports use them: the HTTP and MCP answers keep zod's.
 */
const importMessages: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'boolean') return 'must be true or false';
      if (issue.expected === 'int') return 'must be a whole number';
      if (issue.expected === 'number') return 'must be a number';
      if (issue.expected === 'string') return 'must be text (a string)';
      if (issue.expected === 'array') return 'must be a list (an array)';
      if (issue.expected === 'object') return 'must be an object';
      return undefined;
    case 'too_small':
      if (issue.origin === 'string') return issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must hold at least ${issue.minimum} entr${issue.minimum === 1 ? 'y' : 'ies'}`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must hold at most ${issue.maximum} entries`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_format':
      if (issue.format === 'date') return `must be ${DATE_RULE}`;
      if (issue.format === 'url') return 'must be an http or https URL';
      if (issue.format === 'email') return 'must be an e-mail address';
      return undefined;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return undefined;
  }
};

/**
 * The issues of a value that failed, parsed again with the given values and these messages:
 * parse options cost zod its fast path (about 60% more time a record), so only a failing
 * record pays for them.
 */
function explain(schema: z.ZodType, value: unknown): z.ZodError {
  return schema.safeParse(value, { reportInput: true, error: importMessages }).error!;
}

/** A given value as a message quotes it: JSON, cut short. */
function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A zod path as the file would spell it: dots between names, brackets around list indexes ("technicians[0].name"). */
function dottedPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

/**
 * A text with its line breaks as \n, whichever system wrote them (\r\n on Windows, a lone \r
 * on old Macs). Anything but text goes on as it is, for validation to judge.
 */
export const lineBreaksAsLf = <T>(text: T): T => (typeof text === 'string' && text.includes('\r') ? (text.replace(/\r\n?/g, '\n') as T) : text);

/** A text as stored: LF line breaks, and no white space at its ends (a cell's padding, a last line break: not what anyone wrote). */
const tidyText = (text: string) => lineBreaksAsLf(text).trim();

/**
 * Tidies a record's texts (its own and its reply's), in every format alike: the same review from
 * a Windows file, from a copy saved with LF endings or typed with spaces after the separators is
 * then the same review (its content-derived id, and no update on re-import). In place: the
 * records are held until the import ends, and a copy would keep both forms of each text changed
 * (a million reviews' import is near the heap limit). Anything but text is left for validation.
 */
function tidyTexts(value: unknown): void {
  if (value === null || typeof value !== 'object') return;
  const review = value as { text?: unknown; owner_reply?: unknown };
  if (typeof review.text === 'string') review.text = tidyText(review.text);
  const reply = review.owner_reply as { text?: unknown } | null | undefined;
  // A reply of white space alone keeps it (only its line breaks made LF), to be judged as before
  // these rules (an empty one is refused, a blank one kept): an export of a store that holds one
  // re-imports unchanged.
  if (reply !== null && typeof reply === 'object' && typeof reply.text === 'string') reply.text = reply.text.trim() === '' ? lineBreaksAsLf(reply.text) : tidyText(reply.text);
}

/** The fields a review may have, named when a record holds others. */
const REVIEW_FIELDS = Object.keys(ReviewInputSchema.shape).join(', ');

function issuesToErrors(where: string, error: z.ZodError, spellings: FieldSpellings = {}, known?: string): RecordError[] {
  return error.issues.map((i) => {
    const path = dottedPath(i.path);
    const spelling = spellings[path] ?? {};
    const field = spelling.name ?? (path || '(record)');
    if (i.code === 'unrecognized_keys') return { where, field, message: `unknown field(s): ${i.keys.join(', ')}${known ? `; known fields: ${known}` : ''}` };
    // A missing field reaches zod as an undefined input: say so, not "expected string, received undefined".
    if (i.code === 'invalid_type' && i.input === undefined) return { where, field, message: `required, but missing${spelling.accepted ? ` (must be ${spelling.accepted})` : ''}` };
    const rule = spelling.accepted ? `must be ${spelling.accepted}` : i.message;
    const value = i.input === undefined || (typeof i.input === 'object' && i.input !== null) ? '' : `; given ${quoted(i.input)}`;
    return { where, field, message: `${rule}${value}` };
  });
}

/**
 * Validates every record and gives each a stable id. Texts are tidied first, in place, whatever
 * the format (tidyTexts). An id that is not a ULID is the source system's: it is kept as
 * source_id and our id derives from (source, source_id), so the same review keeps its id when
 * edited there. Records with neither get one derived from their content plus the occurrence
 * number of identical content in the file, so the same file always yields the same ids. All
 * errors are collected; any error rejects the lot.
 */
export function validateRecords(records: readonly RawRecord[], opts: { spellings?: FieldSpellings; onProgress?: (done: number) => void } = {}): Review[] {
  const { spellings, onProgress } = opts;
  const errors: RecordError[] = [];
  const reviews: Review[] = [];
  const seenIds = new Map<string, string>();
  const contentCount = new Map<string, number>();
  records.forEach((rec, i) => {
    if (onProgress && i % 1000 === 0) onProgress(i);
    // Before the content-derived id below, which the texts are part of.
    tidyTexts(rec.value);
    const parsed = ReviewInputSchema.safeParse(rec.value);
    if (!parsed.success) {
      errors.push(...issuesToErrors(rec.where, explain(ReviewInputSchema, rec.value), spellings, REVIEW_FIELDS));
      return;
    }
    const input = parsed.data;
    const given = input.id;
    const ours = given !== undefined && Ulid.safeParse(given).success ? given : undefined;
    const foreign = given !== undefined && ours === undefined ? given : undefined;
    if (foreign !== undefined && input.source_id !== null && input.source_id !== foreign) {
      errors.push({ where: rec.where, field: spellings?.source_id?.name ?? 'source_id', message: `"${input.source_id}" differs from the id "${foreign}": give the source system's id once, as id or as source_id` });
      return;
    }
    const sourceId = foreign ?? input.source_id;
    let id = ours;
    // The same formula the GBP import has always used (source "google", Google's reviewId).
    if (id === undefined && sourceId !== null) id = deterministicUlid(`${input.source}:${sourceId}`, input.date);
    if (id === undefined) {
      const content = [input.source, input.author, input.date, input.rating, input.text ?? ''].join('\u0000');
      const n = (contentCount.get(content) ?? 0) + 1;
      contentCount.set(content, n);
      id = deterministicUlid(`${content}\u0000${n}`, input.date);
    }
    const previous = seenIds.get(id);
    if (previous !== undefined) {
      errors.push({ where: rec.where, field: 'id', message: `duplicate id ${id}${sourceId === null ? '' : ` (source ${input.source}, source_id ${sourceId})`} (also in ${previous})` });
      return;
    }
    seenIds.set(id, rec.where);
    reviews.push(ReviewSchema.parse({ ...input, id, source_id: sourceId }));
  });
  onProgress?.(records.length);
  if (errors.length > 0) throw new ImportValidationError(errors);
  return reviews;
}

export function validateBusiness(value: unknown): Business {
  const parsed = BusinessSchema.safeParse(value);
  if (!parsed.success) throw new ImportValidationError(issuesToErrors('business', explain(BusinessSchema, value)));
  return parsed.data;
}

interface ImportPlan {
  added: Review[];
  updated: Review[];
  removed: string[];
  unchanged: number;
  /** The ids of the incoming reviews. */
  incoming: ReadonlySet<string>;
  /** The updated reviews whose change a feed shows (changedForReaders): the store moves their modification time. */
  retimed: ReadonlySet<string>;
}

/**
 * What merging `incoming` into `existing` (id -> stored canonical JSON) changes; with
 * `replace`, the result is exactly `incoming`. Planned reviews are canonical.
 */
function planImport(existing: ReadonlyMap<string, string>, incoming: readonly Review[], replace: boolean): ImportPlan {
  const incomingIds = new Set<string>();
  const retimed = new Set<string>();
  const plan: ImportPlan = { added: [], updated: [], removed: [], unchanged: 0, incoming: incomingIds, retimed };
  for (const original of incoming) {
    const r = canonicalReview(original);
    incomingIds.add(r.id);
    const before = existing.get(r.id);
    if (before === undefined) plan.added.push(r);
    else if (before !== JSON.stringify(r)) {
      plan.updated.push(r);
      if (changedForReaders(JSON.parse(before) as Review, r)) retimed.add(r.id);
    } else plan.unchanged++;
  }
  if (replace) for (const id of existing.keys()) if (!incomingIds.has(id)) plan.removed.push(id);
  return plan;
}

function planIsEmpty(plan: ImportPlan): boolean {
  return plan.added.length === 0 && plan.updated.length === 0 && plan.removed.length === 0;
}

/** What an import did (or, on a dry run, would do). */
export interface ImportOutcome {
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  business_changed: boolean;
  /**
   * The seeded demo profile after the import: "kept" (still stored: the page shows the demo
   * company's name, phone and technicians), "dropped" (it went with the demo reviews), or null
   * (the stored profile is not the demo one).
   */
  demo_profile: 'kept' | 'dropped' | null;
  /** Reviews of the seeded demo (fictional) still stored after the import. */
  demo_reviews: number;
  revision_before: number;
  revision_after: number;
}

export interface PreparedImport {
  plan: ImportPlan;
  /** The business profile to store (canonical JSON), when it changes. */
  businessJson: string | undefined;
  outcome: ImportOutcome;
  /** False when nothing is to be written: a dry run, or nothing changed. */
  write: boolean;
}

/** Whether a stored profile is the seeded demo one (its name and description, which say it is fictional). */
function isDemoProfile(json: string | undefined): boolean {
  if (json === undefined) return false;
  const b = JSON.parse(json) as Business;
  return b.name === DEMO_BUSINESS.name && b.description === DEMO_BUSINESS.description;
}

let demoIds: ReadonlySet<string> | undefined;
/** The ids of the seeded demo reviews (the generator is deterministic), made on first need. */
const demoReviewIds = () => (demoIds ??= new Set(demoReviews().map((r) => r.id)));

/**
 * Everything a store needs to apply an import, worked out the same way for every store: the
 * plan, the business change, and the outcome (revision_after is set when `write` is true).
 *
 * The demo profile speaks for the demo reviews: once a --replace import leaves none of them and
 * brings no profile, it is replaced by the placeholder profile, so the demo company's name,
 * phone, technicians and services (and "Reply from ..." under replies) do not claim the
 * operator's own reviews. A profile the operator imported is never touched.
 */
export function prepareImport(
  existing: ReadonlyMap<string, string>,
  storedBusinessJson: string | undefined,
  req: { reviews: readonly Review[]; business?: Business; replace: boolean; dryRun: boolean },
  revision: number,
): PreparedImport {
  const plan = planImport(existing, req.reviews, req.replace);
  // The demo's 320 ids are looked up, not every review's: the import's own lookups are the cost.
  let demoLeft = 0;
  for (const id of demoReviewIds()) if (plan.incoming.has(id) || (!req.replace && existing.has(id))) demoLeft++;
  const demoProfile = req.business === undefined && isDemoProfile(storedBusinessJson);
  const dropDemo = demoProfile && req.replace && demoLeft === 0;
  // Parsed again so the stored JSON has schema key order whoever the caller is.
  const profile = dropDemo ? PLACEHOLDER_BUSINESS : req.business;
  const next = profile ? JSON.stringify(BusinessSchema.parse(profile)) : undefined;
  const businessChanged = next !== undefined && next !== storedBusinessJson;
  const write = !req.dryRun && (!planIsEmpty(plan) || businessChanged);
  return {
    plan,
    businessJson: businessChanged ? next : undefined,
    write,
    outcome: {
      added: plan.added.length,
      updated: plan.updated.length,
      removed: plan.removed.length,
      unchanged: plan.unchanged,
      business_changed: businessChanged,
      demo_profile: dropDemo ? 'dropped' : demoProfile ? 'kept' : null,
      demo_reviews: demoLeft,
      revision_before: revision,
      revision_after: write ? revision + 1 : revision,
    },
  };
}
