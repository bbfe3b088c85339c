/** Review ids: deterministic ULIDs, so re-importing a record gives it the same id. */
import { createHash } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A ULID that is a pure function of its inputs: the time part is the review date (UTC
 * midnight), the random part 80 bits of SHA-256 of the seed. Re-importing the same record
 * therefore yields the same id, and ids still sort by date like ordinary ULIDs.
 */
export function deterministicUlid(seed: string, isoDate: string): string {
  let time = Date.parse(`${isoDate}T00:00:00Z`);
  if (!Number.isFinite(time) || time < 0) time = 0;
  let timePart = '';
  for (let i = 0; i < 10; i++) {
    timePart = CROCKFORD[time % 32] + timePart;
    time = Math.floor(time / 32);
  }
  const digest = createHash('sha256').update(seed).digest();
  let bits = 0;
  let acc = 0;
  let randPart = '';
  for (let i = 0; randPart.length < 16; i++) {
    acc = (acc << 8) | digest[i]!;
    bits += 8;
    while (bits >= 5 && randPart.length < 16) {
      bits -= 5;
      randPart += CROCKFORD[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return timePart + randPart;
}
