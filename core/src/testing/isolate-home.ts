/**
 * Mocha root-hook module required by every package's .mocharc: before any test module loads,
 * HOME, AGENTGOV_HOME and AGENTX_HOME point at fresh temp dirs, so no test can read or write the
 * real home directory. The real home is kept in AGENTGOV_TEST_REAL_HOME for the test that proves it
 * is never touched. Temp dirs from `makeTempDir` live under the same root and go with it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FRAMEWORK_HOME_VARIABLES } from './framework-homes.js';

const root = mkdtempSync(join(tmpdir(), 'agentgov-test-home-'));
if (!process.env['AGENTGOV_TEST_REAL_HOME']) process.env['AGENTGOV_TEST_REAL_HOME'] = homedir();
process.env['HOME'] = join(root, 'home');
process.env['AGENTGOV_HOME'] = join(root, 'home', '.agentgov');
process.env['AGENTX_HOME'] = join(root, 'home', '.agentx');
process.env['AGENTGOV_TEST_TMP'] = join(root, 'tmp');
delete process.env['AGENTGOV_CONFIG'];
// Where other agents keep their state when not under HOME: a test must never read the real ones.
for (const name of FRAMEWORK_HOME_VARIABLES) delete process.env[name];

export const isolatedRoot = root;

export const mochaHooks = {
  afterAll(): void {
    rmSync(root, { recursive: true, force: true });
  },
};
