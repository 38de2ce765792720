import { existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentgovError,
  defineTestRunner,
  lastLines,
  runForAnswerFile,
  runReport,
  timedOutReport,
  type ReportedTestCase,
  type TestRunner,
  type TestRunReport,
  type TestRunRequest,
} from '@agentgov/core';
import { toPosix } from '@agentgov/core/glob';
import { globSync } from 'tinyglobby';
import { MOCHARC_FILES, readMochaSetup, usesMocha, type MochaSetup } from './mocha-config.js';

const REPORTER = fileURLToPath(new URL('../../assets/case-reporter.cjs', import.meta.url));
const COVERAGE_HOOKS = fileURLToPath(new URL('./coverage-hooks.js', import.meta.url));

/** The files a setup's spec entries select: directories expand to `*.<ext>` (`**` with `recursive`). */
export function specFiles(root: string, setup: MochaSetup): string[] {
  const extensions = setup.extensions.length === 1 ? setup.extensions[0]! : `{${setup.extensions.join(',')}}`;
  const patterns: string[] = [];
  for (const entry of setup.spec) {
    const clean = entry.replace(/^\.\//, '').replace(/\/$/, '');
    const absolute = join(root, clean);
    if (existsSync(absolute) && statSync(absolute).isDirectory())
      patterns.push(`${clean === '.' ? '' : `${clean}/`}${setup.recursive ? '**/' : ''}*.${extensions}`);
    else patterns.push(clean);
  }
  const files = globSync(patterns, {
    cwd: root,
    ignore: [...setup.ignore, '**/node_modules/**'],
    onlyFiles: true,
    expandDirectories: false,
  });
  return [...new Set(files.map(toPosix))].sort();
}

/** The project's mocha entry point, resolved from the project (never agentgov's own copy). */
function mochaBin(root: string): string {
  try {
    return createRequire(join(resolve(root), 'package.json')).resolve('mocha/bin/mocha.js');
  } catch {
    throw new AgentgovError(
      'E_TEST_RUNNER_MISSING',
      `mocha: the runner is not installed in ${root} (no node_modules/mocha); run \`npm install\` there`,
      { runner: 'mocha' },
    );
  }
}

export function createMochaRunner(): TestRunner {
  return defineTestRunner({
    name: 'mocha',
    detect: usesMocha,
    testFiles: (root) => specFiles(root, readMochaSetup(root)),
    // mocha's --grep matches the full title: the title path joined by spaces.
    shell: { command: 'npx mocha', filter: (pattern) => `--grep ${pattern}`, select: 'path' },
    run: runMocha,
  });
}

async function runMocha(root: string, request: TestRunRequest): Promise<TestRunReport> {
  const setup = readMochaSetup(root);
  const bin = mochaBin(root);
  const files = request.files.length ? request.files : specFiles(root, setup);
  const scriptedRc = MOCHARC_FILES.slice(0, 2).some((name) => existsSync(join(root, name)));
  const args = [
    bin,
    // A data config's options are passed through below; spec lists from configs would add every file to the run.
    ...(scriptedRc ? [] : ['--no-config', '--no-package']),
    ...setup.passThrough,
    ...(request.coverage ? ['--require', COVERAGE_HOOKS] : []),
    // A suite that leaves handles open (servers, sockets) would keep the process alive after its last test.
    '--exit',
    '--reporter',
    REPORTER,
    ...(request.nameFilter ? ['--grep', request.nameFilter] : []),
    ...files,
  ];
  const { answer, outcome, coverage } = await runForAnswerFile<{ tests: ReportedTestCase[] }>(root, {
    command: process.execPath,
    args: () => args,
    ...(request.env ? { env: request.env } : {}),
    answerEnv: 'AGENTGOV_MOCHA_RESULTS',
    coverage: request.coverage === true,
    limits: request,
  });
  if (!answer) {
    if (outcome.timedOut) return timedOutReport('mocha', files, outcome);
    const named = files.filter((file) => outcome.output.includes(file));
    if (named.length === 0) {
      throw new AgentgovError(
        'E_TEST_CONFIG_INVALID',
        `mocha: the run stopped before any test (exit ` +
          `${outcome.exitCode}); check ${setup.sources.join(', ') || 'the mocha config'}: ` +
          `${lastLines(outcome.output)}`,
        {
          runner: 'mocha',
          files: setup.sources,
          command: `npx mocha ${files.join(' ')}`,
        },
      );
    }
    return {
      runner: 'mocha',
      tests: [],
      files: files.map((file) => ({
        file,
        status: named.includes(file) ? 'error' : 'failed',
        durationMs: 0,
        output: named.includes(file) ? lastLines(outcome.output) : '',
      })),
      ...outcome,
    };
  }
  // The reporter names each case's file as mocha loaded it (absolute): the report's are relative to the project.
  const cases = answer.tests.map((test) => ({ ...test, file: test.file ? toPosix(relative(root, test.file)) : '' }));
  return runReport('mocha', files, cases, { outcome, coverage });
}
