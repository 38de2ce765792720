import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { Writable } from 'node:stream';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { buildCli, run } from '../src/index.js';
import { CLI_MAIN, runCli } from './support/cli-process.js';

const CLI_PACKAGE_DIR = dirname(dirname(dirname(CLI_MAIN)));

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** Every registered command path, e.g. "config show", from clipanion's own definitions. */
function registeredCommands(): { path: string; description: string }[] {
  return buildCli()
    .definitions()
    .filter((d) => !d.path.includes('-h') && !d.path.includes('-v'))
    .map((d) => ({ path: d.path.replace(/^agentgov /, ''), description: (d.description ?? '').trim() }));
}

describe('agentgov CLI', () => {
  const env = () => isolatedEnv(makeTempDir('agentgov-home-'));

  it('--help lists every registered command with a one-line description', async () => {
    const result = await runCli(['--help'], { env: env() });
    expect(result.code).to.equal(0);
    const commands = registeredCommands();
    expect(commands.length).to.be.greaterThan(2);
    for (const { path, description } of commands) {
      expect(description, path).to.match(/^[A-Z][^\n]+$/);
      const usage = path.split(' [')[0] as string;
      expect(result.stdout, path).to.contain(`agentgov ${usage}`);
      expect(result.stdout, path).to.contain(description);
    }
  });

  it("every command's --help shows its options with their defaults", async () => {
    let optionsSeen = 0;
    for (const { path } of registeredCommands()) {
      const words = (path.split(' [')[0] as string)
        .split(' ')
        .filter((w) => !w.startsWith('<') && !w.startsWith('#') && w === w.toLowerCase() && !w.startsWith('-'));
      const result = await runCli([...words, '--help'], { env: env() });
      expect(result.code, path).to.equal(0);
      expect(result.stdout, path).to.contain('Usage');
      const optionLines = result.stdout.split('\n').filter((line) => /^ {2}-/.test(line) || /^ {2}--/.test(line));
      for (const line of optionLines) expect(line, `${path}: ${line}`).to.match(/\(default: [^)]+\)/);
      optionsSeen += optionLines.length;
    }
    expect(optionsSeen).to.be.greaterThan(3);
  });

  for (const flag of ['--version', '-v', '-V']) {
    it(`${flag} prints the package version`, async () => {
      const result = await runCli([flag], { env: env() });
      expect(result.code).to.equal(0);
      expect(result.stdout.trim()).to.match(/^\d+\.\d+\.\d+$/);
    });
  }

  it('usage text names option values (--config PATH), never a #0 placeholder, in help pages and usage errors', async () => {
    const pages = [await runCli(['--help'], { env: env() }), await runCli(['status', '--bogus'], { env: env() })];
    for (const { path } of registeredCommands()) {
      const words = (path.split(' [')[0] as string)
        .split(' ')
        .filter((w) => !w.startsWith('<') && !w.startsWith('-') && w === w.toLowerCase());
      pages.push(await runCli([...words, '--help'], { env: env() }));
    }
    for (const page of pages) expect(`${page.stdout}${page.stderr}`).to.not.match(/#\d/);
    expect(pages[0]!.stdout).to.contain('[--config PATH]');
    expect(pages[1]!.stderr).to.contain('[--db PATH]');
  });

  it('a CLI error hints at a CLI command, never at an MCP tool', async () => {
    const result = await runCli(['watch', '--log-level', 'LOUD', '--once'], { env: env() });
    expect(result.code).to.equal(2);
    expect(result.stderr).to.contain('error [E_INVALID_ARGUMENT]');
    expect(result.stderr).to.contain('agentgov <command> --help');
    expect(result.stderr).to.not.match(/`describe`|recon_scout|action: "tool"/);
  });

  it('--json on every reporting command: detect, status, config show, config validate', async () => {
    const e = env();
    const detect = await runCli(['detect', '--json'], { env: e });
    expect(JSON.parse(detect.stdout)).to.be.an('array');
    const show = await runCli(['config', 'show', '--json'], { env: e });
    expect(JSON.parse(show.stdout).source).to.equal('defaults');
    const dir = makeTempDir();
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'plugins: 3\n');
    const validate = await runCli(['config', 'validate', '--config', bad, '--json'], { env: e });
    expect(validate.code).to.equal(1);
    const report = JSON.parse(validate.stdout);
    expect(report).to.include({ file: bad, valid: false, errors: 1 });
    expect(report.issues[0]).to.include({ path: 'plugins', line: 1 });
    const status = await runCli(['status', '--json'], { env: e });
    expect(status.code).to.equal(4);
    expect(status.stderr).to.contain('E_DB_MISSING');
  });

  it('exits 2 with usage help for an unknown command or option', async () => {
    const unknown = await runCli(['frobnicate'], { env: env() });
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('Command not found');
    const badOption = await runCli(['config', 'show', '--colour'], { env: env() });
    expect(badOption.code).to.equal(2);
    expect(badOption.stderr).to.contain('Unsupported option name ("--colour")');
  });

  it('runs the same command line through the module: `node cli <command>`', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI_PACKAGE_DIR, 'config', 'show', '--json'], {
      cwd: makeTempDir(),
      env: env(),
    });
    expect(JSON.parse(stdout).source).to.equal('defaults');
  });

  it('runs the same command line programmatically: run(argv)', async () => {
    const stdout = new Capture();
    const stderr = new Capture();
    const code = await run(['config', 'validate', '--config', join(makeTempDir(), 'absent.yaml')], { stdout, stderr });
    expect(code).to.equal(3);
    expect(stderr.text).to.match(
      /^error \[E_CONFIG_INVALID\]: config file .*absent\.yaml \(from --config\) does not exist/,
    );
    expect(await run(['nope'], { stdout, stderr })).to.equal(2);
  });
});
