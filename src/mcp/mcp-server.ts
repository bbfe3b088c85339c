/** The MCP server for one request: tools, resources, prompts and completions over one snapshot. */
import { publishReview, ratingSentence, verifiedCount } from '../core/reviews.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type CallToolResult,
  type GetPromptRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { PROMPT_ARGUMENTS } from '../core/schema/prompts.js';
import type { Snapshot } from '../snapshot/snapshot.js';
import { SERVER_GUIDE, toolList } from './catalogue.js';
import { completeArgument, registerPrompts } from './prompts.js';
import type { Splices } from './splice.js';
import { MAX_SUBSCRIPTIONS, type SessionSubscriptions } from './streams.js';
import { TOOLS, ToolFailure } from './tools.js';

/** The requests this server answers, by method, with the SDK schema their params must meet. */
const PROTOCOL_REQUESTS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>(
  [
    InitializeRequestSchema,
    PingRequestSchema,
    ListToolsRequestSchema,
    CallToolRequestSchema,
    ListResourcesRequestSchema,
    ListResourceTemplatesRequestSchema,
    ReadResourceRequestSchema,
    SubscribeRequestSchema,
    UnsubscribeRequestSchema,
    ListPromptsRequestSchema,
    GetPromptRequestSchema,
    CompleteRequestSchema,
    SetLevelRequestSchema,
  ].map((schema) => [schema.shape.method.value, schema as z.ZodType]),
);

/**
 * Why a request's params are invalid for its method, in a line, or null. The SDK would answer
 * -32603 (internal error) with the whole zod report; invalid params are -32602 (JSON-RPC 2.0)
 * with a short message. A prompt's arguments are judged here too (a wrong one is -32602 as well);
 * tool arguments are not: a wrong argument is a tool result with isError, so the model reads
 * what to fix (reference notes §3.6).
 */
export function paramsProblem(message: { method: string }): string | null {
  const schema = PROTOCOL_REQUESTS.get(message.method);
  if (!schema) return null;
  const parsed = schema.safeParse(message);
  if (parsed.success) return message.method === 'prompts/get' ? promptArgumentsProblem((parsed.data as GetPromptRequest).params) : null;
  const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(request)'}: ${i.message.replace(/^Invalid input: /, '')}`);
  return `Invalid params for ${message.method}: ${issues.join('; ')}${parsed.error.issues.length > 3 ? '; ...' : ''}`;
}

/** Each prompt's arguments as the object prompts/get checks (unknown arguments are left out, as the SDK does). */
const PROMPT_INPUTS: ReadonlyMap<string, z.ZodObject> = new Map(Object.entries(PROMPT_ARGUMENTS).map(([name, shape]) => [name, z.object(shape)]));

/**
 * Why a prompt's arguments are wrong, naming each with its schema's message, or null. Checked
 * here, before the SDK's own check, which would answer zod's text ("Invalid ISO date at date").
 */
function promptArgumentsProblem(params: GetPromptRequest['params']): string | null {
  const input = PROMPT_INPUTS.get(params.name);
  if (!input) return null;
  const args = params.arguments ?? {};
  const parsed = input.safeParse(args);
  return parsed.success ? null : `Invalid arguments for prompt ${params.name}: ${argumentProblems(input, args, parsed.error).join('; ')}`;
}

/** Each Server would otherwise build its own Ajv instance, which costs more than answering a tool call. */
const VALIDATOR = new AjvJsonSchemaValidator();

function result(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

function failure(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

/** The JSON types a value of the wrong type is told to send instead; "int" is none (JSON has numbers), and its message says "a whole number". */
const JSON_TYPES = new Set(['string', 'number', 'boolean', 'object', 'array']);

/**
 * Each wrong argument by name, with the message its schema defines (the HTTP search's, for the
 * search's parameters) and, for a value of the wrong JSON type, the type to send; a missing one
 * is said to be required.
 */
function argumentProblems(input: z.ZodObject, args: unknown, error: z.ZodError): string[] {
  return error.issues.flatMap((i) => {
    if (i.code === 'unrecognized_keys') {
      return i.keys.map((k) => `argument "${k}": unknown argument; remove it (accepted: ${Object.keys(input.shape).join(', ') || 'none'})`);
    }
    const name = i.path.join('.') || '(arguments)';
    const missing = i.code === 'invalid_type' && i.path.length === 1 && !(typeof args === 'object' && args !== null && Object.hasOwn(args, i.path[0]!));
    if (missing) return [`argument "${name}": is required`];
    const fix = i.code === 'invalid_type' && JSON_TYPES.has(i.expected) ? `; send a JSON ${i.expected}` : '';
    return [`argument "${name}": ${i.message}${fix}`];
  });
}

function instructions(snap: Snapshot): string {
  const b = snap.business;
  const rating = ratingSentence(snap.aggregate, verifiedCount(snap.index.reviews));
  return `Read-only access to the customer reviews of ${b.name}${b.address?.locality ? ` (${b.address.locality})` : ''}. ${rating} ${SERVER_GUIDE}`;
}

/**
 * An MCP server over one snapshot of the data. One is made per HTTP request (the transport is
 * stateless; sessions are checked before the request reaches it), so every answer reflects the
 * current revision. Tools and resources are answered by low-level handlers (their schemas are
 * made once, their big bodies spliced in); prompts are registered through the SDK's
 * registerPrompt. `subscriptions` is the session's, absent on initialize.
 */
export function buildMcpServer(snap: Snapshot, baseUrl: string, version: string, splices: Splices, subscriptions?: SessionSubscriptions): McpServer {
  const mcp = new McpServer(
    { name: 'reviewcast', title: `${snap.business.name} reviews`, version },
    {
      capabilities: { tools: { listChanged: false }, resources: { subscribe: true, listChanged: true }, prompts: { listChanged: false }, completions: {}, logging: {} },
      instructions: instructions(snap),
      jsonSchemaValidator: VALIDATOR,
    },
  );
  const server = mcp.server;
  const shapes = registerPrompts(mcp, snap, baseUrl);
  // registerPrompt declares a prompt list that may change; this one never does while the process runs.
  server.registerCapabilities({ prompts: { listChanged: false } });
  // In place of the SDK's completion handler, which answers an unknown prompt with an error.
  server.setRequestHandler(CompleteRequestSchema, (req) => completeArgument(shapes, snap, req.params));

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolList() }));

  server.setRequestHandler(CallToolRequestSchema, (req) => {
    const tool = TOOLS.find((t) => t.name === req.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${req.params.name}". Available tools: ${TOOLS.map((t) => t.name).join(', ')}`);
    // Arguments are JSON and are checked as JSON: true is not 1, [5] is not 5. A wrong one is a tool
    // result with isError, not a protocol error, so the model reads what to fix and calls again.
    const args = req.params.arguments ?? {};
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) return failure(`Invalid arguments for ${tool.name}: ${argumentProblems(tool.input, args, parsed.error).join('; ')}. Fix these and call again.`);
    const out = tool.run(parsed.data as never, snap, baseUrl);
    return out instanceof ToolFailure ? failure(out.message) : result(out as Record<string, unknown>);
  });

  const resources = [
    { uri: `${baseUrl}/reviews.json`, name: 'reviews', title: 'All reviews', description: 'Business profile, aggregate rating and every review (newest first)', mimeType: 'application/json' },
    { uri: `${baseUrl}/insights.json`, name: 'insights', title: 'Review insights', description: 'Aspect sentiment, entities, topics, trend, FAQ and summary', mimeType: 'application/json' },
  ];
  const reviewUri = /^review:\/\/([0-9A-HJKMNP-TV-Z]{26})$/;
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: 'review://{id}', name: 'review', title: 'One review', description: 'A single review by id, with its analysis', mimeType: 'application/json' }],
  }));
  const known = (uri: string) => resources.some((r) => r.uri === uri) || (uri.startsWith('review://') && snap.review(uri.slice('review://'.length)) !== undefined);
  server.setRequestHandler(SubscribeRequestSchema, (req) => {
    if (!known(req.params.uri)) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${req.params.uri}". Resources: ${resources.map((r) => r.uri).join(', ')}, review://{id}`);
    if (!subscriptions) throw new McpError(ErrorCode.InvalidRequest, 'Subscribe within a session (send Mcp-Session-Id)');
    if (!subscriptions.subscribe(req.params.uri, snap)) throw new McpError(ErrorCode.InvalidRequest, `A session may hold ${MAX_SUBSCRIPTIONS} subscriptions at once; unsubscribe from one first`);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (req) => {
    subscriptions?.unsubscribe(req.params.uri);
    return {};
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    let text: string | undefined;
    // The two documents are escaped once per revision and spliced into the answer (see Splices), not serialised per read.
    if (uri === resources[0]!.uri) text = splices.add(await snap.escapedDocument('/reviews.json', baseUrl));
    else if (uri === resources[1]!.uri) text = splices.add(await snap.escapedDocument('/insights.json', baseUrl));
    else {
      const id = reviewUri.exec(uri)?.[1];
      const review = id && snap.review(id);
      if (review) text = JSON.stringify({ review: publishReview(review, baseUrl), analysis: snap.analysisOf(review.id) });
    }
    if (text === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown resource "${uri}". Resources: ${resources.map((r) => r.uri).join(', ')}, review://{id}`);
    return { contents: [{ uri, mimeType: 'application/json', text }] };
  });

  // Nothing is logged to clients; accepting the level keeps clients that set it working.
  server.setRequestHandler(SetLevelRequestSchema, () => ({}));
  return mcp;
}
