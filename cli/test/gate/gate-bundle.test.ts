import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
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

const runBin = (bin: string, input: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Run> =>
  runCli(['gate', '--stdin', '--format', 'json'], { entry: bin, input, env, cwd });

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
  const input = (command: string) =>
    JSON.stringify({ tool_name: 'Bash', arguments: { command }, session_id: 's', cwd: project });
  const essence = (run: Run) => {
    expect(run.code, run.stderr).to.equal(0);
    const o = JSON.parse(run.stdout) as JsonOutcome;
    return { decision: o.verdict.decision, reason: o.verdict.reason, assessment: o.assessment };
  };

  it('gives the verdicts dist/src gives, on a sample of the risk bench and every class of our own cases', async function () {
    const sample = [
      ...BENCH_COMMANDS.filter((_, i) => i % 25 === 0),
      ...CLASS_CASES.filter((_, i) => i % 20 === 0),
      'rm -rf ~',
      'git status',
    ];
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

  it('speaks every hook format as dist/src does (the formats are compiled into the bundle)', async function () {
    const { bundledPluginHost, gateFormatsOf } = await import('../../src/gate/plugin-formats.js');
    const formats = gateFormatsOf(await bundledPluginHost());
    const names = [...formats.keys()];
    expect(names).to.include.members(['agentx-code', 'claude-code', 'codex', 'cursor', 'gemini-cli', 'copilot-cli']);
    for (const name of names) {
      const format = formats.get(name);
      // The format's own probe (what init runs to check a hook): a dangerous call in that agent's shape.
      const payload = JSON.stringify(format!.probePayload(project));
      const args = ['gate', '--stdin', '--format', name];
      const bundled = await runCli(args, { entry: BIN, input: payload, env, cwd: project });
      const modules = await runCli(args, {
        entry: BIN,
        input: payload,
        env: { ...env, AGENTGOV_GATE_BUNDLE: '0' },
        cwd: project,
      });
      expect(bundled.stderr, name).to.contain('running from the gate bundle');
      expect([bundled.code, bundled.stdout], name).to.deep.equal([modules.code, modules.stdout]);
      expect(format!.readDecision(bundled.stdout, bundled.code ?? -1), name).to.be.oneOf(['deny', 'ask']);
    }
  });

  /** A copy of the CLI's install whose bin and bundle the test may break; everything else links to the real one. */
  function copyInstall(options: { binManifest?: boolean } = {}): { bin: string; bundleDir: string } {
    const root = makeTempDir('gate-bundle-install-');
    for (const dir of ['node_modules', 'core', 'plugins', 'server']) symlinkSync(join(REPO_DIR, dir), join(root, dir));
    const cli = join(root, 'cli');
    mkdirSync(join(cli, 'bin'), { recursive: true });
    mkdirSync(join(cli, 'dist', 'gate-bundle'), { recursive: true });
    for (const entry of ['node_modules', 'rules', 'package.json']) symlinkSync(join(CLI_DIR, entry), join(cli, entry));
    symlinkSync(join(CLI_DIR, 'dist', 'src'), join(cli, 'dist', 'src'));
    copyFileSync(BIN, join(cli, 'bin', 'agentgov.js'));
    if (options.binManifest !== false)
      copyFileSync(join(CLI_DIR, 'bin', 'package.json'), join(cli, 'bin', 'package.json'));
    const real = join(CLI_DIR, 'dist', 'gate-bundle');
    const bundleDir = join(cli, 'dist', 'gate-bundle');
    for (const file of ['gate.cjs', 'stamp.json', stampOf(real).code_cache])
      copyFileSync(join(real, file), join(bundleDir, file));
    rebuildBundle(bundleDir, readFileSync(join(bundleDir, 'gate.cjs'), 'utf8')); // the copy's time in the stamp
    return { bin: join(cli, 'bin', 'agentgov.js'), bundleDir };
  }

  interface Stamp {
    built_from: [string, number, number][];
    code_cache: string;
  }
  const stampOf = (bundleDir: string): Stamp =>
    JSON.parse(readFileSync(join(bundleDir, 'stamp.json'), 'utf8')) as Stamp;

  /** Replaces the bundle as a build would: its entry in the stamp follows, so the bin takes it for the current one. */
  function rebuildBundle(bundleDir: string, text: string): void {
    const file = join(bundleDir, 'gate.cjs');
    writeFileSync(file, text);
    const stamp = stampOf(bundleDir);
    const stat = statSync(file);
    for (const entry of stamp.built_from)
      if (entry[0] === './gate.cjs') [entry[1], entry[2]] = [stat.mtimeMs, stat.size];
    writeFileSync(join(bundleDir, 'stamp.json'), JSON.stringify(stamp));
  }

  const breakages: Array<[string, (bundleDir: string) => void, string]> = [
    [
      'a copy of the install runs from its bundle (the checks below are of the copy, not of a missing bundle)',
      () => undefined,
      'running from the gate bundle',
    ],
    [
      'a bundle made from other files than the build is not used: dist/src answers',
      (bundleDir) => {
        const stamp = stampOf(bundleDir);
        stamp.built_from[3]![1] -= 1000; // as if that file was rebuilt after the bundle was made
        writeFileSync(join(bundleDir, 'stamp.json'), JSON.stringify(stamp));
      },
      'no gate bundle made from this build',
    ],
    [
      'a bundle changed after it was made is not used: dist/src answers',
      (bundleDir) =>
        writeFileSync(
          join(bundleDir, 'gate.cjs'),
          readFileSync(join(bundleDir, 'gate.cjs'), 'utf8').replace('"use strict";', '"use strict"; '),
        ),
      'no gate bundle made from this build',
    ],
    [
      'a bundle that cannot be loaded is not used: dist/src answers',
      (bundleDir) => rebuildBundle(bundleDir, 'exports.x = ;\n'),
      'the gate bundle cannot be loaded',
    ],
    [
      'a code cache that is not V8 data is turned down: the bundle answers, and writes a good one',
      (bundleDir) => writeFileSync(join(bundleDir, stampOf(bundleDir).code_cache), Buffer.alloc(4096, 7)),
      'code cache turned down',
    ],
    [
      'a code cache that cannot be written leaves nothing behind: the bundle answers without one',
      (bundleDir) => {
        const cache = join(bundleDir, stampOf(bundleDir).code_cache);
        rmSync(cache);
        mkdirSync(join(cache, 'in-the-way'), { recursive: true }); // as an install the hook cannot write to
      },
      'no code cache yet',
    ],
  ];
  for (const [title, breakIt, trace] of breakages) {
    it(title, async () => {
      const { bin, bundleDir } = copyInstall();
      breakIt(bundleDir);
      const run = await runBin(bin, input('rm -rf ~'), env, project);
      expect(run.stderr).to.contain(trace);
      expect(essence(run).decision).to.equal('deny');
      expect(
        readdirSync(bundleDir).filter((name) => name.endsWith('.tmp')),
        'no temp file left',
      ).to.deep.equal([]);
      if (trace === 'code cache turned down')
        expect((await runBin(bin, input('ls'), env, project)).stderr).to.contain('code cache used');
    });
  }

  it("a code cache is used once written, and another bundle's cache never is", async () => {
    const { bin, bundleDir } = copyInstall();
    const { code_cache: cache } = stampOf(bundleDir);
    rmSync(join(bundleDir, cache));
    expect((await runBin(bin, input('rm -rf ~'), env, project)).stderr).to.contain('no code cache yet');
    expect(existsSync(join(bundleDir, cache)), 'written after the call').to.equal(true);
    const second = await runBin(bin, input('rm -rf ~'), env, project);
    expect(second.stderr).to.contain('code cache used');
    expect(essence(second).decision).to.equal('deny');
    // A rebuilt bundle is named by its own content: the old cache is not its cache.
    rebuildBundle(
      bundleDir,
      readFileSync(join(bundleDir, 'gate.cjs'), 'utf8').replace('"use strict";', '"use strict"; '),
    );
    const stamp = stampOf(bundleDir);
    stamp.code_cache = 'gate-0000000000000000.cache';
    writeFileSync(join(bundleDir, 'stamp.json'), JSON.stringify(stamp));
    const third = await runBin(bin, input('rm -rf ~'), env, project);
    expect(third.stderr).to.contain('no code cache yet');
    expect(essence(third).decision).to.equal('deny');
  });

  it('copied without bin/package.json, the bin runs as an ES module and still governs', async () => {
    const { bin } = copyInstall({ binManifest: false });
    const run = await runBin(bin, input('rm -rf ~'), env, project);
    expect(run.stderr).to.contain('running from the gate bundle');
    expect(essence(run).decision).to.equal('deny');
    const allowed = await runBin(bin, input('ls'), env, project);
    expect(essence(allowed).decision).to.equal('allow');
  });

  // A V8 flag set at run time (v8.setFlagsFromString('--no-regexp-tier-up'), tried for speed) made about one full-start
  // call in 25 die of SIGSEGV: a signal is an exit the agent's hook takes for "not blocked". Fresh homes: every call
  // is a full start from the bundle's code cache, the path that crashed.
  it('full-start calls from the bundle never die of a signal (60 calls, fresh homes)', async () => {
    const { bin } = copyInstall({ binManifest: false });
    const ends: string[] = [];
    for (let i = 0; i < 30; i++) {
      const calls = ['rm -rf ~', 'ls'].map(async (command) => {
        const fresh = makeTempDir('gate-bundle-fresh-');
        const freshEnv: NodeJS.ProcessEnv = { ...isolatedEnv(fresh), AGENTGOV_GATE_TRACE: '1' };
        mkdirSync(freshEnv['AGENTGOV_HOME']!, { recursive: true, mode: 0o700 });
        const run = await runBin(bin, input(command), freshEnv, project);
        expect(run.stderr).to.contain('running from the gate bundle');
        ends.push(`${command}: ${run.code ?? 'signal'}`);
        rmSync(fresh, { recursive: true, force: true });
      });
      await Promise.all(calls);
    }
    expect(ends.filter((end) => end !== 'rm -rf ~: 0' && end !== 'ls: 0')).to.deep.equal([]);
  });

  it('a bundle that breaks while it runs blocks the call (exit 2), never lets it through', async () => {
    const { bin, bundleDir } = copyInstall();
    rebuildBundle(
      bundleDir,
      "exports.gateFormatOf = () => 'json';\nexports.runGateHook = async () => { throw new Error('broken bundle'); };\n",
    );
    const run = await runBin(bin, input('ls'), env, project);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('the call is blocked').and.contain('broken bundle');
  });
});
