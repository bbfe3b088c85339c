/** The developer pages: overview, API reference, MCP setup and WebSub guide. */
import type { z } from 'zod';
import { objectJsonSchemaOf } from '../core/schema/json-schema.js';
import { InsightsSchema } from '../core/schema/insights.js';
import { JsonFeedItemSchema } from '../core/schema/jsonfeed.js';
import { PublishedReviewSchema } from '../core/schema/review.js';
import { BusinessSchema } from '../core/schema/business.js';
import type { Business } from '../core/schema/business.js';
import { SERVER_GUIDE, promptList, toolList } from '../mcp/catalogue.js';
import { MAX_SUBSCRIPTIONS } from '../mcp/streams.js';
import { html, type Html } from './html.js';
import { breakableName, codeBlock, fieldTable as schemaFieldTable, scrollTable, type JsonSchemaNode } from './schema-docs.js';
import { layout } from './layout.js';
import type { HttpConfig } from '../config.js';
import { SHORT_TEXT_CHARS, SINCE_TOOL_LIMIT, TOOL_ANSWER_MAX_BYTES } from '../core/schema/search.js';
import { HUB_BODY_BYTES, kb, MAX_HEADER_BYTES, MCP_BODY_BYTES, URL_LIMIT_TEXT } from '../limits.js';

interface Ctx {
  baseUrl: string;
  business: Business;
  /** The configured limits, stated on the overview. */
  limits: HttpConfig;
  /** Kilobytes of answers a client may have per minute (RATE_LIMIT_COST_KB). */
  answerKbPerMinute: number;
}

const seconds = (ms: number) => `${(ms / 1000).toLocaleString('en')} s`;
const code = (s: string) => codeBlock(s);
/** A command to paste into a terminal, with a copy button. */
const command = (s: string) => codeBlock(s, true);

/**
 * Testing the hub on one machine over real HTTPS: a test CA trusted through NODE_EXTRA_CA_CERTS
 * and loopback callbacks allowed. Shown here and in docs/websub.md; test/docs-commands.test.ts
 * runs it.
 */
export const LOCAL_HUB_SCRIPT = `# From the repository root, after npm install (which builds dist/). Needs openssl and curl.
PORT=\${PORT:-3000} CB_PORT=\${CB_PORT:-8443}
dir=$(mktemp -d)
# 1. A throwaway test CA, and a certificate for localhost that it signs.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj '/CN=Reviewcast test CA' -keyout "$dir/ca.key" -out "$dir/ca.crt" \\
  -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj '/CN=localhost' -keyout "$dir/cb.key" -out "$dir/cb.csr" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > "$dir/san.ext"
openssl x509 -req -in "$dir/cb.csr" -CA "$dir/ca.crt" -CAkey "$dir/ca.key" -CAcreateserial -days 2 -extfile "$dir/san.ext" -out "$dir/cb.crt" 2>/dev/null
# 2. An HTTPS callback: answers the verification with hub.challenge, prints (and logs) what it gets.
cat > "$dir/callback.mjs" <<'EOF'
import { createServer } from 'node:https';
import { appendFileSync, readFileSync } from 'node:fs';
const dir = process.argv[2];
const say = (line) => { console.log(line); appendFileSync(\`\${dir}/callback.log\`, \`\${line}\\n\`); };
createServer({ key: readFileSync(\`\${dir}/cb.key\`), cert: readFileSync(\`\${dir}/cb.crt\`) }, (req, res) => {
  const q = new URL(req.url, 'https://localhost').searchParams;
  if (req.method === 'GET') {
    say(\`callback: verified \${q.get('hub.mode')} of \${q.get('hub.topic')}\`);
    return res.end(q.get('hub.challenge'));
  }
  let bytes = 0;
  req.on('data', (c) => (bytes += c.length)).on('end', () => {
    say(\`callback: delivery of \${bytes} bytes, \${req.headers['content-type']}\`);
    res.end();
  });
}).listen(Number(process.argv[3]), '127.0.0.1');
EOF
node "$dir/callback.mjs" "$dir" "$CB_PORT" & cb=$!
# 3. Reviewcast trusting the test CA (NODE_EXTRA_CA_CERTS), with loopback callbacks allowed (local testing only).
NODE_EXTRA_CA_CERTS="$dir/ca.crt" HUB_ALLOW_PRIVATE_CALLBACKS=true PORT=$PORT DATABASE_URL="$dir/hub.db" LOG_LEVEL=warn \\
  node bin/reviewcast.js serve & svc=$!
wait_for() { for _ in $(seq 600); do eval "$1" && return 0; sleep 0.2; done; echo "gave up waiting for: $1" >&2; return 1; }
wait_for 'curl -sf "http://localhost:$PORT/healthz" >/dev/null'
# 4. Subscribe the callback to the Atom feed: 202, then the verification request reaches the callback.
curl -s "http://localhost:$PORT/api/websub/hub" -d hub.mode=subscribe -d "hub.topic=http://localhost:$PORT/feed.xml" \\
  -d "hub.callback=https://localhost:$CB_PORT/hook"; echo
wait_for 'grep -q verified "$dir/callback.log" 2>/dev/null'
# 5. Change the data: the hub POSTs the new feed to the callback.
printf '[{"author":"Hub test","rating":5,"date":"2026-11-23","text":"Delivered over HTTPS.","source":"test"}]' > "$dir/one.json"
DATABASE_URL="$dir/hub.db" node bin/reviewcast.js import "$dir/one.json"
wait_for 'grep -q delivery "$dir/callback.log" 2>/dev/null'
kill $svc $cb; wait; rm -rf "$dir"`;

/**
 * The MCP Inspector smoke call shown here, in docs/mcp.md and in README.md. `-y` because npx
 * downloads the Inspector on first use and, without a terminal to ask, would refuse to; it is
 * not a devDependency (it asks for INSPECTOR_NODE). scripts/check-inspector.sh runs this very
 * command against a server, and test/docs-commands.test.ts checks the docs show the same.
 */
export const inspectorCommand = (mcpUrl: string) => `npx -y @modelcontextprotocol/inspector@2.12.0 --cli ${mcpUrl} --transport http --method tools/list`;

/** The Node the Inspector's package asks for (its engines field); older Node runs its command line with npm's EBADENGINE warnings. */
export const INSPECTOR_NODE = '22.19';

/** One row per field of a zod object, from the same schema the API validates with. */
const fieldTable = (schema: z.ZodObject, caption: string): Html => schemaFieldTable(objectJsonSchemaOf(schema) as JsonSchemaNode, caption);

function page(ctx: Ctx, path: string, title: string, description: string, body: Html, head?: Html): Html {
  return layout({ title: `${title} · ${ctx.business.name}`, description, baseUrl: ctx.baseUrl, path, business: ctx.business, head }, body);
}

export function renderDevelopersPage(ctx: Ctx): Html {
  const u = ctx.baseUrl;
  const endpoints: [string, string, string][] = [
    ['Full dataset: business, aggregate rating, every review', 'GET /reviews.json', `curl -s ${u}/reviews.json`],
    ['Insights: aspects, technicians, services, topics, trend, FAQ, summary', 'GET /insights.json', `curl -s ${u}/insights.json`],
    ['Search (all filters combine; limit 1-100, default 20)', 'GET /api/reviews/search', `curl -s '${u}/api/reviews/search?min_rating=4&query=on%20time&limit=5'`],
    [
      'Sort (newest, oldest, highest, lowest) and page: pass next_cursor back as cursor until it is null; after the data changes an old cursor gets 400 invalid_cursor, start again',
      'GET /api/reviews/search?sort=…&cursor=…',
      `curl -s '${u}/api/reviews/search?sort=lowest&limit=50'\ncurl -s '${u}/api/reviews/search?sort=lowest&limit=50&cursor=<next_cursor from the answer before>'`,
    ],
    ['Reviews on or after a date', 'GET /api/reviews/since/{date}', `curl -s ${u}/api/reviews/since/2026-01-01`],
    ["One review's page (HTML with JSON-LD): every review's url", 'GET /reviews/{id}', `curl -s '${u}/api/reviews/search?limit=1' | grep -o '"url":"[^"]*"'   # then open that address`],
    ['Only when changed: send the ETag back', 'If-None-Match', `etag=$(curl -sI ${u}/reviews.json | grep -i '^etag' | cut -d' ' -f2 | tr -d '\\r')\ncurl -s -o /dev/null -w '%{http_code}\\n' -H "If-None-Match: $etag" ${u}/reviews.json   # 304`],
    ['JSON Feed 1.1 of the 50 newest reviews', 'GET /api/feed.json', `curl -s ${u}/api/feed.json`],
    ['Atom feed of the 50 newest reviews', 'GET /feed.xml', `curl -s ${u}/feed.xml`],
    ['OpenAPI 3.1 description', 'GET /.well-known/openapi.json', `curl -s ${u}/.well-known/openapi.json`],
    ['Prometheus metrics of this process', 'GET /metrics', `curl -s ${u}/metrics`],
    [
      'MCP: initialize, then call a tool with the session id',
      'POST /mcp',
      `sid=$(curl -si ${u}/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}' \\\n  | grep -i '^mcp-session-id' | cut -d' ' -f2 | tr -d '\\r')\ncurl -s ${u}/mcp -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  -H "Mcp-Session-Id: $sid" -H 'MCP-Protocol-Version: 2025-06-18' \\\n  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_reviews","arguments":{"rating":5,"limit":3}}}'`,
    ],
    ['WebSub: subscribe a callback to a topic', 'POST /api/websub/hub', `curl -i ${u}/api/websub/hub -d hub.mode=subscribe \\\n  -d hub.topic=${u}/feed.xml -d hub.callback=https://subscriber.example/hook`],
  ];
  const body = html`<h1>Developers</h1>
<p>Everything here is public and read-only: no key, no account, no token (an <code>Authorization</code> header is ignored). Responses are JSON (<code>application/json</code>) except the Atom feed. Datasets carry a strong <code>ETag</code> and <code>Last-Modified</code>; send them back to get <code>304 Not Modified</code>. Bodies come compressed with brotli or gzip on request.</p>
<ul><li><a href="/developers/api">API reference</a> (rendered from <a href="/.well-known/openapi.json">/.well-known/openapi.json</a>)</li><li><a href="/developers/mcp">MCP for AI assistants</a></li><li><a href="/developers/webhooks">WebSub: push on every change</a></li><li><a href="/developers/widget">Review widget for your own website</a></li><li><a href="#data-model">Data model</a></li><li><a href="/llms.txt">llms.txt</a></li></ul>
<section class="card" aria-labelledby="ex-h"><h2 id="ex-h">Every endpoint, with curl</h2>
${endpoints.map(([what, route, cmd]) => html`<h3>${what} <code>${route}</code></h3>${command(cmd)}`)}
<p>Invalid parameters get <code>400</code> with <code>{ "error": "validation_error", "message", "issues": [{ "parameter", "code", "message" }] }</code>.</p>
<h3 id="limits">Limits</h3>
<p>Each client may send ${ctx.limits.rateLimitPerMinute.toLocaleString('en')} requests a minute over all endpoints; every answer says where it stands in <code>RateLimit: limit=…, remaining=…, reset=…</code> and <code>RateLimit-Policy</code>, and beyond it the answer is <code>429</code> with <code>Retry-After</code> (seconds). Request targets over ${URL_LIMIT_TEXT} get <code>414</code>, headers over ${kb(MAX_HEADER_BYTES)} <code>431</code>, bodies over ${kb(MCP_BODY_BYTES)} (<code>/mcp</code>) or ${kb(HUB_BODY_BYTES)} (the hub) <code>413</code>; each with the same error body (<code>error</code>, <code>message</code>). A client must send its headers within ${seconds(ctx.limits.headersTimeoutMs)} and its request within ${seconds(ctx.limits.requestTimeoutMs)}.</p>
<p>Answers also count by size: each client may have ${ctx.answerKbPerMinute.toLocaleString('en')} KB of answers a minute (an answer built for the request counts its uncompressed size; a <code>304</code> counts nothing), shared by every replica; beyond it every request gets <code>429</code> with <code>Retry-After</code> until the minute ends. So keep <code>/reviews.json</code> and revalidate it with <code>If-None-Match</code> at most once a minute (a <code>304</code> counts nothing), or subscribe to it at the WebSub hub: <code>/api/reviews/since/{date}</code> selects by each review's date, so it shows new reviews but not edits, new replies to older reviews, removals or reviews imported late. The MCP tool <code>get_reviews_since</code> returns a page of at most ${SINCE_TOOL_LIMIT.max} reviews (<code>limit</code>, default ${SINCE_TOOL_LIMIT.default}) and about ${TOOL_ANSWER_MAX_BYTES / 1024} KB, counts all that match in <code>matched</code>, and gives <code>next_cursor</code> for the next page.</p>
</section>
<section class="card" aria-labelledby="data-model"><h2 id="data-model">Data model</h2>
<h3>Review</h3>${fieldTable(PublishedReviewSchema, 'Review fields')}
<p>The database holds every field but <code>url</code>: that is the review's permalink page on this service (<code>/reviews/{id}</code>), added to every review the JSON API and MCP answer with. Imports and <code>reviewcast export</code> use the stored fields.</p>
<h3>Business</h3>${fieldTable(BusinessSchema, 'Business fields')}
<h3>Insights (<code>/insights.json</code>)</h3>${fieldTable(InsightsSchema, 'Insights fields')}
<p>Every nested shape is described in the <a href="/developers/api">API reference</a>.</p>
</section>
<section class="card" aria-labelledby="reviewcast-extension"><h2 id="reviewcast-extension">Feeds and the <code>_reviewcast</code> JSON Feed extension</h2>
<p>Each entry of <a href="/feed.xml">/feed.xml</a> (Atom) and <a href="/api/feed.json">/api/feed.json</a> (JSON Feed 1.1) is one review: its text, then the owner's reply if there is one. It links to the review's page here (Atom <code>link rel="alternate"</code>, JSON Feed <code>url</code>) and, where the review has one, to the original (Atom <code>link rel="via"</code>, JSON Feed <code>external_url</code>). Entry ids are <code>tag:</code> URIs (RFC 4151) fixed when the service was installed, so they stay the same if the service moves to another address.</p>
<p>JSON Feed items carry the review fields a feed item has no place for in the <code>_reviewcast</code> object (JSON Feed 1.1 extensions):</p>
${fieldTable(JsonFeedItemSchema.shape._reviewcast, '_reviewcast fields')}
</section>`;
  return page(ctx, '/developers', 'Developers', `Public API, feeds, MCP and WebSub for the reviews of ${ctx.business.name}.`, body);
}

export function renderMcpPage(ctx: Ctx): Html {
  const url = `${ctx.baseUrl}/mcp`;
  const configs: [string, string, string][] = [
    ['Claude Code', 'Run in a terminal:', `claude mcp add --transport http reviews ${url}`],
    ['Claude Desktop', 'In claude_desktop_config.json (through the mcp-remote bridge):', JSON.stringify({ mcpServers: { reviews: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }, null, 2)],
    ['Cursor', 'In ~/.cursor/mcp.json:', JSON.stringify({ mcpServers: { reviews: { url } } }, null, 2)],
    ['VS Code', 'In .vscode/mcp.json:', JSON.stringify({ servers: { reviews: { type: 'http', url } } }, null, 2)],
    ['Windsurf', 'In ~/.codeium/windsurf/mcp_config.json:', JSON.stringify({ mcpServers: { reviews: { serverUrl: url } } }, null, 2)],
    [
      'MCP Inspector',
      `Run in a terminal; npx downloads the Inspector from npm the first time. It asks for Node ${INSPECTOR_NODE} or later: on Node 20 npm warns (EBADENGINE) and this command still works.`,
      inspectorCommand(url),
    ],
  ];
  const tools = toolList();
  const body = html`<h1>MCP for AI assistants</h1>
<p>This service is a Model Context Protocol server at <code>${url}</code> (streamable HTTP, protocol versions 2025-06-18 and 2025-11-25). It is public and read-only: leave any token or OAuth settings blank.</p>
<section class="card" aria-labelledby="guide-h"><h2 id="guide-h">What it tells assistants</h2>
<p>The <code>initialize</code> answer carries these <code>instructions</code>, after a line naming the business and its rating:</p>
<blockquote>${SERVER_GUIDE}</blockquote>
</section>
<section class="card" aria-labelledby="cfg-h"><h2 id="cfg-h">Connect a client</h2>
${configs.map(([name, where, cfg]) => html`<h3>${name}</h3><p>${where}</p>${command(cfg)}`)}
</section>
<section class="card" aria-labelledby="tools-h"><h2 id="tools-h">Tools</h2>
<p>${tools.length} tools, all read-only (<code>readOnlyHint: true</code>, <code>openWorldHint: false</code>), as this server lists them in <code>tools/list</code>:</p>
${scrollTable(
    'MCP tools',
    html`<table class="tools"><thead><tr><th scope="col">Tool</th><th scope="col">Arguments</th><th scope="col">When to use it</th></tr></thead>
<tbody>${tools.map((t) => {
      const props = (t.inputSchema.properties ?? {}) as Record<string, { description?: string }>;
      const args = Object.entries(props);
      return html`<tr><th scope="row"><code>${breakableName(t.name)}</code></th><td>${args.length ? html`<ul>${args.map(([n, p]) => html`<li><code>${n}</code>: ${p.description ?? ''}</li>`)}</ul>` : 'none'}</td><td>${t.description}</td></tr>`;
    })}</tbody></table>`,
  )}
<p>Every review in a result carries <code>url</code>, its permalink page (the address to cite), and <code>source_url</code>, the original where known.</p>
</section>
<section class="card" aria-labelledby="paging-h"><h2 id="paging-h">Paging and caps</h2>
<p><code>search_reviews</code> and <code>get_reviews_since</code> answer one page: at most <code>limit</code> reviews (at most 100) and about ${TOOL_ANSWER_MAX_BYTES / 1024} KB of them, whichever comes first, with <code>matched</code> counting them all. For the next page call again with the same arguments and <code>cursor</code> set to <code>next_cursor</code>; it is <code>null</code> on the last page. A cursor is refused (a result with <code>isError</code>) once the data changes: start again without it. With <code>short_texts: true</code>, texts longer than ${SHORT_TEXT_CHARS} characters are cut at a word boundary and marked <code>text_shortened: true</code>; <code>get_review</code> has the whole text.</p>
</section>
<section class="card" aria-labelledby="prompts-h"><h2 id="prompts-h">Prompts</h2>
<p>Ready-made requests an assistant can offer its user (<code>prompts/list</code>, <code>prompts/get</code>). Each fills in the figures and example reviews from the current data; a wrong argument is JSON-RPC error -32602 saying what is wrong.</p>
${scrollTable(
    'MCP prompts',
    html`<table class="tools"><thead><tr><th scope="col">Prompt</th><th scope="col">Arguments</th><th scope="col">What it asks for</th></tr></thead>
<tbody>${promptList().map(
      (p) =>
        html`<tr><th scope="row"><code>${breakableName(p.name)}</code></th><td><ul>${p.arguments.map((a) => html`<li><code>${a.name}</code>${a.required ? '' : ' (optional)'}: ${a.description}</li>`)}</ul></td><td>${p.description}</td></tr>`,
    )}</tbody></table>`,
  )}
<p><strong>Completions</strong>: <code>completion/complete</code> completes every prompt argument that names something (aspect, technician, date, review id, tone) and the <code>id</code> of <code>review://{id}</code> from the current data, at most 100 values an answer. A prompt, template or argument it does not know gets an empty list.</p>
</section>
<section class="card" aria-labelledby="res-h"><h2 id="res-h">Resources and subscriptions</h2>
<p>Resources: <code>${ctx.baseUrl}/reviews.json</code>, <code>${ctx.baseUrl}/insights.json</code> and the template <code>review://{id}</code>.</p>
<p><code>resources/subscribe</code> to any of them (up to ${MAX_SUBSCRIPTIONS} a session) and open the session's stream with <code>GET /mcp</code> (<code>Accept: text/event-stream</code> and <code>Mcp-Session-Id</code>; one stream a session). When an import changes a subscribed resource, on whichever replica or from the command line, the stream carries <code>notifications/resources/updated</code> with its URI; when reviews are added or removed, <code>notifications/resources/list_changed</code>. <code>resources/unsubscribe</code> stops them; <code>DELETE /mcp</code> ends the session and its stream. Subscriptions are kept by the replica that took them: behind a load balancer, keep a session on one replica (affinity on <code>Mcp-Session-Id</code>).</p>
</section>
<section class="card" aria-labelledby="sess-h"><h2 id="sess-h">Sessions and errors</h2>
<ul>
<li>The <code>initialize</code> response carries <code>Mcp-Session-Id</code>; send it on every later request. Without it: 400; unknown, expired, idle or deleted: 404. <code>DELETE /mcp</code> ends a session. Sessions work on every replica.</li>
<li>Send <code>Accept: application/json, text/event-stream</code> and <code>Content-Type: application/json</code>; after initialize, <code>MCP-Protocol-Version</code>.</li>
<li>Unknown tool: JSON-RPC error -32602; unknown method: -32601; unparseable JSON: -32700 (HTTP 400); invalid arguments (checked as JSON: <code>"5"</code>, <code>true</code> or <code>[5]</code> is not a number, <code>"true"</code> is not a boolean): a result with <code>isError: true</code> naming each argument and what to fix, so the model can correct the call; an unknown technician, service or aspect: a result with <code>isError</code> and the valid choices; an invalid cursor: a result with <code>isError</code> saying to start again.</li>
<li><code>GET /mcp</code> opens the session's notification stream (see above); without a session 400, a second one for the same session 409. Browser pages on other origins are refused (403).</li>
</ul></section>`;
  return page(ctx, '/developers/mcp', 'MCP', `Connect AI assistants to the reviews of ${ctx.business.name} over MCP.`, body);
}

export function renderWebhooksPage(ctx: Ctx): Html {
  const u = ctx.baseUrl;
  const body = html`<h1>WebSub: push on every change</h1>
<p>Instead of polling, subscribe to a topic at the W3C WebSub hub <code>${u}/api/websub/hub</code>. Every time the reviews change, the hub POSTs the full new content of the topic to your HTTPS callback.</p>
<section class="card" aria-labelledby="topics-h"><h2 id="topics-h">Topics</h2>
${scrollTable(
    'WebSub topics',
    html`<table><thead><tr><th scope="col">Topic URL</th><th scope="col">Content-Type of deliveries</th></tr></thead><tbody>
<tr><td><code>${u}/feed.xml</code></td><td><code>application/atom+xml</code></td></tr>
<tr><td><code>${u}/api/feed.json</code></td><td><code>application/json</code> (JSON Feed 1.1)</td></tr>
<tr><td><code>${u}/reviews.json</code></td><td><code>application/json</code></td></tr>
</tbody></table>`,
  )}
<p>Each topic advertises the hub: <code>Link: &lt;${u}/api/websub/hub&gt;; rel="hub", &lt;topic&gt;; rel="self"</code>.</p></section>
<section class="card" aria-labelledby="sub-h"><h2 id="sub-h">Subscribe</h2>
${command(`curl -i ${u}/api/websub/hub \\\n  -d hub.mode=subscribe \\\n  -d hub.topic=${u}/reviews.json \\\n  -d hub.callback='https://subscriber.example/hook?user=42' \\\n  -d hub.lease_seconds=864000 \\\n  -d hub.secret=a-long-random-secret`)}
<p>The answer:</p>
${code(`HTTP/1.1 202 Accepted\nContent-Type: text/plain; charset=utf-8\n\nAccepted: a subscribe verification request will be sent to the callback`)}
<p>Fields are form-encoded. <code>hub.callback</code> must be HTTPS; <code>hub.topic</code> one of the three topics; <code>hub.secret</code> shorter than 200 bytes. Bad requests get 400 with a plain-text reason led by its error code (<code>invalid_callback: …</code> for a control character in <code>hub.callback</code> or an address that is not public), other content types 415, too many requests, or too many subscriptions and pending requests per callback host, per client or in all, 429. The callback is kept in its normalised form.</p></section>
<section class="card" aria-labelledby="ver-h"><h2 id="ver-h">Verification of intent</h2>
<p>The hub then calls your callback (your own query string kept):</p>
${code(`GET /hook?user=42&hub.mode=subscribe&hub.topic=${encodeURIComponent(`${u}/reviews.json`)}&hub.challenge=Qx7vT0...&hub.lease_seconds=864000`)}
<p>Answer <code>200</code> with exactly the <code>hub.challenge</code> value as the body (text/plain). Any other answer, redirects included, rejects the request and leaves an earlier subscription unchanged. Unsubscribing (<code>hub.mode=unsubscribe</code>) uses the same handshake.</p></section>
<section class="card" aria-labelledby="del-h"><h2 id="del-h">Deliveries and signatures</h2>
${code(`POST /hook?user=42\nContent-Type: application/json\nLink: <${u}/api/websub/hub>; rel="hub", <${u}/reviews.json>; rel="self"\nX-Hub-Signature: sha256=5d1f...   (only when you gave a secret)\n\n{ "business": { ... }, "aggregate_rating": { ... }, "reviews": [ ... ] }`)}
<p>Check the signature over the raw body before trusting it:</p>
${code(`import { createHmac, timingSafeEqual } from 'node:crypto';\nconst expected = 'sha256=' + createHmac('sha256', secret).update(rawBody).digest('hex');\nconst ok = header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));`)}
<p>Acknowledge with any 2xx. Several changes before a delivery arrive as one delivery of the latest content.</p></section>
<section class="card" aria-labelledby="local-h"><h2 id="local-h">Testing the hub locally over HTTPS</h2>
<p>Callbacks must be HTTPS on public addresses, so a test on one machine needs two switches: <code>NODE_EXTRA_CA_CERTS</code> makes the service trust a throwaway test CA that signs the callback's certificate, and <code>HUB_ALLOW_PRIVATE_CALLBACKS=true</code> lets the hub call a loopback address (never set it in production). This script does the whole round trip: certificates, a callback, the service, a subscription, a change and its delivery. Run it from the repository (after <code>npm install</code>); it prints the verification and the delivery the callback received.</p>
${command(LOCAL_HUB_SCRIPT)}
</section>
<section class="card" aria-labelledby="rules-h"><h2 id="rules-h">Leases and failures</h2>
<ul>
<li>Leases default to 10 days and are clamped to between 1 hour and 30 days; the granted value is in the verification request. Subscribe again before it runs out to renew.</li>
<li>A non-2xx answer, a timeout or a connection error is a failed attempt and is retried with backoff. <strong>Three consecutive failed attempts remove the subscription</strong>; a success resets the count; <code>410 Gone</code> removes it at once.</li>
<li>Callbacks must resolve to public addresses; redirects are never followed; only the first few KB of an answer are read.</li>
</ul></section>`;
  return page(ctx, '/developers/webhooks', 'WebSub', `Subscribe to changes in the reviews of ${ctx.business.name}.`, body);
}
