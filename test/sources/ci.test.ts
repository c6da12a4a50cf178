// The PostgreSQL tests fail without a server only under CI, and CI is read one way: as Jest
// reads it, where `CI=false` (as a developer may export it to turn CI behaviour off) is not CI.
import { expect, test } from '@jest/globals';
import { onCi } from '../../src/util/ci.js';
import { withoutServer } from './helpers.js';

test.each([
  [{}, false],
  [{ CI: '' }, false],
  [{ CI: 'false' }, false],
  [{ CI: 'true' }, true],
  [{ CI: '1' }, true],
  [{ CI: '0' }, true],
  [{ CI: 'yes' }, true],
])('CI as %j is CI: %s', (env, expected) => {
  expect(onCi(env)).toBe(expected);
});

test.each([
  [{ CI: 'false' }, 'todo'],
  [{ CI: '' }, 'todo'],
  [{}, 'todo'],
  [{ CI: 'true' }, 'fail'],
  [{ CI: '0' }, 'fail'],
  [{ CI: 'true', PROMPT_CONTRACT_PG_URL: 'postgres://postgres@127.0.0.1:54329/prompt_contract' }, undefined],
])('without a server, env %j makes the PostgreSQL tests %s', (env, expected) => {
  expect(withoutServer(env)).toBe(expected);
});
