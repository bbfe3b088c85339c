/** Commands the docs tell people to run are run here, against a real server, so they cannot rot. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { inspectorCommand } from '../src/pages/developer-pages.js';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { freePort, ROOT, startTestService, type TestService } from './helpers.js';

const run = promisify(execFile);
const DOCS_URL = 'http://localhost:3000';

const unescape = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The first <pre><code> block after a heading on a served page. */
function codeAfter(page: string, heading: string): string {
  const at = page.indexOf(heading);
  assert.ok(at >= 0, `no "${heading}" on the page`);
  const block = /<pre[^>]*><code[^>]*>([\s\S]*?)<\/code><\/pre>/.exec(page.slice(at));
  assert.ok(block, `no code block after "${heading}"`);
  return unescape(block[1]!);
}

/** The fenced sh lines of a docs page that start with a given program. */
function docCommands(file: string, start: string): string[] {
  const md = readFileSync(new URL(`../docs/${file}`, import.meta.url), 'utf8');
  return [...md.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n')).filter((l) => l.startsWith(start));
}

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
});
after(() => svc.close());

describe('the MCP Inspector command of docs/mcp.md and /developers/mcp', () => {
  it('is one command, the same on the page and in the docs (.ci/run runs it against a real server: scripts/check-inspector.sh)', async () => {
    const page = await (await fetch(`${svc.url}/developers/mcp`)).text();
    const shown = codeAfter(page, '<h3>MCP Inspector</h3>');
    assert.match(shown, /^npx @modelcontextprotocol\/inspector@\d+\.\d+\.\d+ --cli /);
    assert.equal(shown, inspectorCommand(svc.url + '/mcp'));
    const documented = docCommands('mcp.md', 'npx @modelcontextprotocol/inspector');
    assert.deepEqual(documented, [shown.replaceAll(svc.url, DOCS_URL)], 'docs/mcp.md shows the command /developers/mcp shows');
  });
});

describe('the local HTTPS hub test of docs/websub.md and /developers/webhooks', () => {
  it('is one script, and run as shown it verifies a subscription and delivers a change over HTTPS', async () => {
    const page = await (await fetch(`${svc.url}/developers/webhooks`)).text();
    const shown = codeAfter(page, 'Testing the hub locally over HTTPS');
    const md = readFileSync(new URL('../docs/websub.md', import.meta.url), 'utf8');
    const documented = /## Testing the hub locally over HTTPS[\s\S]*?```bash\n([\s\S]*?)\n```/.exec(md)?.[1];
    assert.equal(documented, shown, 'docs/websub.md shows the script /developers/webhooks shows');
    assert.match(shown, /NODE_EXTRA_CA_CERTS=/);
    assert.match(shown, /HUB_ALLOW_PRIVATE_CALLBACKS=true/);

    // The script runs the built CLI (bin/reviewcast.js -> dist), as a reader's checkout after npm install does.
    const { stdout } = await run('bash', ['-c', shown], { cwd: ROOT, env: { ...process.env, PORT: String(await freePort()), CB_PORT: String(await freePort()) } });
    assert.match(stdout, /^Accepted: a subscribe verification request/m);
    assert.match(stdout, /^callback: verified subscribe of http:\/\/localhost:\d+\/feed\.xml$/m);
    assert.match(stdout, /^imported 1 record: 1 added/m);
    assert.match(stdout, /^callback: delivery of \d+ bytes, application\/atom\+xml$/m);
  });
});
