#!/usr/bin/env node
// Creates (once) the Python virtual environment the tests of agentgov's pytest runner use:
// <this package>/.venv with pytest and coverage from the package registry. Idempotent: a venv
// whose interpreter already imports both is left alone. Prints the interpreter path.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const VENV_DIR = fileURLToPath(new URL('../.venv/', import.meta.url));
export const VENV_PYTHON = `${VENV_DIR}bin/python`;
const REQUIREMENTS = ['pytest>=8,<9', 'coverage>=7'];

function ready() {
  if (!existsSync(VENV_PYTHON)) return false;
  try {
    execFileSync(VENV_PYTHON, ['-c', 'import pytest, coverage'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure the venv exists with pytest and coverage; returns its interpreter. Throws with pip's output on failure.
 */
export function ensurePythonEnv() {
  if (ready()) return VENV_PYTHON;
  const python = process.env.AGENTGOV_BOOTSTRAP_PYTHON ?? 'python3';
  try {
    if (!existsSync(VENV_PYTHON))
      execFileSync(python, ['-m', 'venv', VENV_DIR], { stdio: ['ignore', 'ignore', 'pipe'] });
    execFileSync(
      VENV_PYTHON,
      ['-m', 'pip', 'install', '--quiet', '--retries', '1', '--timeout', '30', ...REQUIREMENTS],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  } catch (error) {
    const output = `${error.stdout ?? ''}${error.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
    throw new Error(
      `could not set up the Python test environment at ` +
        `${VENV_DIR} (${python} -m venv, then pip install ` +
        `${REQUIREMENTS.join(' ')}): ${error.message}\n` +
        `${output}`,
    );
  }
  if (!ready())
    throw new Error(
      `the Python test environment at ${VENV_DIR} still cannot import pytest and coverage after pip install`,
    );
  return VENV_PYTHON;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    console.log(ensurePythonEnv());
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
