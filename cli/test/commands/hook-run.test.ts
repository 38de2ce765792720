/**
 * Acceptance for the installed hook (issue 16, finding 1): for every way of starting agentgov,
 * `init` writes a command, and that exact command string from the settings file, run through
 * `bash -c` as the agent runs it, exits 0 or 2 with an answer the agent understands. `doctor`
 * re-checks it; a hook pointing at a directory or a missing build is reported, never silently run.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedEnv, makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { BIN_ENTRY } from '../../src/gate/hook-command.js';

const CLI_DIR = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

interface Settings {
  hooks: { PreToolUse: { matcher: string; hooks: { type: string; command: string }[] }[] };
}

function bash(command: string, options: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  const run = spawnSync('bash', ['-c', command], {
    cwd: options.cwd,
    env: options.env,
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const hookPayload = (cwd: string, command: string) =>
  JSON.stringify({
    session_id: 's1',
    transcript_path: '/t.jsonl',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'tu1',
  });

function installedCommands(settingsFile: string): string[] {
  const settings = JSON.parse(readFileSync(settingsFile, 'utf8')) as Settings;
  return settings.hooks.PreToolUse.flatMap((entry) => entry.hooks.map((h) => h.command));
}

/** Runs the hook command the way the agent does and checks it is a hook answer (exit 0 or 2). */
function runAsAgent(command: string, project: string, env: NodeJS.ProcessEnv, shellCommand: string) {
  const result = bash(command, { cwd: project, env, input: hookPayload(project, shellCommand) });
  expect([0, 2], `exit ${result.code}: ${result.stderr}`).to.include(result.code);
  return result;
}

describe('the installed hook runs however agentgov was started (bash -c, as the agent runs it)', function () {
  let root: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    root = makeTempDir('hook-run-');
    project = join(root, 'my project');
    mkdirSync(project);
    env = isolatedEnv(join(root, 'home'));
  });

  // Each launcher is a shell prefix that starts agentgov; `init` is run through it.
  const launchers: [string, (root: string) => string][] = [
    [
      'the bin link (node_modules/.bin/agentgov -> cli/bin/agentgov.js)',
      (dir) => {
        const bin = join(dir, 'node_modules', '.bin');
        mkdirSync(bin, { recursive: true });
        symlinkSync(BIN_ENTRY, join(bin, 'agentgov'));
        return `'${join(bin, 'agentgov')}'`;
      },
    ],
    ['`node <checkout>/cli` (the package directory)', () => `'${process.execPath}' '${CLI_DIR}'`],
    ['`node <checkout>/cli/bin/agentgov.js`', () => `'${process.execPath}' '${BIN_ENTRY}'`],
    [
      'a Node binary on a path with spaces',
      (dir) => {
        const node = join(dir, 'node dir', 'node');
        mkdirSync(dirname(node), { recursive: true });
        copyFileSync(process.execPath, node);
        chmodSync(node, 0o755);
        return `'${node}' '${CLI_DIR}'`;
      },
    ],
    [
      'npx, resolving the package bin',
      (dir) => {
        const bin = join(dir, 'node_modules', '.bin');
        mkdirSync(bin, { recursive: true });
        symlinkSync(BIN_ENTRY, join(bin, 'agentgov'));
        writeFileSync(join(dir, 'package.json'), '{"name":"npx-probe","private":true}');
        return `cd '${dir}' && npx --offline --no-install agentgov`;
      },
    ],
  ];

  for (const [name, launcher] of launchers) {
    it(name, async () => {
      const prefix = launcher(join(root, 'launch'));
      const init = bash(`${prefix} init agentx-code --project '${project}'`, { cwd: root, env });
      expect(init.code, init.stderr + init.stdout).to.equal(0);
      expect(init.stdout).to.contain("the hook command works: the hook ran and answered 'deny'");
      expect(init.stdout).to.contain('verified: agentx-code will call the hook');
      const [command, ...more] = installedCommands(join(project, '.agentx', 'settings.json'));
      expect(more).to.deep.equal([]);
      // The dangerous call is never allowed; the harmless one gets no permission decision (no widening).
      const danger = runAsAgent(command!, project, env, 'rm -rf ~');
      const answer = JSON.parse(danger.stdout) as { hookSpecificOutput: { permissionDecision: string } };
      expect(['ask', 'deny']).to.include(answer.hookSpecificOutput.permissionDecision);
      const doctor = bash(`${prefix} doctor --project '${project}'`, { cwd: root, env });
      expect(doctor.code, doctor.stdout + doctor.stderr).to.equal(0);
      expect(doctor.stdout).to.match(/^ok {3}agentx-code \(project\)/m);
    });
  }

  it('--scope local writes the personal settings file and leaves the shared one alone', () => {
    const init = bash(`'${process.execPath}' '${CLI_DIR}' init agentx-code --scope local`, { cwd: project, env });
    expect(init.code, init.stderr).to.equal(0);
    expect(installedCommands(join(project, '.agentx', 'settings.local.json'))).to.have.length(1);
    expect(() => readFileSync(join(project, '.agentx', 'settings.json'))).to.throw(/ENOENT/);
    const doctor = bash(`'${process.execPath}' '${CLI_DIR}' doctor`, { cwd: project, env });
    expect(doctor.stdout).to.match(/^ok {3}agentx-code \(local\)/m);
    const bad = bash(`'${process.execPath}' '${CLI_DIR}' init agentx-code --scope team`, { cwd: project, env });
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.contain('--scope must be one of project, local');
  });

  it('init replaces the broken directory command an earlier init wrote; doctor had reported it', () => {
    mkdirSync(join(project, '.agentx'));
    const broken = `${CLI_DIR} gate --stdin`;
    writeFileSync(
      join(project, '.agentx', 'settings.json'),
      JSON.stringify({ hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: broken }] }] } }),
    );
    expect(bash(broken, { cwd: project, env, input: hookPayload(project, 'ls') }).code).to.equal(126);
    const doctor = bash(`'${process.execPath}' '${CLI_DIR}' doctor --project '${project}'`, { cwd: root, env });
    expect(doctor.code).to.equal(1);
    expect(doctor.stdout).to.contain('FAIL agentx-code (project)').and.contain('exited 126');
    const init = bash(`'${process.execPath}' '${CLI_DIR}' init agentx-code --project '${project}'`, { cwd: root, env });
    expect(init.code, init.stderr).to.equal(0);
    const [command, ...more] = installedCommands(join(project, '.agentx', 'settings.json'));
    expect(more).to.deep.equal([]);
    expect(command).to.not.equal(broken);
    runAsAgent(command!, project, env, 'ls');
  });

  it('an installed-but-inert hook is never ok: init says NOT ACTIVE YET with the step, doctor FAILs with the remedy', () => {
    // Claude Code runs no hook while a settings layer sets disableAllHooks
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), JSON.stringify({ disableAllHooks: true }));
    const init = bash(`'${process.execPath}' '${CLI_DIR}' init claude-code --project '${project}'`, { cwd: root, env });
    expect(init.code, init.stderr).to.equal(0);
    expect(init.stdout).to.contain('NOT ACTIVE YET: claude-code will not call this hook until you:');
    expect(init.stdout).to.contain(`1. remove "disableAllHooks" from ${join(project, '.claude', 'settings.json')}`);
    expect(init.stdout).to.not.contain('verified');
    const doctor = bash(`'${process.execPath}' '${CLI_DIR}' doctor --project '${project}'`, { cwd: root, env });
    expect(doctor.code, doctor.stdout).to.equal(1);
    expect(doctor.stdout).to.match(/^FAIL claude-code \(local\)/m);
    expect(doctor.stdout).to.contain("ok   hook command: the hook ran and answered 'deny'");
    expect(doctor.stdout).to.contain('FAIL hooks enabled:').and.contain('→ remove "disableAllHooks"');
    writeFileSync(join(project, '.claude', 'settings.json'), '{}');
    const fixed = bash(`'${process.execPath}' '${CLI_DIR}' doctor --project '${project}'`, { cwd: root, env });
    expect(fixed.code, fixed.stdout).to.equal(0);
    expect(fixed.stdout).to.match(/^ok {3}claude-code \(local\)/m);
  });

  it('doctor with no hook installed says so (exit 1)', () => {
    const doctor = bash(`'${process.execPath}' '${CLI_DIR}' doctor --project '${project}'`, { cwd: root, env });
    expect(doctor.code).to.equal(1);
    expect(doctor.stdout).to.contain('no agentgov gate hook is installed');
  });

  it('doctor fails a hook that answers allow on the probe (it would let the call run)', () => {
    const fake = join(root, 'fake', 'agentgov');
    mkdirSync(dirname(fake), { recursive: true });
    writeFileSync(fake, '#!/bin/sh\ncat >/dev/null\nexit 0\n');
    chmodSync(fake, 0o755);
    mkdirSync(join(project, '.agentx'));
    writeFileSync(
      join(project, '.agentx', 'settings.json'),
      JSON.stringify({
        hooks: { PreToolUse: [{ matcher: '*', hooks: [{ type: 'command', command: `${fake} gate --stdin` }] }] },
      }),
    );
    const doctor = bash(`'${process.execPath}' '${CLI_DIR}' doctor --project '${project}'`, { cwd: root, env });
    expect(doctor.code).to.equal(1);
    expect(doctor.stdout).to.contain("answered 'allow' on the probe");
  });
});

describe('the committed bin entry without a build', () => {
  it('says the build is missing and how to make it; under a hook it exits 2 (the call is blocked)', () => {
    const dir = makeTempDir('bin-nobuild-');
    mkdirSync(join(dir, 'bin'));
    copyFileSync(BIN_ENTRY, join(dir, 'bin', 'agentgov.js'));
    const version = spawnSync(process.execPath, [join(dir, 'bin', 'agentgov.js'), '--version'], { encoding: 'utf8' });
    expect(version.status).to.equal(70);
    expect(version.stderr).to.contain('build output').and.contain('is missing').and.contain('npm run build');
    const gate = spawnSync(process.execPath, [join(dir, 'bin', 'agentgov.js'), 'gate', '--stdin'], {
      encoding: 'utf8',
      input: '{}',
    });
    expect(gate.status).to.equal(2);
  });

  it('with the build, prints the version', () => {
    const version = spawnSync(BIN_ENTRY, ['--version'], { encoding: 'utf8' });
    expect(version.status, version.stderr).to.equal(0);
    expect(version.stdout.trim()).to.match(/^\d+\.\d+\.\d+/);
  });
});
