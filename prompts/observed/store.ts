import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * The demo's conversation store, built from the committed SQL seed the first time it is
 * needed (and again whenever the seed changes). In a real project this is the production
 * replica or a nightly sample; prompt-contract only ever opens it read-only.
 */
export function demoConversationStore(): string {
  const seed = readFileSync(new URL('./conversations.sql', import.meta.url), 'utf8');
  const hash = createHash('sha256').update(seed).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), 'prompt-contract-demo');
  const file = join(dir, `conversations-${hash}.db`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  db.exec(seed);
  db.close();
  renameSync(tmp, file);
  return file;
}
