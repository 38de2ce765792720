import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { COMMANDS } from '../../src/commands/index.js';
import { CLI_MAIN, runCli } from '../support/cli-process.js';

const FIXTURE_HOME = fileURLToPath(
  new URL('../../../../plugins/framework-agentx/test/fixtures/agentx-home/', import.meta.url),
);

/** The one JSON document a `--json` command printed on stdout. */
function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('--json on every command a script reads, and one exit-code table (the real binary)', function () {
  this.timeout(120_000);
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = makeTempDir('json-');
    env = isolatedEnv(home);
  });

  it('every command but serve, watch and gate (own protocols) and help takes --json', () => {
    const without = COMMANDS.filter((command) => {
      const instance = new (command as unknown as new () => { json?: unknown })();
      return instance.json === undefined;
    }).map((command) => command.paths?.[0]?.join(' ') ?? '(default)');
    expect(without.sort()).to.deep.equal(['config', 'gate', 'help', 'serve', 'watch']);
  });

  it('a --config file that does not exist exits 3 from config show and config validate alike', async () => {
    const missing = join(home, 'nope.yaml');
    for (const command of [['config', 'show'], ['config', 'validate'], ['detect'], ['status']]) {
      const text = await runCli([...command, '--config', missing], { env, cwd: home });
      expect(text.code, `${command.join(' ')}: ${text.stderr}`).to.equal(3);
      expect(text.stderr).to.contain(`error [E_CONFIG_INVALID]: config file ${missing} (from --config) does not exist`);
      const asJson = await runCli([...command, '--config', missing, '--json'], { env, cwd: home });
      expect(asJson.code).to.equal(3);
      expect(json(asJson.stdout)).to.have.nested.property('error.code', 'E_CONFIG_INVALID');
    }
  });

  it('config init --json: {file, written}; refusing to overwrite is exit 1', async () => {
    const first = await runCli(['config', 'init', '--json'], { env, cwd: home });
    expect(first.code).to.equal(0);
    expect(json(first.stdout)).to.deep.equal({ file: join(home, '.agentgov', 'config.yaml'), written: true });
    const again = await runCli(['config', 'init', '--json'], { env, cwd: home });
    expect(again.code).to.equal(1);
    expect(json(again.stdout)).to.include({ written: false });
  });

  it('trust --json: {file, trusted, sha256}', async () => {
    const project = join(home, 'proj');
    mkdirSync(project);
    writeFileSync(join(project, 'agentgov.yaml'), 'log_level: INFO\n');
    const trusted = await runCli(['trust', project, '--json'], { env, cwd: home });
    expect(trusted.code, trusted.stderr).to.equal(0);
    const body = json(trusted.stdout);
    expect(body).to.include({ file: join(project, 'agentgov.yaml'), trusted: true });
    expect(body['sha256']).to.match(/^[0-9a-f]{64}$/);
    const revoked = await runCli(['trust', project, '--revoke', '--json'], { env, cwd: home });
    expect(json(revoked.stdout)).to.deep.equal({ file: join(project, 'agentgov.yaml'), trusted: false, sha256: null });
  });

  it('init --json then doctor --json; an unknown agent is exit 2 with {error}', async () => {
    const project = join(home, 'proj');
    mkdirSync(project);
    const none = await runCli(['doctor', '--project', project, '--json'], { env, cwd: home });
    expect(none.code).to.equal(1);
    expect(json(none.stdout)).to.deep.equal({ project, ok: false, hooks: [] });
    const init = await runCli(['init', 'agentx-code', '--project', project, '--json'], { env, cwd: home });
    expect(init.code, init.stderr).to.equal(0);
    const installed = json(init.stdout);
    expect(installed).to.include({
      agent: 'agentx-code',
      scope: 'project',
      settings_file: join(project, '.agentx', 'settings.json'),
      changed: true,
    });
    expect(installed).to.have.nested.property('activation.state');
    expect(installed['command']).to.be.a('string').and.contain('gate --stdin --format agentx-code');
    const doctor = await runCli(['doctor', '--project', project, '--json'], { env, cwd: home });
    const report = json(doctor.stdout) as { ok: boolean; hooks: { agent: string; status: string }[] };
    expect(report.hooks.map((h) => h.agent)).to.deep.equal(['agentx-code']);
    expect(doctor.code).to.equal(report.ok ? 0 : 1);
    const unknown = await runCli(['init', 'nope', '--project', project, '--json'], { env, cwd: home });
    expect(unknown.code).to.equal(2);
    expect(json(unknown.stdout)).to.have.nested.property('error.code', 'E_INVALID_ARGUMENT');
    const noDir = await runCli(['init', 'agentx-code', '--project', join(home, 'absent'), '--json'], {
      env,
      cwd: home,
    });
    expect(noDir.code).to.equal(4);
    expect(json(noDir.stdout)).to.have.nested.property('error.code', 'E_NOT_FOUND');
  });

  it('replay --json: the summary as one JSON object, nothing else on stdout', async () => {
    const projects = join(home, 'projects');
    cpSync(join(FIXTURE_HOME, 'projects'), projects, { recursive: true });
    const result = await runCli(['replay', projects, '--adapter', 'agentx-code', '--json'], { env, cwd: home });
    expect(result.code, result.stderr).to.equal(0);
    const summary = json(result.stdout);
    expect(summary).to.include({ adapter: 'agentx-code', duplicates: 0, sinkFailures: 0, output: null });
    expect(summary['events']).to.be.greaterThan(0);
    const missing = await runCli(['replay', join(home, 'none'), '--adapter', 'agentx-code', '--json'], {
      env,
      cwd: home,
    });
    expect(missing.code).to.equal(4);
    expect(json(missing.stdout)).to.have.nested.property('error.code', 'E_CAPTURE_UNREADABLE');
  });

  it('score --json: a JSON line when listening and one when stopped', async () => {
    const child = spawn(process.execPath, [CLI_MAIN, 'score', '--listen', '127.0.0.1:0', '--json'], {
      env,
      cwd: home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 1200 && !stdout.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));
    const listening = JSON.parse(stdout.split('\n')[0]!) as { state: string; url: string; rules_loaded: number };
    expect(listening.state).to.equal('listening');
    expect(listening.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(listening.rules_loaded).to.be.greaterThan(0);
    child.kill('SIGTERM');
    expect(await exit).to.equal(0);
    expect(JSON.parse(stdout.trim().split('\n')[1]!)).to.deep.equal({ state: 'stopped', signal: 'SIGTERM' });
  });

  it('usage errors are exit 2 from every command: an unknown option', async () => {
    for (const command of [['init', 'agentx-code'], ['doctor'], ['trust'], ['replay', 'x'], ['config', 'show']]) {
      const result = await runCli([...command, '--no-such-option'], { env, cwd: home });
      expect(result.code, command.join(' ')).to.equal(2);
    }
  });
});
