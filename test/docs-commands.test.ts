/** Commands the docs tell people to run are run here, against a real server, so they cannot rot. */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { INSPECTOR_NODE, inspectorCommand } from '../src/pages/developer-pages.js';
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

const read = (file: string) => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** The fenced sh lines of a Markdown file that start with a given program (README's are indented in a list). */
function docCommands(file: string, start: string): string[] {
  return [...read(file).matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').map((l) => l.trim())).filter((l) => l.startsWith(start));
}

let svc: TestService;
before(async () => {
  svc = await startTestService({ business: BUSINESS, reviews: REVIEWS });
});
after(() => svc.close());

describe('the MCP Inspector command of docs/mcp.md and /developers/mcp', () => {
  it('is one command, the same on the page, in docs/mcp.md and in the README (.ci/run runs it against a real server: scripts/check-inspector.sh)', async () => {
    const page = await (await fetch(`${svc.url}/developers/mcp`)).text();
    const shown = codeAfter(page, '<h3>MCP Inspector</h3>');
    // -y: npx downloads the Inspector on first use, and without a terminal to ask it refuses to.
    assert.match(shown, /^npx -y @modelcontextprotocol\/inspector@\d+\.\d+\.\d+ --cli /);
    assert.equal(shown, inspectorCommand(svc.url + '/mcp'));
    const documented = docCommands('docs/mcp.md', 'npx');
    assert.deepEqual(documented, [shown.replaceAll(svc.url, DOCS_URL)], 'docs/mcp.md shows the command /developers/mcp shows');
    // The README's Inspector lines are that command with other methods.
    const prefix = shown.replaceAll(svc.url, DOCS_URL).replace(/ --method .*/, ' --method ');
    const readme = docCommands('README.md', 'npx').filter((l) => l.includes('@modelcontextprotocol/inspector'));
    assert.ok(readme.length >= 2 && readme.every((l) => l.startsWith(prefix)), readme.join('\n'));
    assert.ok(readme.includes(documented[0]!), 'README.md shows the tools/list command too');
  });
  it('is described the same way everywhere: npx downloads it, it asks for a Node newer than the service needs, and what CI runs', async () => {
    const page = await (await fetch(`${svc.url}/developers/mcp`)).text();
    const said = (text: string) => [`Node ${INSPECTOR_NODE} or later`, 'EBADENGINE', 'npm'].every((w) => text.includes(w));
    assert.ok(said(/<h3>MCP Inspector<\/h3><p>([^<]*)<\/p>/.exec(page)![1]!), '/developers/mcp');
    assert.ok(said(read('docs/mcp.md')), 'docs/mcp.md');
    assert.ok(said(read('README.md')), 'README.md');
    assert.ok(read('docs/development.md').includes(`Node ${INSPECTOR_NODE} or later`), 'docs/development.md');
    for (const file of ['README.md', 'docs/mcp.md']) {
      assert.doesNotMatch(read(file), /Inspector[^\n]*\(Node 20 or later/, `${file} must not promise Node 20`);
      assert.doesNotMatch(read(file), /Inspector is a\s+pinned devDependency/, file);
    }
    assert.doesNotMatch(page, /Node 20 or later/);
    // It is fetched, not installed: the docs say so because it is true.
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    assert.equal(pkg.devDependencies['@modelcontextprotocol/inspector'], undefined);
    // CI runs the very command the page shows (scripts/check-inspector.sh takes it from inspectorCommand), unaltered.
    const script = read('scripts/check-inspector.sh');
    assert.match(script, /m\.inspectorCommand\('\$URL'\)/);
    assert.match(script, /GOT=\$\(\$CMD /);
    assert.match(read('.ci/run'), /npm run check:inspector/);
  });
});

describe('the local HTTPS hub test of docs/websub.md and /developers/webhooks', () => {
  it('is one script, and run as shown it verifies a subscription and delivers a change over HTTPS', async () => {
    const page = await (await fetch(`${svc.url}/developers/webhooks`)).text();
    const shown = codeAfter(page, 'Testing the hub locally over HTTPS');
    const md = read('docs/websub.md');
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
