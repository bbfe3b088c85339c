import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BUSINESS, REVIEWS } from './fixtures/data.js';
import { startTestService, type TestService } from './helpers.js';
import { fuzzContract } from './fuzz/contract-fuzzer.js';

// The bounded run; `npm run fuzz` sends 10,000 or more.
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 2500);

describe('contract fuzzer (generated from /.well-known/openapi.json)', () => {
  let svc: TestService;
  before(async () => (svc = await startTestService({ business: BUSINESS, reviews: REVIEWS })));
  after(() => svc.close());

  it(`${REQUESTS} generated requests: no 5xx, only documented statuses, every body as documented`, async (t) => {
    const report = await fuzzContract(svc.url, { requests: REQUESTS, seed: Number(process.env.FUZZ_SEED ?? 7) });
    t.diagnostic(`${report.requests} requests; answers by status: ${JSON.stringify(report.byStatus)}`);
    assert.ok(report.requests >= REQUESTS * 0.95, `${report.requests} requests sent`);
    // The generator reaches both the happy and the refusing paths.
    for (const status of ['200', '400', '405']) assert.ok((report.byStatus[status] ?? 0) > 0, `no ${status} in ${JSON.stringify(report.byStatus)}`);
    assert.deepEqual(report.findings.slice(0, 10), [], `${report.findings.length} findings`);
  });
});
