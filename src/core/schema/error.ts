/** The error body schema of the JSON API. */
import { z } from 'zod';

const ValidationIssueSchema = z
  .object({
    parameter: z.string().describe('The query or path parameter at fault'),
    code: z.string().describe('Machine-readable kind of problem, e.g. too_big, invalid_format, unknown_parameter'),
    message: z.string().describe('What is wrong and how to fix it'),
  })
  .meta({ id: 'ValidationIssue' });

export const ErrorBodySchema = z
  .object({
    error: z.string().describe('Stable error code from the error catalogue'),
    message: z.string().describe('Human-readable explanation'),
    issues: z.array(ValidationIssueSchema).optional().describe('Present on validation_error: one entry per problem'),
  })
  .meta({ id: 'Error', description: 'Every error response of the JSON API' });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ValidationIssue = z.infer<typeof ValidationIssueSchema>;
