import { existsSync, readFileSync, symlinkSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { CACHE_FILE, createEslintLinter } from '../src/index.js';

const FLAT_CONFIG = `export default [{
  files: ['**/*.js'],
  languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { console: 'readonly' } },
  rules: { 'prefer-const': 'error', 'no-undef': 'error', 'no-unused-vars': 'warn' },
}];
`;
const SOURCE = 'let total = 1;\nconsole.log(total + missing);\n';

function project(files: Record<string, string> = {}): string {
  const root = makeTempDir('eslint-project-');
  writeTree(root, {
    'eslint.config.mjs': FLAT_CONFIG,
    'src/a.js': SOURCE,
    'src/clean.js': 'export const one = 1;\n',
    ...files,
  });
  return root;
}

describe('linter-eslint', function () {
  this.timeout(60_000);
  const linter = createEslintLinter();

  it('does not apply to a repository without an ESLint config, and says why', async () => {
    const root = makeTempDir('eslint-none-');
    writeTree(root, { 'a.js': SOURCE });
    const applicability = await linter.applicability(root);
    expect(applicability.applies).to.equal(false);
    expect(applicability.applies === false && applicability.reason).to.match(/no ESLint config.*eslint\.config\.js/);
  });

  it('reports every problem with path, 1-based position, rule, severity and whether it is fixable, without touching files', async () => {
    const root = project();
    const result = await linter.lint(root, { fix: false });
    expect(result.problems).to.deep.equal([
      {
        path: 'src/a.js',
        line: 1,
        column: 5,
        rule: 'prefer-const',
        severity: 'error',
        message: "'total' is never reassigned. Use 'const' instead.",
        fixable: true,
      },
      {
        path: 'src/a.js',
        line: 2,
        column: 21,
        rule: 'no-undef',
        severity: 'error',
        message: "'missing' is not defined.",
        fixable: false,
      },
    ]);
    expect(result.fixedFiles).to.deep.equal([]);
    expect(result.filesChecked).to.equal(3); // src/a.js, src/clean.js and eslint.config.mjs itself
    expect(result.tool).to.match(/^eslint 9\.\d+\.\d+ \(agentgov\), config eslint\.config\.mjs$/);
    expect(readFileSync(join(root, 'src/a.js'), 'utf8')).to.equal(SOURCE);
  });

  it('applies fixes with outputFixes, lists the fixed files and keeps only what it could not fix', async () => {
    const root = project();
    const result = await linter.lint(root, { fix: true });
    expect(result.fixedFiles).to.deep.equal(['src/a.js']);
    expect(readFileSync(join(root, 'src/a.js'), 'utf8')).to.equal(SOURCE.replace('let', 'const'));
    expect(result.problems.map((p) => `${p.path}:${p.line}:${p.column} ${p.rule}`)).to.deep.equal([
      'src/a.js:2:21 no-undef',
    ]);
  });

  it('lints only the named files when asked, skipping files the config ignores', async () => {
    const root = project({
      'eslint.config.mjs': `export default [{ ignores: ['vendor/**'] }, ...(await import('./rules.mjs')).default];\n`,
      'rules.mjs': FLAT_CONFIG,
      'vendor/x.js': 'let v = undefinedThing;\n',
    });
    const result = await linter.lint(root, { fix: false, files: ['src/clean.js', 'vendor/x.js'] });
    expect(result.filesChecked).to.equal(1);
    expect(result.problems).to.deep.equal([]);
  });

  it('keeps its cache, keyed by content, in the repository .agentgov/ folder', async () => {
    const root = project();
    await linter.lint(root, { fix: false });
    expect(existsSync(join(root, CACHE_FILE))).to.equal(true);
    expect(readFileSync(join(root, CACHE_FILE), 'utf8')).to.contain('src/a.js');
    const again = await linter.lint(root, { fix: false });
    expect(again.problems).to.have.length(2);
  });

  it('reports a file that does not parse as a parse-error problem', async () => {
    const root = project({ 'src/broken.js': 'export const = ;\n' });
    const result = await linter.lint(root, { fix: false });
    const broken = result.problems.find((p) => p.path === 'src/broken.js');
    expect(broken).to.include({ rule: 'parse-error', severity: 'error', line: 1, fixable: false });
  });

  it('reads a legacy .eslintrc config with the legacy ESLint class', async () => {
    const root = makeTempDir('eslint-legacy-');
    writeTree(root, {
      '.eslintrc.json': JSON.stringify({
        root: true,
        parserOptions: { ecmaVersion: 2022, sourceType: 'module' },
        rules: { 'no-var': 'error' },
      }),
      'a.js': 'var x = 1;\nexport { x };\n',
    });
    const result = await linter.lint(root, { fix: false });
    expect(result.tool).to.contain('config .eslintrc.json');
    expect(result.problems.map((p) => `${p.path}:${p.line}:${p.column} ${p.rule} ${p.fixable}`)).to.deep.equal([
      'a.js:1:1 no-var true',
    ]);
  });

  it("uses the project's own eslint package when the project has one", async () => {
    const root = project();
    const ours = dirname(createRequire(import.meta.url).resolve('eslint/package.json'));
    mkdirSync(join(root, 'node_modules'), { recursive: true });
    symlinkSync(ours, join(root, 'node_modules', 'eslint'), 'dir');
    const applicability = await linter.applicability(root);
    expect(applicability.applies && applicability.tool).to.match(
      /^eslint 9\.\d+\.\d+ \(project .*eslint\), config eslint\.config\.mjs$/,
    );
  });
});
