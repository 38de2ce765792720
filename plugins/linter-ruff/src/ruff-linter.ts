import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { toPosix } from '@agentgov/core/glob';
import { promisify } from 'node:util';
import type { LintApplicability, LintProblem, LintRequest, LintResult, Linter } from '@agentgov/core/contracts';
import { findRuff, hasPython, PROJECT_VENVS, ruffVersion, type RuffBinary } from './ruff-binary.js';

const run = promisify(execFile);

/** ruff's cache goes to the repository's `.agentgov/`, not a `.ruff_cache` next to the sources. */
export const CACHE_DIR = join('.agentgov', 'ruff-cache');

/** One diagnostic of `ruff check --output-format json`. */
interface RuffDiagnostic {
  code: string | null;
  message: string;
  filename: string;
  location: { row: number; column: number };
  fix: { applicability: 'safe' | 'unsafe' | 'display-only' } | null;
  severity?: 'error' | 'warning';
}

async function ruff(binary: RuffBinary, root: string, args: string[], signal?: AbortSignal): Promise<string> {
  try {
    const { stdout } = await run(binary.path, args, { cwd: root, maxBuffer: 256 * 1024 * 1024, signal });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`ruff ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

function problemOf(root: string, d: RuffDiagnostic): LintProblem {
  return {
    path: toPosix(relative(root, d.filename)),
    line: d.location.row,
    column: d.location.column,
    rule: d.code === null || d.code === 'invalid-syntax' ? 'parse-error' : d.code,
    severity: d.severity ?? 'error',
    message: d.message,
    fixable: d.fix?.applicability === 'safe',
  };
}

function hashOf(file: string): string {
  return existsSync(file) ? createHash('sha1').update(readFileSync(file)).digest('hex') : '';
}

/**
 * ruff for Python: `ruff check --output-format json`, and `--fix` for the safe fixes. It uses the
 * repository's own ruff (`.venv/bin/ruff`, `venv/bin/ruff`, `env/bin/ruff`) or the one on PATH, with
 * the repository's own config (ruff finds `pyproject.toml`/`ruff.toml` itself). A repository
 * without Python, or a machine without ruff, is not linted: the linter says so.
 */
export function createRuffLinter(options: { env?: NodeJS.ProcessEnv } = {}): Linter {
  const locate = (root: string) => findRuff(root, options.env ?? process.env);
  return {
    name: 'ruff',
    async applicability(root: string): Promise<LintApplicability> {
      if (!(await hasPython(root)))
        return {
          applies: false,
          reason: 'no Python in the repository (no pyproject.toml, setup.py, setup.cfg, ruff.toml or .py files)',
        };
      const binary = locate(root);
      if (!binary)
        return {
          applies: false,
          reason:
            `ruff is not installed: not in ${PROJECT_VENVS.map((v) => `${v}/bin`).join(', ')} ` +
            `of the repository nor on PATH (pip install ruff)`,
        };
      return { applies: true, tool: `${await ruffVersion(binary)} (${binary.origin})` };
    },
    async lint(root: string, request: LintRequest): Promise<LintResult> {
      const binary = locate(root);
      if (!binary) throw new Error('ruff is not installed in the repository virtual environment nor on PATH');
      const targets = request.files ?? ['.'];
      if (targets.length === 0)
        return {
          problems: [],
          fixedFiles: [],
          filesChecked: 0,
          tool: `${await ruffVersion(binary)} (${binary.origin})`,
        };
      const base = ['check', '--cache-dir', CACHE_DIR, '--exit-zero'];
      const listed = await ruff(binary, root, [...base, '--show-files', ...targets], request.signal);
      const check = async (fix: boolean) =>
        JSON.parse(
          await ruff(
            binary,
            root,
            [...base, '--output-format', 'json', ...(fix ? ['--fix'] : []), ...targets],
            request.signal,
          ),
        ) as RuffDiagnostic[];
      let diagnostics = await check(false);
      const fixable = [...new Set(diagnostics.filter((d) => d.fix?.applicability === 'safe').map((d) => d.filename))];
      const fixedFiles: string[] = [];
      if (request.fix && fixable.length) {
        const before = new Map(fixable.map((f) => [f, hashOf(f)]));
        diagnostics = await check(true);
        for (const [file, hash] of before) if (hashOf(file) !== hash) fixedFiles.push(toPosix(relative(root, file)));
      }
      return {
        problems: diagnostics.map((d) => problemOf(root, d)),
        fixedFiles: fixedFiles.sort(),
        filesChecked: listed.split('\n').filter((l) => l.trim()).length,
        tool: `${await ruffVersion(binary)} (${binary.origin})`,
      };
    },
  };
}
