// test/outage.test.ts again, on PostgreSQL (skipped with the reason when none is reachable).
import { runOnPostgres } from '../helpers.js';

await runOnPostgres(import.meta.url);
