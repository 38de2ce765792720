import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli } from '../support/cli-process.js';

describe('agentgov help, command groups and missing required options', function () {
  this.timeout(60_000);
  const env = isolatedEnv(makeTempDir('help-'));

  it('`help` lists every command; `help COMMAND` is its full help; an unknown one is a usage error', async () => {
    const all = await runCli(['help'], { env });
    expect(all.code).to.equal(0);
    for (const command of [
      'agentgov config show',
      'agentgov dashboard',
      'agentgov replay',
      'agentgov gate',
      'agentgov serve',
    ])
      expect(all.stdout).to.contain(command);
    const replay = await runCli(['help', 'replay'], { env });
    expect(replay.code).to.equal(0);
    expect(replay.stdout)
      .to.contain('Re-run the governance pipeline')
      .and.contain('--adapter NAME')
      .and.contain('Examples');
    const unknown = await runCli(['help', 'nope'], { env });
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.match(
      /^error \[E_INVALID_ARGUMENT\]: no command 'nope'; commands: .*config show.*replay/,
    );
  });

  it('a command group lists its commands: `config` (a usage error), `help config` and `config --help`', async () => {
    const bare = await runCli(['config'], { env });
    expect(bare.code).to.equal(2);
    expect(bare.stderr)
      .to.match(/agentgov config init +Write the default configuration/)
      .and.match(/agentgov config validate +Check a config file/);
    const help = await runCli(['help', 'config'], { env });
    expect(help.code).to.equal(0);
    expect(help.stdout).to.equal(bare.stderr);
    const flag = await runCli(['config', '--help'], { env });
    expect(flag.code).to.equal(0);
    expect(flag.stdout.replace(/\s+/g, ' ')).to.contain('`agentgov config show` prints the effective one');
  });

  it('names a missing required option or argument instead of "Command not found"', async () => {
    const noAdapter = await runCli(['replay', 'captures/'], { env });
    expect(noAdapter.code).to.equal(2);
    expect(noAdapter.stderr)
      .to.contain('error [E_INVALID_ARGUMENT]: missing required option --adapter NAME')
      .and.contain('usage: agentgov replay');
    expect(noAdapter.stderr).to.not.contain('Command not found');
    const noPath = await runCli(['replay', '--adapter', 'agentx-code'], { env });
    expect(noPath.code).to.equal(2);
    expect(noPath.stderr).to.contain('missing required argument PATH');
  });
});
