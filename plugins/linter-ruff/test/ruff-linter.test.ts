import { existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ensureTestVenv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { CACHE_DIR, createRuffLinter } from '../src/index.js';

const PYPROJECT = '[project]\nname = "demo"\nversion = "0.1.0"\n\n[tool.ruff.lint]\nselect = ["F"]\n';
const SOURCE = 'import os\nimport sys\n\n\ndef main():\n    return sys.argv + missing\n';

describe('linter-ruff', function () {
  this.timeout(600_000);
  let bin: string;
  before(function () {
    // the real ruff, from the package registry into the test venv (idempotent; a failure fails the suite with pip's message)
    bin = ensureTestVenv(['ruff']);
  });

  /** A Python project whose own `.venv/bin/ruff` is the test venv's ruff. */
  function project(files: Record<string, string> = {}): string {
    const root = makeTempDir('ruff-project-');
    writeTree(root, { 'pyproject.toml': PYPROJECT, 'pkg/app.py': SOURCE, 'pkg/clean.py': 'VALUE = 1\n', ...files });
    mkdirSync(join(root, '.venv', 'bin'), { recursive: true });
    symlinkSync(join(bin, 'ruff'), join(root, '.venv', 'bin', 'ruff'));
    return root;
  }

  it('does not apply without Python, nor without ruff, and says why', async () => {
    const noPython = makeTempDir('ruff-none-');
    writeTree(noPython, { 'index.js': 'module.exports = 1;\n' });
    const linter = createRuffLinter({ env: { PATH: bin } });
    expect(await linter.applicability(noPython)).to.deep.equal({
      applies: false,
      reason: 'no Python in the repository (no pyproject.toml, setup.py, setup.cfg, ruff.toml or .py files)',
    });
    const noRuff = makeTempDir('ruff-absent-');
    writeTree(noRuff, { 'pyproject.toml': PYPROJECT });
    const absent = await createRuffLinter({ env: { PATH: '/nonexistent' } }).applicability(noRuff);
    expect(absent.applies === false && absent.reason).to.match(
      /^ruff is not installed: not in \.venv\/bin, venv\/bin, env\/bin of the repository nor on PATH/,
    );
  });

  it("uses the project's own .venv ruff first, else the one on PATH", async () => {
    const linter = createRuffLinter({ env: { PATH: bin } });
    const own = await linter.applicability(project());
    expect(own.applies && own.tool).to.match(/^ruff \d+\.\d+\.\d+ \(\.venv\/bin\)$/);
    const bare = makeTempDir('ruff-path-');
    writeTree(bare, { 'app.py': SOURCE });
    const fromPath = await linter.applicability(bare);
    expect(fromPath.applies && fromPath.tool).to.match(/^ruff \d+\.\d+\.\d+ \(PATH\)$/);
  });

  it('reports problems with path, 1-based position, rule and fixability, without touching files', async () => {
    const root = project();
    const result = await createRuffLinter({ env: { PATH: '' } }).lint(root, { fix: false });
    expect(result.problems).to.deep.equal([
      {
        path: 'pkg/app.py',
        line: 1,
        column: 8,
        rule: 'F401',
        severity: 'error',
        message: '`os` imported but unused',
        fixable: true,
      },
      {
        path: 'pkg/app.py',
        line: 6,
        column: 23,
        rule: 'F821',
        severity: 'error',
        message: 'Undefined name `missing`',
        fixable: false,
      },
    ]);
    expect(result.fixedFiles).to.deep.equal([]);
    expect(result.filesChecked).to.equal(3); // the two modules and pyproject.toml, which ruff checks too
    expect(readFileSync(join(root, 'pkg/app.py'), 'utf8')).to.equal(SOURCE);
    expect(existsSync(join(root, CACHE_DIR)), 'cache under .agentgov/').to.equal(true);
    expect(existsSync(join(root, '.ruff_cache'))).to.equal(false);
  });

  it('applies the safe fixes with --fix, lists the fixed files and keeps the rest', async () => {
    const root = project();
    const result = await createRuffLinter({ env: { PATH: '' } }).lint(root, { fix: true });
    expect(result.fixedFiles).to.deep.equal(['pkg/app.py']);
    expect(readFileSync(join(root, 'pkg/app.py'), 'utf8')).to.equal(SOURCE.replace('import os\n', ''));
    expect(result.problems.map((p) => `${p.path}:${p.line}:${p.column} ${p.rule}`)).to.deep.equal([
      'pkg/app.py:5:23 F821',
    ]);
  });

  it('lints only the named files, and reports a file that does not parse as parse-error', async () => {
    const root = project({ 'pkg/broken.py': 'def g(:\n' });
    const result = await createRuffLinter({ env: { PATH: '' } }).lint(root, {
      fix: false,
      files: ['pkg/broken.py', 'pkg/clean.py'],
    });
    expect(result.filesChecked).to.equal(2);
    expect(result.problems.map((p) => p.rule)).to.include('parse-error');
    expect(result.problems.every((p) => p.path === 'pkg/broken.py')).to.equal(true);
  });
});
