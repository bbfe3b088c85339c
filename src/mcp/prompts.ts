/** The MCP prompts (the jobs people bring to a review server) and completion of their arguments and of review://{id} from the data. */
import { completable, getCompleter } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ErrorCode, McpError, type CompleteRequest, type CompleteResult, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { meanRating, publishReview } from '../core/reviews.js';
import { findTechnician, reviewsSince } from '../core/search.js';
import { PROMPT_ARGUMENTS, ReplyTone, type PromptName } from '../core/schema/prompts.js';
import { PROMPTS } from './catalogue.js';
import type { Review } from '../core/schema/review.js';
import type { Snapshot } from '../snapshot/snapshot.js';

/** The most values one completion answer holds (the MCP limit). */
const MAX_COMPLETIONS = 100;
/** Reviews quoted in full inside a prompt: enough to ground a summary, few enough for a model's context. */
const QUOTED = 5;

const norm = (s: string) => s.trim().toLowerCase();
const containing = (value: string) => {
  const v = norm(value);
  return (candidate: string) => norm(candidate).includes(v);
};

/** Values of each kind of argument, completed from one snapshot. */
function completers(snap: Snapshot) {
  return {
    aspect: (value: string) => {
      const match = containing(value);
      return snap.insights().aspects.filter((a) => match(a.id) || match(a.label)).map((a) => a.id);
    },
    /** The last name of a comma-separated list is the one completed; the names before it are kept. */
    technicians: (value: string) => {
      const cut = value.lastIndexOf(',');
      const head = cut < 0 ? '' : `${value.slice(0, cut + 1)} `.replace(/,\s+$/, ', ');
      const match = containing(value.slice(cut + 1));
      const named = value.slice(0, Math.max(cut, 0)).split(',');
      return snap
        .insights()
        .entities.technicians.filter((t) => !named.some((n) => findTechnician([t], n)) && (match(t.name) || t.aliases.some(match)))
        .map((t) => `${head}${t.name}`);
    },
    date: (value: string) => {
      const months: string[] = [];
      for (const r of snap.index.reviews) {
        const first = `${r.date.slice(0, 7)}-01`;
        if (months.at(-1) !== first) months.push(first);
      }
      return months.filter((m) => m.startsWith(value.trim()));
    },
    id: (value: string) => {
      const prefix = value.trim().toUpperCase();
      const ids: string[] = [];
      for (const r of snap.index.reviews) {
        if (r.id.startsWith(prefix)) ids.push(r.id);
        // One past the limit tells the client there are more.
        if (ids.length > MAX_COMPLETIONS) break;
      }
      return ids;
    },
    tone: (value: string) => ReplyTone.options.filter((t) => t.startsWith(norm(value))),
  };
}

function completionResult(values: string[]): CompleteResult {
  return { completion: { values: values.slice(0, MAX_COMPLETIONS), hasMore: values.length > MAX_COMPLETIONS } };
}

const NOTHING: CompleteResult = { completion: { values: [], hasMore: false } };

function reviewBlock(r: Review, baseUrl: string): string {
  const p = publishReview(r, baseUrl);
  return `- ${p.rating}/5, ${p.date}, ${p.author} (${p.url}${p.source_url ? `; original: ${p.source_url}` : ''}): ${p.text ?? '(rating only, no text)'}`;
}

const CITE = 'Quote customers word for word and cite each quoted review by its url; do not invent reviews or figures. The tools of this server (search_reviews, get_review ...) give more when needed.';

function userText(text: string): GetPromptResult['messages'][number] {
  return { role: 'user', content: { type: 'text', text } };
}

/** A kind of argument completed from the data. */
type Completed = keyof ReturnType<typeof completers>;

/**
 * Copies of argument schemas made completable against a snapshot held weakly. zod can keep a
 * schema past its server (a lazily cached getter on its shared prototype held the first one
 * seen), and a completer that reached the snapshot kept a retired one, and all it holds, alive.
 * Made here, not inside registerPrompts: a V8 closure keeps its whole scope, and that one holds
 * the snapshot.
 */
function completableShape<S extends Record<string, z.ZodType>>(args: S, kinds: { [K in keyof S]: Completed }, weak: WeakRef<Snapshot>): S {
  const complete = (kind: Completed, value: unknown): string[] => {
    const current = weak.deref();
    return current ? completers(current)[kind](String(value ?? '')) : [];
  };
  return Object.fromEntries(Object.entries(args).map(([arg, schema]) => [arg, completable(schema.clone(), (value: unknown) => complete(kinds[arg as keyof S], value) as never)])) as unknown as S;
}

/**
 * Registers the prompts on a server over one snapshot. Each argument schema is a copy of the
 * one in core/schema made completable against this snapshot (completable marks the schema it
 * is given, so the shared definition is never marked).
 */
export function registerPrompts(server: McpServer, snap: Snapshot, baseUrl: string): PromptShapes {
  const weak = new WeakRef(snap);
  const business = snap.business.name;
  const shapes: PromptShapes = {};
  const shape = <S extends Record<string, z.ZodType>>(name: PromptName, args: S, kinds: { [K in keyof S]: Completed }): S => {
    const made = completableShape(args, kinds, weak);
    shapes[name] = made;
    return made;
  };
  const byId = (id: string) => snap.review(id);

  server.registerPrompt(
    'summarise_aspect',
    {
      ...PROMPTS.summarise_aspect,
      argsSchema: shape('summarise_aspect', PROMPT_ARGUMENTS.summarise_aspect, { aspect: 'aspect' }),
    },
    ({ aspect }) => {
      const all = snap.insights().aspects;
      const entry = all.find((a) => a.id === norm(aspect) || norm(a.label) === norm(aspect));
      if (!entry) throw new McpError(ErrorCode.InvalidParams, `Unknown aspect "${aspect}". Valid aspects: ${all.map((a) => a.id).join(', ')}`);
      const examples = entry.example_review_ids.slice(0, QUOTED).map(byId).filter((r) => r !== undefined);
      const { id, label, mention_count, positive_count, neutral_count, negative_count, positive_pct, top_phrases } = entry;
      return {
        description: `What customers of ${business} say about ${label}`,
        messages: [
          userText(
            [
              `Summarise what customers of ${business} say about ${label.toLowerCase()} (aspect "${id}").`,
              `Figures from all reviews: ${JSON.stringify({ mention_count, positive_count, neutral_count, negative_count, positive_pct, top_phrases })}`,
              examples.length ? `Example reviews:\n${examples.map((r) => reviewBlock(r, baseUrl)).join('\n')}` : 'No review mentions it yet: say so.',
              `Give the balance of opinion with the figures, then what praise and complaints have in common, with two or three short quotes. For more reviews on it, call search_reviews with a query word from the phrases. ${CITE}`,
            ].join('\n\n'),
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    'compare_technicians',
    {
      ...PROMPTS.compare_technicians,
      argsSchema: shape('compare_technicians', PROMPT_ARGUMENTS.compare_technicians, { technicians: 'technicians' }),
    },
    ({ technicians }) => {
      const all = snap.insights().entities.technicians;
      const names = (technicians ?? '').split(',').map((n) => n.trim()).filter((n) => n !== '');
      const unknown = names.filter((n) => !findTechnician(all, n));
      if (unknown.length) throw new McpError(ErrorCode.InvalidParams, `No technician called ${unknown.map((n) => `"${n}"`).join(', ')} appears in the reviews. Valid names: ${all.map((t) => t.name).join(', ') || 'none'}`);
      const chosen = names.length ? [...new Set(names.map((n) => findTechnician(all, n)!))] : all;
      const stats = chosen.map(({ name, aliases, mention_count, average_rating, sentiment, top_phrases }) => ({ name, aliases, mention_count, average_rating, sentiment, top_phrases }));
      const quotes = chosen.flatMap((t) => t.example_review_ids.slice(0, 2).map(byId).filter((r) => r !== undefined).map((r) => `${t.name}: ${reviewBlock(r, baseUrl).slice(2)}`));
      return {
        description: `Technicians of ${business} compared`,
        messages: [
          userText(
            [
              `Compare ${chosen.length === all.length ? 'the technicians' : chosen.map((t) => t.name).join(', ')} of ${business} as customers describe them.`,
              chosen.length ? `Figures: ${JSON.stringify(stats)}` : 'No review names a technician: say so.',
              quotes.length ? `Example reviews:\n${quotes.map((q) => `- ${q}`).join('\n')}` : '',
              `Compare on the figures first, and say when a technician is named in too few reviews to judge. Then what customers praise or criticise in each. get_technician gives a technician's recent reviews. ${CITE}`,
            ]
              .filter((s) => s !== '')
              .join('\n\n'),
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    'changes_since',
    {
      ...PROMPTS.changes_since,
      argsSchema: shape('changes_since', PROMPT_ARGUMENTS.changes_since, { date: 'date' }),
    },
    ({ date }) => {
      const recent = reviewsSince(snap.index, date);
      const earlier = snap.index.reviews.slice(recent.length);
      const mean = (rs: readonly Review[]) => meanRating(rs.map((r) => r.rating));
      const figures = { since: date, new_reviews: recent.length, new_average_rating: mean(recent), earlier_reviews: earlier.length, earlier_average_rating: mean(earlier) };
      return {
        description: `Reviews of ${business} since ${date}`,
        messages: [
          userText(
            [
              `What has changed in the reviews of ${business} since ${date}?`,
              `Figures: ${JSON.stringify(figures)}`,
              recent.length ? `The newest:\n${recent.slice(0, QUOTED).map((r) => reviewBlock(r, baseUrl)).join('\n')}` : 'No review is dated on or after it: say so.',
              `Read all of them with get_reviews_since {"date": "${date}"}, following next_cursor to the last page; get_trends has the monthly figures. Say whether ratings rose or fell and what the new reviews praise or complain about. ${CITE}`,
            ].join('\n\n'),
          ),
        ],
      };
    },
  );

  server.registerPrompt(
    'draft_reply',
    {
      ...PROMPTS.draft_reply,
      argsSchema: shape('draft_reply', PROMPT_ARGUMENTS.draft_reply, { id: 'id', tone: 'tone' }),
    },
    ({ id, tone }) => {
      const review = byId(id);
      if (!review) throw new McpError(ErrorCode.InvalidParams, `No review has id "${id}"; complete the id argument, or take ids from search_reviews`);
      const analysis = snap.analysisOf(review.id);
      const published = publishReview(review, baseUrl);
      return {
        description: `A reply from ${business} to ${review.author}'s ${review.rating}-star review`,
        messages: [
          { role: 'user', content: { type: 'resource', resource: { uri: `review://${review.id}`, mimeType: 'application/json', text: JSON.stringify({ review: published, analysis }) } } },
          userText(
            [
              `Draft a public reply from ${business} to the review above, in a ${tone ?? 'warm'} tone.`,
              'Thank the customer by the name they wrote under, answer each point they raised (the analysis lists the aspects and their polarity), apologise plainly for what went wrong without excuses, and promise nothing the business has not said it will do. No private details, no discount codes. At most 120 words.',
              review.owner_reply ? `The business already replied on ${review.owner_reply.date}; draft an improved reply and say what changed.` : '',
              `The owner posts the reply themselves${published.source_url ? ` at ${published.source_url}` : ` on ${review.source}`}: this server is read-only.`,
            ]
              .filter((s) => s !== '')
              .join(' '),
          ),
        ],
      };
    },
  );
  return shapes;
}

/** Each prompt's argument schemas as registered, carrying their completers. */
export type PromptShapes = Record<string, Record<string, z.ZodType>>;

/**
 * completion/complete: values for a prompt argument (through the completer its schema carries)
 * or for the id of review://{id}. A reference or argument this server does not know gets an
 * empty list, as the completion spec allows, rather than an error a client must handle.
 */
export async function completeArgument(shapes: PromptShapes, snap: Snapshot, req: CompleteRequest['params']): Promise<CompleteResult> {
  const { ref, argument } = req;
  if (ref.type === 'ref/resource') return ref.uri === 'review://{id}' && argument.name === 'id' ? completionResult(completers(snap).id(argument.value)) : NOTHING;
  const schema = Object.hasOwn(shapes, ref.name) && Object.hasOwn(shapes[ref.name]!, argument.name) ? shapes[ref.name]![argument.name]! : undefined;
  const completer = schema && getCompleter(schema);
  if (!completer) return NOTHING;
  return completionResult((await completer(argument.value, req.context)) as string[]);
}
