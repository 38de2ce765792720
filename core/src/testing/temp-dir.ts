import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A fresh temp directory. Under mocha it lives inside the run's isolated root
 * (`AGENTGOV_TEST_TMP`, set by isolate-home), which the root `afterAll` hook removes once every
 * suite is done: no suite can delete a directory another suite still uses.
 */
export function makeTempDir(prefix = 'agentgov-'): string {
  const base = process.env['AGENTGOV_TEST_TMP'];
  if (base) mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base ?? tmpdir(), prefix));
}
