/** The MCP prompts' arguments: one definition for prompts/list, prompts/get validation and completion. */
import { z } from 'zod';
import { IsoDateParam, Ulid } from './common.js';

/** Tones a drafted reply may take. */
export const ReplyTone = z.enum(['warm', 'formal', 'brief'], { error: 'must be warm, formal or brief' });

/**
 * Each prompt's arguments as a zod shape. MCP prompt arguments are strings, so every field is
 * a string schema; the MCP layer adds completion from the live data to each. Each field has one
 * plain message for whatever is wrong with it, said after its name (a missing one "is required").
 */
export const PROMPT_ARGUMENTS = {
  summarise_aspect: {
    aspect: z
      .string({ error: 'must be an aspect id or label of 1 to 100 characters, e.g. "punctuality"' })
      .trim()
      .min(1)
      .max(100)
      .describe('Aspect id or label, e.g. "punctuality" or "Pricing and value"; completion lists them'),
  },
  compare_technicians: {
    technicians: z
      .string({ error: 'must be technician names or aliases separated by commas, at most 500 characters in all' })
      .max(500)
      .optional()
      .describe('Technicians to compare, by name or alias, separated by commas; leave out to compare every technician customers name'),
  },
  changes_since: {
    date: IsoDateParam.describe('First day of the period, YYYY-MM-DD; completion offers the first day of each month with reviews'),
  },
  draft_reply: {
    id: Ulid.describe('Id of the review to reply to (ULID), as in search results or review://{id}'),
    tone: ReplyTone.optional().describe('Tone of the reply: warm (the default), formal or brief'),
  },
} as const;

export type PromptName = keyof typeof PROMPT_ARGUMENTS;
