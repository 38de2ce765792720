import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { runCli, type CliResult } from '../support/cli-process.js';

/**
 * A gate format comes through the plugin surface like every other provider: a framework plugin
 * loaded from a path (the config's `plugins:`) registers an adapter whose `gateFormat` is its
 * agent's hook protocol, and `gate --format <it>` reads that protocol's payload and answers in its
 * shape. Run through the real bin, with the gate bundle (which holds only the bundled plugins'
 * formats) and without it.
 */
const BIN = fileURLToPath(new URL('../../../bin/agentgov.js', import.meta.url));

/** A framework plugin for an invented agent, `acme`, whose hook sends `{acme_tool, acme_args, sid}` and reads `{acme_verdict}`. */
const PLUGIN = `
export const gateFormat = {
  name: 'acme',
  module: import.meta.url,
  parseInput(value) {
    if (typeof value !== 'object' || value === null || typeof value.acme_tool !== 'string')
      return { code: 'input_invalid', message: "field 'acme_tool' must be a string" };
    return { framework: 'acme', session_id: String(value.sid), tool_name: value.acme_tool, arguments: value.acme_args };
  },
  render({ verdict }) {
    const answer = { acme_verdict: verdict.decision === 'allow' ? 'go' : 'stop', why: verdict.reason };
    return { stdout: JSON.stringify(answer) + '\\n', exitCode: 0 };
  },
  probePayload: () => ({ acme_tool: 'Bash', acme_args: { command: 'rm -rf /' }, sid: 'probe' }),
  readDecision: (stdout) => (JSON.parse(stdout).acme_verdict === 'go' ? 'allow' : 'deny'),
};
const adapter = {
  name: 'acme',
  adapter: 'acme',
  ingestionMode: 'hook',
  detect: async () => null,
  captureRoots: () => [],
  listCaptures: async () => [],
  parse: () => ({ events: [], completions: [], skipped: {}, lines: 0, consumedBytes: 0 }),
  gateFormat,
};
export default {
  name: 'framework-acme',
  apply(hooks) {
    hooks.frameworks.tap('framework-acme', (registry) => registry.add(adapter));
  },
};
`;

describe('gate --format: a format from a plugin loaded from a path', function () {
  this.timeout(120_000);
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = makeTempDir('gate-plugin-format-');
    env = { ...isolatedEnv(home), AGENTGOV_GATE_TRACE: '1' };
    mkdirSync(env['AGENTGOV_HOME']!, { recursive: true, mode: 0o700 });
    project = join(home, 'work', 'app');
    mkdirSync(project, { recursive: true });
    const plugin = join(home, 'plugins', 'acme');
    mkdirSync(plugin, { recursive: true });
    writeFileSync(
      join(plugin, 'package.json'),
      '{"name": "acme-agentgov", "version": "1.0.0", "type": "module", "main": "index.js"}\n',
    );
    writeFileSync(join(plugin, 'index.js'), PLUGIN);
    writeFileSync(join(env['AGENTGOV_HOME']!, 'config.yaml'), `bundled_plugins: all\nplugins:\n  - ${plugin}\n`);
  });

  const call = (command: string, extra: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runCli(['gate', '--stdin', '--format', 'acme'], {
      entry: BIN,
      input: JSON.stringify({ acme_tool: 'Bash', acme_args: { command }, sid: 's1' }),
      env: { ...env, ...extra },
      cwd: project,
    });
  const answer = (run: CliResult): { acme_verdict: string; why: string } => {
    expect(run.code, run.stderr).to.equal(0);
    return JSON.parse(run.stdout) as { acme_verdict: string; why: string };
  };

  it("reads the format's payload and answers in its shape: rm -rf ~ is stopped, ls goes", async () => {
    const denied = await call('rm -rf ~');
    expect(denied.stderr).to.contain('running from the gate bundle');
    expect(answer(denied).acme_verdict).to.equal('stop');
    expect(answer(denied).why).to.match(/^agentgov: deny/);
    // The first call's full start recorded the format's module in the gate cache: later calls import it alone.
    const allowed = await call('ls');
    expect(allowed.stderr).to.contain("format 'acme' from the gate cache");
    expect(answer(allowed).acme_verdict).to.equal('go');
  });

  it('answers the same without the gate bundle', async () => {
    const run = await call('rm -rf ~', { AGENTGOV_GATE_BUNDLE: '0' });
    expect(run.stderr).to.contain('gate bundle off');
    expect(answer(run).acme_verdict).to.equal('stop');
  });

  it('is unknown where no configuration loads the plugin: a usage error naming the formats there are', async () => {
    writeFileSync(join(env['AGENTGOV_HOME']!, 'config.yaml'), 'bundled_plugins: all\n');
    const run = await call('rm -rf ~');
    expect(run.code).to.equal(2);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.contain('--format must be one of').and.contain('claude-code').and.contain('(got acme)');
  });

  it('blocks the call when the configuration that would bring the format cannot be loaded', async () => {
    writeFileSync(join(env['AGENTGOV_HOME']!, 'config.yaml'), 'plugins:\n  - ./no-such-plugin\n');
    const run = await call('rm -rf ~');
    expect(run.code).to.equal(2);
    expect(run.stdout).to.equal('');
    expect(run.stderr).to.contain("gate format 'acme'").and.contain('no-such-plugin');
  });
});
