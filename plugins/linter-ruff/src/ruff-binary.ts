import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Virtual environments looked for in the repository, in order. */
export const PROJECT_VENVS = ['.venv', 'venv', 'env'];
/** Files that say a repository holds Python. */
export const PYTHON_MARKERS = [
  'pyproject.toml',
  'setup.py',
  'setup.cfg',
  'ruff.toml',
  '.ruff.toml',
  'requirements.txt',
];

/** A ruff executable and where it was found. */
export interface RuffBinary {
  path: string;
  origin: string;
}

/** ruff from the repository's own virtual environment, else from PATH; undefined when there is none. */
export function findRuff(root: string, env: NodeJS.ProcessEnv = process.env): RuffBinary | undefined {
  for (const venv of PROJECT_VENVS) {
    const path = join(root, venv, 'bin', 'ruff');
    if (existsSync(path)) return { path, origin: `${venv}/bin` };
  }
  for (const dir of (env['PATH'] ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, 'ruff');
    if (existsSync(path)) return { path, origin: 'PATH' };
  }
  return undefined;
}

/** Whether the repository holds Python: a marker file, or a tracked (or top-level) `.py` file. */
export async function hasPython(root: string): Promise<boolean> {
  if (PYTHON_MARKERS.some((f) => existsSync(join(root, f)))) return true;
  try {
    const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '--', '*.py'], {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout.trim().length > 0;
  } catch {
    return readdirSync(root).some((f) => f.endsWith('.py'));
  }
}

export async function ruffVersion(binary: RuffBinary): Promise<string> {
  const { stdout } = await run(binary.path, ['--version']);
  return stdout.trim();
}
