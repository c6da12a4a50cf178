import { afterEach, expect, test } from '@jest/globals';
import { hostileLength, runs, sample } from './runs.js';

// What `npm run test:fast` leaves out, and that `npm test` leaves out nothing.
const saved = process.env.PROMPT_CONTRACT_FAST;
afterEach(() => {
  if (saved === undefined) delete process.env.PROMPT_CONTRACT_FAST;
  else process.env.PROMPT_CONTRACT_FAST = saved;
});

const rows = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

test('a full run keeps every case, every row and the whole length', () => {
  delete process.env.PROMPT_CONTRACT_FAST;
  expect([runs(400), runs(5), hostileLength(1_000_000), sample(rows)]).toEqual([400, 5, 1_000_000, rows]);
});

test('a fast run keeps a tenth of the cases (at least 20), an eighth of the length and every third row, the first included', () => {
  process.env.PROMPT_CONTRACT_FAST = '1';
  expect([runs(400), runs(5), hostileLength(1_000_000), sample(rows)]).toEqual([40, 20, 125_000, ['a', 'd', 'g']]);
});
