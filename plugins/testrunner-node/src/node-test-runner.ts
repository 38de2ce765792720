import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  AgentgovError,
  defineTestRunner,
  fileResultOf,
  lastLines,
  runForAnswerFile,
  runReport,
  timedOutReport,
  type TestCaseResult,
  type TestFileResult,
  type TestRunner,
  type TestRunReport,
  type TestRunRequest,
} from '@agentgov/core';
import { readNodeTestSetup, testFiles, usesNodeTest, type NodeTestSetup } from './node-test-config.js';
import type { DriverAnswer, DriverRequest } from './node-test-driver.js';

const DRIVER = fileURLToPath(new URL('./node-test-driver.js', import.meta.url));
const COVERAGE_PRELOAD = fileURLToPath(new URL('./coverage-preload.js', import.meta.url));

/** The package a bare `--import`/`--require` specifier names (`tsx/esm` → `tsx`, `@swc-node/register` → itself). */
function packageOf(specifier: string): string | undefined {
  if (
    specifier.startsWith('.') ||
    specifier.startsWith('/') ||
    specifier.startsWith('file:') ||
    specifier.startsWith('node:')
  )
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Throws `E_TEST_RUNNER_MISSING` naming node:test when a loader the test script needs is not installed. */
function checkLoaders(root: string, setup: NodeTestSetup): void {
  for (const option of setup.nodeOptions) {
    const match = /^(?:--import|--require|-r|--loader|--experimental-loader)=(.+)$/.exec(option);
    const name = match ? packageOf(match[1]!) : undefined;
    if (!name) continue;
    let found = false;
    for (let dir = resolve(root); ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'node_modules', name, 'package.json'))) found = true;
      if (found || dirname(dir) === dir) break;
    }
    if (!found)
      throw new AgentgovError(
        'E_TEST_RUNNER_MISSING',
        `node: the test script loads \`${name}\` (` +
          `${option}, ${setup.source}) but it is not installed in ` +
          `${root}; run \`npm install\` there`,
        { runner: 'node', loader: name },
      );
  }
}

export function createNodeTestRunner(): TestRunner {
  return defineTestRunner({
    name: 'node',
    detect: usesNodeTest,
    testFiles: (root) => testFiles(root, readNodeTestSetup(root)),
    // --test-name-pattern matches each test's own name, and a suite's name selects its tests.
    shell: { command: 'node --test', filter: (pattern) => `--test-name-pattern=${pattern}`, select: 'title' },
    run: runNodeTests,
  });
}

async function runNodeTests(root: string, request: TestRunRequest): Promise<TestRunReport> {
  const setup = readNodeTestSetup(root);
  checkLoaders(root, setup);
  const files = request.files.length ? request.files : testFiles(root, setup);
  const { answer, outcome, coverage } = await runForAnswerFile<DriverAnswer>(root, {
    command: process.execPath,
    args: (out) => {
      const driverRequest: DriverRequest = {
        root,
        out,
        files: files.map((file) => join(root, file)),
        ...(request.nameFilter ? { nameFilter: request.nameFilter } : {}),
      };
      return [
        ...setup.nodeOptions,
        ...(request.coverage ? [`--import=${COVERAGE_PRELOAD}`] : []),
        DRIVER,
        JSON.stringify(driverRequest),
      ];
    },
    ...(request.env ? { env: request.env } : {}),
    // Loaders transform what runs (TypeScript): the collector reads each script's source from V8.
    coverage: request.coverage ? 'debugger' : false,
    limits: request,
  });
  if (!answer) {
    if (outcome.timedOut) return timedOutReport('node', files, outcome);
    throw new AgentgovError(
      'E_TEST_CONFIG_INVALID',
      `node: the run stopped before reporting (exit ` +
        `${outcome.exitCode}); check the node options of ` +
        `${setup.source}: ${lastLines(outcome.output)}`,
      { runner: 'node', file: 'package.json', options: setup.nodeOptions },
    );
  }
  return runReport('node', files, answer.tests, { outcome, coverage }, (file, tests) =>
    fileResultWithError(file, tests, answer.fileErrors),
  );
}

/** A file's result; a file the driver reports an error for (it did not load, or failed outside its tests) says so. */
function fileResultWithError(
  file: string,
  tests: TestCaseResult[],
  errors: { file: string; message: string }[],
): TestFileResult {
  const error = errors.find((e) => e.file === file);
  if (!error) return fileResultOf(file, tests);
  if (!tests.some((test) => test.file === file)) return { file, status: 'error', durationMs: 0, output: error.message };
  return { ...fileResultOf(file, tests), status: 'failed', output: error.message };
}
