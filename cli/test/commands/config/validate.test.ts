import { expect } from 'chai';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { runCli } from '../../support/cli-process.js';

async function validate(yaml: string | null, args: string[] = []) {
  const home = makeTempDir('agentgov-home-');
  const project = makeTempDir('agentgov-project-');
  if (yaml !== null) writeTree(project, { 'agentgov.yaml': yaml });
  const result = await runCli(['config', 'validate', ...args], { cwd: project, env: isolatedEnv(home) });
  return { ...result, file: join(project, 'agentgov.yaml'), project };
}

describe('agentgov config validate', () => {
  it('exits 0 for a valid file', async () => {
    const r = await validate('log_level: DEBUG\nscore:\n  listen: 127.0.0.1:8080\n');
    expect(r.code).to.equal(0);
    expect(r.stdout).to.equal(`${r.file}: valid\n`);
  });

  it('exits 1 for malformed YAML, with line:column', async () => {
    const r = await validate('gate:\n  on_unavailable: "deny\n');
    expect(r.code).to.equal(1);
    expect(r.stderr).to.match(new RegExp(`^${r.file}:3:1 error at \\(yaml\\): .+$`, 'm'));
  });

  it('exits 1 for a wrong type at a nested key, naming its key path', async () => {
    const r = await validate('server:\n  index:\n    watch: often\n');
    expect(r.code).to.equal(1);
    expect(r.stderr).to.equal(
      `${r.file}:3:12 error at server.index.watch: must be boolean\n${r.file}: 1 error(s), 0 warning(s)\n`,
    );
  });

  it('warns (exit 0) about an unknown top-level key, naming the nearest valid key', async () => {
    const r = await validate('gates:\n  on_unavailable: deny\n');
    expect(r.code).to.equal(0);
    expect(r.stderr).to.equal(
      `${r.file}:1:1 warning at gates: unknown top-level key 'gates' is ignored (did you mean 'gate'?)\n`,
    );
    expect(r.stdout).to.equal(`${r.file}: valid (1 warning(s))\n`);
  });

  it('lists every error, not only the first', async () => {
    const r = await validate('log_level: loud\ngate:\n  timeout_ms: 0\n  extra: 1\n');
    expect(r.code).to.equal(1);
    expect(r.stderr.split('\n').filter(Boolean)).to.have.length(4);
    expect(r.stderr).to.contain('error at log_level: must be one of');
    expect(r.stderr).to.contain('error at gate.timeout_ms: must be >= 1');
    expect(r.stderr).to.contain("error at gate.extra: unknown key 'extra'");
  });

  it('checks the file given with --config', async () => {
    const r = await validate(null, ['--config', '/definitely/not/here.yaml']);
    // 3, as from `config show` and every command that loads the configuration (docs/cli.md, Exit codes).
    expect(r.code).to.equal(3);
    expect(r.stderr).to.match(
      /^error \[E_CONFIG_INVALID\]: config file \/definitely\/not\/here\.yaml \(from --config\) does not exist$/m,
    );
  });

  it('says so when there is no config file at all', async () => {
    const r = await validate(null);
    expect(r.code).to.equal(0);
    expect(r.stdout).to.contain('no config file found');
  });
});
