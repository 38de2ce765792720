import { expect } from 'chai';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { parse } from 'yaml';
import { runCli } from '../../support/cli-process.js';

describe('agentgov config init', () => {
  it('writes the default config to $AGENTGOV_HOME/config.yaml, private, with a schema modeline', async () => {
    const home = makeTempDir('agentgov-home-');
    const env = isolatedEnv(home);
    const result = await runCli(['config', 'init'], { env });
    const target = join(home, '.agentgov', 'config.yaml');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.equal(`wrote ${target}\n`);
    const text = readFileSync(target, 'utf8');
    expect(text.split('\n')[0]).to.match(/^# yaml-language-server: \$schema=\/.*\/docs\/config\.schema\.json$/);
    expect(statSync(target).mode & 0o777).to.equal(0o600);
    expect(statSync(join(home, '.agentgov')).mode & 0o777).to.equal(0o700);
    // the written file is exactly the defaults, and validates
    const shown = await runCli(['config', 'show', '--json'], { env });
    expect(JSON.parse(shown.stdout).config).to.deep.equal(parse(text));
    expect((await runCli(['config', 'validate'], { env })).code).to.equal(0);
  });

  it('refuses to overwrite an existing file without --force (exit 1), and overwrites with it', async () => {
    const home = makeTempDir('agentgov-home-');
    const env = isolatedEnv(home);
    const target = join(home, '.agentgov', 'config.yaml');
    mkdirSync(join(home, '.agentgov'), { recursive: true });
    writeFileSync(target, 'log_level: DEBUG\n');
    const refused = await runCli(['config', 'init'], { env });
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.contain(`error: ${target} already exists; not overwriting it.`);
    expect(readFileSync(target, 'utf8')).to.equal('log_level: DEBUG\n');
    const forced = await runCli(['config', 'init', '--force'], { env });
    expect(forced.code).to.equal(0);
    expect(readFileSync(target, 'utf8')).to.contain('log_level: INFO');
  });

  it('reads and writes nothing in the real home directory', async () => {
    // HOME for the child is a temp dir; AGENTGOV_HOME is unset so the default (~/.agentgov) applies.
    const fakeHome = makeTempDir('agentgov-fake-home-');
    const env = isolatedEnv(fakeHome);
    delete env['AGENTGOV_HOME'];
    const realHome = process.env['AGENTGOV_TEST_REAL_HOME'] as string;
    const before = readdirSync(realHome).sort();
    const realConfig = join(realHome, '.agentgov', 'config.yaml');
    const realConfigBefore = statOrNull(realConfig);
    expect((await runCli(['config', 'init'], { env, cwd: fakeHome })).code).to.equal(0);
    expect((await runCli(['config', 'show'], { env, cwd: fakeHome })).code).to.equal(0);
    expect(readdirSync(join(fakeHome, '.agentgov'))).to.deep.equal(['config.yaml']);
    expect(readdirSync(realHome).sort()).to.deep.equal(before);
    expect(statOrNull(realConfig)).to.deep.equal(realConfigBefore);
    // and this test process itself runs with an isolated HOME
    expect(process.env['HOME']).not.to.equal(realHome);
  });
});

function statOrNull(path: string): { mtimeMs: number; size: number } | null {
  try {
    const s = statSync(path);
    return { mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return null;
  }
}
