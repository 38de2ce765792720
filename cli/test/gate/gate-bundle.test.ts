import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { BENCH_COMMANDS } from '../risk/bench-commands.js';
import { runCli, type CliResult } from '../support/cli-process.js';

/**
 * The gate's one-file bundle (scripts/bundle-gate.mjs, made by the build and by this package's
 * test script): bin/agentgov.js runs a hook call from it only while every file it was made from is
 * unchanged, and otherwise — stale, missing, unloadable — from dist/src; a bundle that breaks while
 * running blocks the call (exit 2). The hook command `init` writes runs the bin, so these tests do.
 */
const CLI_DIR = fileURLToPath(new URL('../../../', import.meta.url));
const REPO_DIR = dirname(CLI_DIR.replace(/\/$/, ''));
const BIN = join(CLI_DIR, 'bin', 'agentgov.js');

const CLASS_CASES = readFileSync(join(REPO_DIR, 'bench', 'risk', 'classes.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => (JSON.parse(line) as { command: string }).command);

type Run = CliResult;

const runBin = (bin: string, input: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Run> => runCli(['gate', '--stdin', '--format', 'json'], { entry: bin, input, env, cwd });

interface JsonOutcome {
  verdict: { decision: string; reason: string; decided_by: string };
  assessment?: unknown;
}

describe('gate bundle: the hook runs one file, and only while it matches the build', function () {
  this.timeout(180_000);
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    home = makeTempDir('gate-bundle-');
    env = { ...isolatedEnv(home), AGENTGOV_GATE_TRACE: '1' };
    mkdirSync(env['AGENTGOV_HOME']!, { recursive: true, mode: 0o700 });
    project = join(home, 'work', 'app');
    mkdirSync(project, { recursive: true });
  });
  const input = (command: string) => JSON.stringify({ tool_name: 'Bash', arguments: { command }, session_id: 's', cwd: project });
  const essence = (run: Run) => {
    expect(run.code, run.stderr).to.equal(0);
    const o = JSON.parse(run.stdout) as JsonOutcome;
    return { decision: o.verdict.decision, reason: o.verdict.reason, assessment: o.assessment };
  };

  it('gives the verdicts dist/src gives, on a sample of the risk bench and every class of our own cases', async function () {
    const sample = [...BENCH_COMMANDS.filter((_, i) => i % 25 === 0), ...CLASS_CASES.filter((_, i) => i % 20 === 0), 'rm -rf ~', 'git status'];
    expect(sample.length).to.be.greaterThan(30);
    await runBin(BIN, input('ls'), env, project); // writes the gate cache: both sides then take the lean path
    const decisions = new Set<string>();
    for (const command of sample) {
      const bundled = await runBin(BIN, input(command), env, project);
      expect(bundled.stderr, command).to.contain('running from the gate bundle');
      const modules = await runBin(BIN, input(command), { ...env, AGENTGOV_GATE_BUNDLE: '0' }, project);
      expect(modules.stderr, command).to.contain('gate bundle off');
      expect(essence(bundled), command).to.deep.equal(essence(modules));
      decisions.add(essence(bundled).decision);
    }
    expect([...decisions]).to.include.members(['allow', 'deny', 'ask']);
  });

  /** A copy of the CLI's install whose bin and bundle the test may break; everything else links to the real one. */
  function copyInstall(): { bin: string; bundleDir: string } {
    const root = makeTempDir('gate-bundle-install-');
    for (const dir of ['node_modules', 'core', 'plugins', 'server']) symlinkSync(join(REPO_DIR, dir), join(root, dir));
    const cli = join(root, 'cli');
    mkdirSync(join(cli, 'bin'), { recursive: true });
    mkdirSync(join(cli, 'dist', 'gate-bundle'), { recursive: true });
    for (const entry of ['node_modules', 'rules', 'package.json']) symlinkSync(join(CLI_DIR, entry), join(cli, entry));
    symlinkSync(join(CLI_DIR, 'dist', 'src'), join(cli, 'dist', 'src'));
    copyFileSync(BIN, join(cli, 'bin', 'agentgov.js'));
    for (const file of ['gate.mjs', 'stamp.json']) copyFileSync(join(CLI_DIR, 'dist', 'gate-bundle', file), join(cli, 'dist', 'gate-bundle', file));
    return { bin: join(cli, 'bin', 'agentgov.js'), bundleDir: join(cli, 'dist', 'gate-bundle') };
  }

  const breakages: Array<[string, (bundleDir: string) => void, string]> = [
    ['a copy of the install runs from its bundle (the checks below are of the copy, not of a missing bundle)', () => undefined, 'running from the gate bundle'],
    [
      'a bundle made from other files than the build is not used: dist/src answers',
      (bundleDir) => {
        const stamp = JSON.parse(readFileSync(join(bundleDir, 'stamp.json'), 'utf8')) as { built_from: [string, number, number][] };
        stamp.built_from[3]![1] -= 1000; // as if that file was rebuilt after the bundle was made
        writeFileSync(join(bundleDir, 'stamp.json'), JSON.stringify(stamp));
      },
      'no gate bundle made from this build',
    ],
    ['a bundle that cannot be loaded is not used: dist/src answers', (bundleDir) => writeFileSync(join(bundleDir, 'gate.mjs'), 'export const = ;\n'), 'the gate bundle cannot be loaded'],
  ];
  for (const [title, breakIt, trace] of breakages) {
    it(title, async () => {
      const { bin, bundleDir } = copyInstall();
      breakIt(bundleDir);
      const run = await runBin(bin, input('rm -rf ~'), env, project);
      expect(run.stderr).to.contain(trace);
      expect(essence(run).decision).to.equal('deny');
    });
  }

  it('a bundle that breaks while it runs blocks the call (exit 2), never lets it through', async () => {
    const { bin, bundleDir } = copyInstall();
    writeFileSync(join(bundleDir, 'gate.mjs'), "export const gateFormatOf = () => 'json';\nexport async function runGateHook() { throw new Error('broken bundle'); }\n");
    const run = await runBin(bin, input('ls'), env, project);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('the call is blocked').and.contain('broken bundle');
  });
});
