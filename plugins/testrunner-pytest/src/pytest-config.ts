import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { parse as parseIni } from 'ini';
import { parse as parseToml } from 'smol-toml';
import { globSync } from 'tinyglobby';

/** The pytest settings that decide which files hold tests. */
export interface PytestSetup {
  testpaths: string[];
  pythonFiles: string[];
  /** The file the settings came from (`pytest.ini`, `pyproject.toml`, ...), or undefined for defaults. */
  source?: string;
}

/** Where pytest looks for its settings, in pytest's own order (the first that has a section wins). */
const CONFIG_FILES: { file: string; section: (text: string) => Record<string, unknown> | undefined }[] = [
  { file: 'pytest.ini', section: (text) => (parseIni(text)['pytest'] as Record<string, unknown> | undefined) ?? {} },
  {
    file: 'pyproject.toml',
    section: (text) =>
      (parseToml(text) as { tool?: { pytest?: { ini_options?: Record<string, unknown> } } }).tool?.pytest?.ini_options,
  },
  { file: 'tox.ini', section: (text) => parseIni(text)['pytest'] as Record<string, unknown> | undefined },
  { file: 'setup.cfg', section: (text) => parseIni(text)['tool:pytest'] as Record<string, unknown> | undefined },
];

function words(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  return [];
}

export function readPytestSetup(root: string): PytestSetup {
  for (const { file, section } of CONFIG_FILES) {
    const path = join(root, file);
    if (!existsSync(path)) continue;
    let settings: Record<string, unknown> | undefined;
    try {
      settings = section(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new AgentgovError('E_TEST_CONFIG_INVALID', `pytest: ${file} cannot be read: ${(error as Error).message}`, {
        runner: 'pytest',
        file,
      });
    }
    if (!settings) continue;
    const testpaths = words(settings['testpaths']);
    const pythonFiles = words(settings['python_files']);
    return {
      testpaths: testpaths.length ? testpaths : ['.'],
      pythonFiles: pythonFiles.length ? pythonFiles : ['test_*.py', '*_test.py'],
      source: file,
    };
  }
  return { testpaths: ['.'], pythonFiles: ['test_*.py', '*_test.py'] };
}

/** Whether the project uses pytest: a pytest config section, a conftest.py, or test_*.py files. */
export function usesPytest(root: string): boolean {
  try {
    if (readPytestSetup(root).source) return true;
  } catch {
    return true;
  }
  if (existsSync(join(root, 'conftest.py'))) return true;
  return pytestFiles(root, { testpaths: ['.'], pythonFiles: ['test_*.py', '*_test.py'] }).length > 0;
}

const SKIP = [
  '**/node_modules/**',
  '**/.venv/**',
  '**/venv/**',
  '**/.tox/**',
  '**/.git/**',
  '**/site-packages/**',
  '**/build/**',
  '**/dist/**',
];

/** The files pytest would collect: `python_files` patterns under each of `testpaths`. */
export function pytestFiles(root: string, setup: PytestSetup): string[] {
  const patterns: string[] = [];
  for (const base of setup.testpaths) {
    const clean = base.replace(/^\.\//, '').replace(/\/$/, '');
    if (clean.endsWith('.py')) patterns.push(clean);
    else for (const name of setup.pythonFiles) patterns.push(`${clean === '.' ? '' : `${clean}/`}**/${name}`);
  }
  return globSync(patterns, { cwd: root, ignore: SKIP, onlyFiles: true, expandDirectories: false }).sort();
}
