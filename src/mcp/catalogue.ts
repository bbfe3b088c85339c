/** What the MCP server offers, described without the SDK (tools with their JSON schemas, prompts, the guide): read by the pages and by the server. */
import type { z } from 'zod';
import { objectJsonSchemaOf } from '../core/schema/json-schema.js';
import { PROMPT_ARGUMENTS, type PromptName } from '../core/schema/prompts.js';
import { TOOLS } from './tools.js';

/** MCP wants `type: "object"` at the root of both schemas. */
function jsonSchema(schema: z.ZodObject, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  return objectJsonSchemaOf(schema, io) as { type: 'object'; [k: string]: unknown };
}

/** A tool as tools/list gives it. */
export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  outputSchema: { type: 'object'; [k: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; openWorldHint: boolean; idempotentHint: boolean; destructiveHint: boolean };
}

let listed: ListedTool[] | null = null;

/** The tool list never changes while the process runs: its JSON schemas are made once, when first asked for (not at start). */
export function toolList(): ListedTool[] {
  listed ??= TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, 'input'),
    outputSchema: jsonSchema(t.output, 'output'),
    annotations: { title: t.title, readOnlyHint: true, openWorldHint: false, idempotentHint: true, destructiveHint: false },
  }));
  return listed;
}

/**
 * What this server is for and which tool, prompt or resource answers which question: sent as
 * `instructions` on initialize (after a line about the business) and shown on /developers/mcp.
 */
export const SERVER_GUIDE = [
  'Start with get_summary or get_business.',
  'For a question about one side of the service (timeliness, prices, cleanliness ...) use list_aspects and get_aspect_sentiment; about a person, get_technician; about a service, get_service; for quotes or counts, search_reviews; for what is new since a date, get_reviews_since; for change over time, get_trends; common questions are answered by get_faq; one review in full, with the sentences behind its analysis, get_review.',
  'search_reviews and get_reviews_since answer a page at a time: call again with cursor set to next_cursor until it is null. With short_texts true, long texts are cut (text_shortened says so) and get_review has the whole text.',
  'Prompts: summarise_aspect, compare_technicians, changes_since and draft_reply (the reply is a draft for the owner to post; nothing can be posted through this server). Arguments that name things complete from the data (completion/complete).',
  'Resources: the whole dataset, the insights and review://{id}; subscribe to one to hear when it changes (over the GET /mcp stream).',
  'Quote reviews as written and cite each by its url (its permalink page; source_url is the original where known). Every tool is read-only; nothing can be changed through this server.',
].join(' ');

/** Each prompt's title and description, as prompts/list and /developers/mcp give them. */
export const PROMPTS: Record<PromptName, { title: string; description: string }> = {
  summarise_aspect: {
    title: 'What customers say about an aspect',
    description: 'Summarise what customers say about one aspect of the service (punctuality, pricing, cleanliness ...): the balance of opinion, the recurring phrases and quotes, with figures.',
  },
  compare_technicians: {
    title: 'Compare technicians',
    description: 'Compare the technicians customers name: how many reviews name each, their average rating, sentiment and what customers say about them, with quotes.',
  },
  changes_since: {
    title: 'What changed since a date',
    description: 'What is new in the reviews since a date: how many came in, their ratings against the earlier ones, and what the new reviews praise or criticise.',
  },
  draft_reply: {
    title: 'Draft a reply to a review',
    description: 'Draft the business\'s public reply to one review. This server cannot post it: the draft is for the owner to post at the review\'s source.',
  },
};

/** The prompts with their arguments, for the developer page. */
export function promptList(): { name: string; title: string; description: string; arguments: { name: string; description: string; required: boolean }[] }[] {
  return Object.entries(PROMPTS).map(([name, meta]) => ({
    name,
    ...meta,
    arguments: Object.entries(PROMPT_ARGUMENTS[name as PromptName]).map(([arg, schema]) => ({ name: arg, description: schema.description ?? '', required: !schema.isOptional() })),
  }));
}
