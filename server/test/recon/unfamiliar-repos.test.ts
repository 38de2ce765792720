import { expect } from 'chai';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { shapeReconAnswer } from '../../src/recon/answer.js';
import { classifyFiles, workspaceMembersOf } from '../../src/recon/file-classes.js';
import { isAboutTests, isTestPath, pathSpellsScope, scopePathWords, taskScopes } from '../../src/recon/priors.js';
import { parseQuery } from '../../src/recon/query.js';
import { runRecon, type ReconResult } from '../../src/recon/recon.js';
import { retrievalIndexOf } from '../../src/recon/retrieval-index.js';
import { runnerOf } from '../../src/recon/runner-of.js';
import { fixtureRepo, SERVICE_REPO, type FixtureRepo } from './fixture-repo.js';

/** Files of a repository classified from the directory itself (no git needed). */
function classesOf(files: Record<string, string>): Map<string, { kind: string; reason: string; name?: string }> {
  const root = makeTempDir('agentgov-classes-');
  writeTree(root, files);
  const sources = Object.keys(files).filter((p) => /\.(py|[cm]?[jt]sx?)$/.test(p));
  return classifyFiles({ root, files: sources, text: (p) => files[p] });
}

const PY = 'def f():\n    return 1\n';

describe('recon on repositories it was not tuned on', function () {
  this.timeout(120_000);

  describe('vendored and generated code, recognised from the repository itself', () => {
    it('a nested directory with its own licence or package metadata inside a package is vendored; a monorepo package or a sub-path stub is not', () => {
      const classes = classesOf({
        'shop/__init__.py': "__version__ = '1.0'\n",
        'shop/cart.py': PY,
        'shop/packages/__init__.py': '',
        'shop/packages/urllib9/__init__.py': PY,
        'shop/packages/urllib9/LICENSE.txt': 'MIT',
        'shop/packages/urllib9/util/retry.py': PY,
        'shop/packages/chardet7/__init__.py': "__version__ = '7.0.1'\n",
        'shop/packages/chardet7/detect.py': PY,
        'shop/payments/__init__.py': 'from .card import charge\n',
        'shop/payments/card.py': PY,
        'web/src/app.js': 'module.exports = 1;\n',
        'web/src/lib/leftpad/package.json': JSON.stringify({ name: 'leftpad', version: '1.0.0' }),
        'web/src/lib/leftpad/index.js': 'module.exports = 2;\n',
        'packages/core/package.json': JSON.stringify({ name: '@x/core', version: '1.0.0' }),
        'packages/core/src/index.ts': 'export const a = 1;\n',
        'packages/core/src/v2/package.json': JSON.stringify({ main: '../dist/v2.js' }),
        'packages/core/src/v2/index.ts': 'export const b = 2;\n',
      });
      expect(classes.get('shop/packages/urllib9/util/retry.py')).to.deep.equal({
        kind: 'vendored',
        reason: 'own package metadata: shop/packages/urllib9/LICENSE.txt',
        name: 'urllib9',
      });
      expect(classes.get('shop/packages/urllib9/__init__.py')?.kind).to.equal('vendored');
      expect(classes.get('web/src/lib/leftpad/index.js')).to.include({ kind: 'vendored', name: 'leftpad' });
      expect(classes.get('shop/packages/chardet7/detect.py')).to.deep.equal({
        kind: 'vendored',
        reason: 'own package metadata: shop/packages/chardet7/__init__.py (__version__)',
        name: 'chardet7',
      });
      for (const own of [
        'shop/cart.py',
        'shop/__init__.py',
        'shop/payments/card.py',
        'shop/payments/__init__.py',
        'shop/packages/__init__.py',
        'web/src/app.js',
        'packages/core/src/index.ts',
        'packages/core/src/v2/index.ts',
      ]) {
        expect(classes.has(own), own).to.equal(false);
      }
    });

    it('workspace members (pnpm, npm/yarn, lerna, Cargo, go.work) are the product, whatever licence or metadata they carry', () => {
      const member = (name: string) => ({
        [`packages/${name}/package.json`]: JSON.stringify({ name: `@vue/${name}`, version: '3.5.0' }),
        [`packages/${name}/LICENSE`]: 'MIT',
        [`packages/${name}/src/index.ts`]: 'export const a = 1;\n',
      });
      // vuejs/core's shape: packages/ itself holds a source file, so every package sits "inside another's source"
      const monorepo = {
        'packages/global.d.ts': 'declare const __DEV__: boolean;\n',
        ...member('runtime-core'),
        ...member('compiler-core'),
      };
      const undeclared = classesOf(monorepo);
      expect(undeclared.get('packages/runtime-core/src/index.ts')?.kind).to.equal('vendored');
      const manifests: Record<string, string>[] = [
        { 'pnpm-workspace.yaml': "packages:\n  - 'packages/*'\n  - '!packages/skip'\n" },
        { 'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }) },
        { 'package.json': JSON.stringify({ name: 'root', private: true, workspaces: { packages: ['packages/**'] } }) },
        { 'lerna.json': JSON.stringify({ packages: ['packages/runtime-core', 'packages/compiler-core'] }) },
        { 'Cargo.toml': '[workspace]\nmembers = ["packages/*"]\n' },
        { 'go.work': 'go 1.22\n\nuse (\n\t./packages/runtime-core\n\t./packages/compiler-core // the compiler\n)\n' },
      ];
      for (const manifest of manifests) {
        const classes = classesOf({ ...monorepo, ...manifest });
        for (const own of ['packages/runtime-core/src/index.ts', 'packages/compiler-core/src/index.ts'])
          expect(classes.has(own), `${own} with ${Object.keys(manifest)[0]}`).to.equal(false);
      }
      // a package copied into a member's source is still someone else's code
      const copied = classesOf({
        'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
        ...monorepo,
        'packages/runtime-core/src/lib/tiny-emitter/package.json': JSON.stringify({
          name: 'tiny-emitter',
          version: '2.1.0',
        }),
        'packages/runtime-core/src/lib/tiny-emitter/index.js': 'module.exports = 1;\n',
      });
      expect(copied.get('packages/runtime-core/src/lib/tiny-emitter/index.js')).to.include({
        kind: 'vendored',
        name: 'tiny-emitter',
      });
      expect(copied.has('packages/runtime-core/src/index.ts')).to.equal(false);
      // a manifest that does not parse declares nothing (and breaks nothing)
      expect(
        classesOf({ ...monorepo, 'pnpm-workspace.yaml': 'packages: [unclosed\n' }).get(
          'packages/runtime-core/src/index.ts',
        )?.kind,
      ).to.equal('vendored');
    });

    it('vendor-convention folders, generated-code headers and .gitattributes linguist attributes', () => {
      const classes = classesOf({
        'src/pip/_vendor/six.py': PY,
        'third_party/zlib/inflate.js': 'x();\n',
        'lib/extern/tool.py': PY,
        'src/api_pb.ts': '// @generated by protoc-gen-es\nexport const a = 1;\n',
        'src/gen.go.ts': '// Code generated by stringer; DO NOT EDIT.\nexport const b = 1;\n',
        'src/parser_tables.py': '# This file is autogenerated by the grammar build. Do not edit.\nTABLE = []\n',
        'src/hand.py': '# generated? no: a function that generates ids\ndef generate():\n    return 1\n',
        'assets/bundle.js': 'x();\n',
        'lib/copied.js': 'y();\n',
        'lib/own.js': 'z();\n',
        '.gitattributes':
          'assets/*.js linguist-generated\nlib/copied.js linguist-vendored=true\nlib/*.js -linguist-generated\n',
      });
      expect(classes.get('src/pip/_vendor/six.py')).to.include({
        kind: 'vendored',
        reason: 'vendor folder: src/pip/_vendor/',
      });
      expect(classes.get('third_party/zlib/inflate.js')).to.include({ kind: 'vendored', name: 'zlib' });
      expect(classes.get('lib/extern/tool.py')?.kind).to.equal('vendored');
      expect(classes.get('src/api_pb.ts')).to.deep.equal({ kind: 'generated', reason: 'header: @generated' });
      expect(classes.get('src/gen.go.ts')?.kind).to.equal('generated');
      expect(classes.get('src/parser_tables.py')?.kind).to.equal('generated');
      expect(classes.get('assets/bundle.js')).to.deep.equal({
        kind: 'generated',
        reason: '.gitattributes: assets/*.js linguist-generated',
      });
      expect(classes.get('lib/copied.js')).to.deep.equal({
        kind: 'vendored',
        reason: '.gitattributes: lib/copied.js linguist-vendored=true',
      });
      expect(classes.has('lib/own.js')).to.equal(false);
      expect(classes.has('src/hand.py')).to.equal(false);
    });

    describe('in recon (real index, bundled retrievers)', () => {
      let repo: FixtureRepo;
      before(async () => {
        repo = await fixtureRepo({
          'shop/__init__.py': 'from .cart import checkout\n',
          'shop/cart.py': `def checkout(cart):
    """Sends the order; asks the payment service again when the connection resets."""
    return send_order(cart, attempts=3)


def send_order(cart, attempts):
    return attempts
`,
          'shop/packages/__init__.py': '',
          'shop/packages/urllib9/__init__.py': '',
          'shop/packages/urllib9/LICENSE.txt': 'MIT License',
          'shop/packages/urllib9/retry.py': `class Retry:
    """Retry configuration: how often a request is retried when the connection resets, with backoff."""

    def increment(self, connection_reset):
        """Retry once more after a connection reset; backoff grows each retry."""
        return self.backoff(connection_reset)

    def backoff(self, retry):
        return 2 ** retry
`,
        });
      });
      after(async () => {
        await repo?.index.close();
      });
      const recon = (task: string): Promise<ReconResult> =>
        runRecon(parseQuery(task), runnerOf(repo.host), retrievalIndexOf(repo.index));

      it('demotes vendored code below the own code and says why', async () => {
        const result = await recon('retry the order when the connection resets');
        const paths = result.results.map((r) => r.path);
        expect(paths[0]).to.equal('shop/cart.py');
        const vendored = result.results.find((r) => r.path === 'shop/packages/urllib9/retry.py');
        expect(vendored, 'the vendored file is still listed').to.not.equal(undefined);
        expect(vendored?.why).to.include('demoted: vendored (own package metadata: shop/packages/urllib9/LICENSE.txt)');
        expect(
          result.results.find((r) => r.path === 'shop/cart.py')?.why.some((w) => w.startsWith('demoted')),
        ).to.equal(false);
      });

      it('a task naming the vendored package still finds it first', async () => {
        const result = await recon('urllib9 retry backoff grows too fast after a connection reset');
        expect(result.results[0]?.path).to.equal('shop/packages/urllib9/retry.py');
        expect(result.results[0]?.why.some((w) => w.startsWith('demoted'))).to.equal(false);
      });
    });
  });

  describe('test vocabulary decided per repository', () => {
    let framework: FixtureRepo;
    let service: FixtureRepo;
    const fixtureCode = (what: string) => `def ${what}_fixture(request):
    """Resolves the fixture for ${what}; every fixture has a scope."""
    fixture = request.fixture
    return fixture
`;
    before(async () => {
      // A test framework's own repository: "fixture" is what its product code is about.
      framework = await fixtureRepo({
        'probe/__init__.py': '',
        'probe/fixtures.py': `class FixtureDef:
    """A fixture definition: the fixture function, its scope and its teardown order."""

    def finish(self, request):
        """Runs the fixture teardown callbacks in reverse order of registration."""
        return request
`,
        'probe/runner.py': fixtureCode('runner'),
        'probe/config.py': fixtureCode('config'),
        'probe/scope.py': fixtureCode('scope'),
        'probe/plugins.py': fixtureCode('plugin'),
        'testing/test_fixtures.py': `def test_fixture_teardown_order(fixture):
    """The fixture teardown order is reversed."""
    assert fixture.finish(None) is None
`,
      });
      service = await fixtureRepo(SERVICE_REPO);
    });
    after(async () => {
      await framework?.index.close();
      await service?.index.close();
    });

    it("a word frequent in this repository's product code is not evidence the task is about tests", async () => {
      const view = retrievalIndexOf(framework.index);
      expect(view.isProductWord?.('fixture')).to.equal(true);
      expect(isAboutTests(parseQuery('fixture teardown order is wrong'), view)).to.equal(false);
      expect(isAboutTests(parseQuery('fixture teardown order is wrong, add a test'), view)).to.equal(true);
      const result = await runRecon(parseQuery('fixture teardown order is wrong'), runnerOf(framework.host), view);
      const paths = [...new Set(result.results.map((r) => r.path))];
      expect(paths).to.include('probe/fixtures.py');
      // The test file, the best match by words alone (its name repeats the task), ranks below every product file.
      expect(paths[paths.length - 1]).to.equal('testing/test_fixtures.py');
      const aboutTests = await runRecon(
        parseQuery('fixture teardown order is wrong, add a test'),
        runnerOf(framework.host),
        view,
      );
      expect(aboutTests.results[0]?.path).to.equal('testing/test_fixtures.py');
    });

    it('the same word in another repository still says the task is about tests', () => {
      const view = retrievalIndexOf(service.index);
      expect(view.isProductWord?.('fixture')).to.equal(false);
      expect(isAboutTests(parseQuery('fixture teardown order is wrong'), view)).to.equal(true);
    });

    it('type tests are tests', () => {
      for (const p of [
        'src/index.test-d.ts',
        'packages/dts-test/ref.test-d.tsx',
        'packages/dts-test/setup.ts',
        'test-d/index.ts',
        'src/types.spec-d.ts',
      ])
        expect(isTestPath(p), p).to.equal(true);
      for (const p of ['src/test-data.ts', 'src/dts.ts', 'src/index.d.ts']) expect(isTestPath(p), p).to.equal(false);
    });
  });

  describe('hub and re-export files', () => {
    let repo: FixtureRepo;
    before(async () => {
      repo = await fixtureRepo({
        'src/index.ts': `export { parseDate } from './parse';\nexport { formatDate } from './format';\nexport { DateError } from './errors';\n`,
        'src/parse.ts': `import { DateError } from './errors';

/** Parses an ISO date string with a timezone offset into a Date. */
export function parseDate(text: string): Date {
  const offset = text.match(/[+-]\\d\\d:\\d\\d$/);
  if (!offset) throw new DateError('timezone offset missing');
  return new Date(text);
}
`,
        'src/format.ts': `/** Formats a Date as a calendar day. */\nexport function formatDate(date: Date): string {\n  return date.toDateString();\n}\n`,
        'src/errors.ts': `/** Raised for a malformed input. */\nexport class DateError extends Error {}\n`,
        'src/cache/index.ts': `export { Store } from './store';\n`,
        'src/cache/store.ts': `/** Keeps values by key. */\nexport class Store {\n  get(key: string): string {\n    return key;\n  }\n}\n`,
      });
    });
    after(async () => {
      await repo?.index.close();
    });
    const recon = (task: string): Promise<ReconResult> =>
      runRecon(parseQuery(task), runnerOf(repo.host), retrievalIndexOf(repo.index));

    it('the hub re-exporting a strong candidate and the error catalog it raises from get a signal from the import graph', async () => {
      const result = await recon('parseDate rejects a timezone offset it should accept');
      expect(result.results[0]?.path).to.equal('src/parse.ts');
      const top5 = [...new Set(result.results.map((r) => r.path))].slice(0, 5);
      expect(top5).to.include('src/index.ts');
      expect(top5).to.include('src/errors.ts');
      const hub = result.results.find((r) => r.path === 'src/index.ts');
      expect(hub?.why.join(' ')).to.include('hub: re-exports src/parse.ts');
      expect(result.results.find((r) => r.path === 'src/errors.ts')?.why.join(' ')).to.include(
        'error catalog used by src/parse.ts',
      );
    });

    it('a hub whose files are not candidates gets nothing', async () => {
      const result = await recon('parseDate rejects a timezone offset it should accept');
      expect(result.results.some((r) => r.path === 'src/cache/index.ts' && r.found_by.includes('hub'))).to.equal(false);
      expect(result.metrics.contributions['hub']?.candidates).to.be.at.most(3);
    });
  });

  describe('a task scope naming a workspace member', () => {
    // Two members with the same vocabulary: compiler-dom's file says the task's words more often, so it wins unscoped.
    const attrs = (name: string, repeat: number) =>
      `/** Sets the sandbox attribute of an iframe element.${' The sandbox attribute of the iframe.'.repeat(repeat)} */\n` +
      `export function ${name}(el: { setAttribute(k: string, v: string): void }, sandbox: string): void {\n` +
      `  el.setAttribute('sandbox', sandbox);\n}\n`;
    const MONOREPO: Record<string, string> = {
      'package.json': JSON.stringify({ name: 'demo', private: true }),
      'pnpm-workspace.yaml': 'packages:\n  - packages/*\n',
      'packages/global.d.ts': 'declare const __DEV__: boolean;\n',
      'packages/runtime-dom/package.json': JSON.stringify({ name: '@demo/runtime-dom', version: '1.0.0' }),
      'packages/runtime-dom/src/patchAttr.ts': attrs('patchAttr', 0),
      'packages/compiler-dom/package.json': JSON.stringify({ name: '@demo/compiler-dom', version: '1.0.0' }),
      'packages/compiler-dom/src/transformAttr.ts': attrs('transformAttr', 3),
      'crates/printer/Cargo.toml': '[package]\nname = "grep-printer"\nversion = "0.1.0"\n',
      'crates/printer/src/lib.ts': 'export const printer = 1;\n',
      'Cargo.toml': '[workspace]\nmembers = ["crates/*"]\n',
    };
    let repo: FixtureRepo;
    before(async () => {
      repo = await fixtureRepo(MONOREPO);
    });
    after(async () => {
      await repo?.index.close();
    });
    const topFiles = async (task: string): Promise<{ files: string[]; result: ReconResult }> => {
      const result = await runRecon(parseQuery(task), runnerOf(repo.host), retrievalIndexOf(repo.index));
      return { files: [...new Set(result.results.map((r) => r.path))], result };
    };

    it('reads the scope a commit-style task opens with', () => {
      expect(taskScopes('fix(runtime-dom): keep the sandbox attribute')).to.deep.equal(['runtime-dom']);
      expect(taskScopes('Revert "fix(runtime-core/hmr): reload" (#14)')).to.deep.equal([
        'runtime-core/hmr',
        'runtime-core',
        'hmr',
      ]);
      expect(taskScopes('feat(compiler-core, @vue/compiler-sfc)!: x')).to.deep.equal([
        'compiler-core',
        '@vue/compiler-sfc',
        '@vue',
        'compiler-sfc',
      ]);
      expect(taskScopes('printer: fix column numbers')).to.deep.equal(['printer']);
      expect(taskScopes('fix: column numbers')).to.deep.equal([]);
      expect(scopePathWords('helpers.py: fix send_file', [])).to.deep.equal(['helpers']);
      for (const none of ['Fix the sandbox attribute', 'see https://example.com: it breaks', 'a (b): c'])
        expect(taskScopes(none), none).to.deep.equal([]);
    });

    it('names each member by its directory and its manifest name', () => {
      const members = workspaceMembersOf(
        repo.root,
        repo.index.files().map((f) => f.path),
      );
      expect(members).to.deep.include({ dir: 'packages/runtime-dom', names: ['runtime-dom', '@demo/runtime-dom'] });
      expect(members).to.deep.include({ dir: 'crates/printer', names: ['printer', 'grep-printer'] });
      expect(members.map((m) => m.dir)).to.not.include('packages');
    });

    it("favours the named member's files, says why, and leaves unscoped tasks alone", async () => {
      const task = 'keep the iframe sandbox attribute as an attribute';
      const plain = await topFiles(`fix: ${task}`);
      expect(plain.files[0]).to.equal('packages/compiler-dom/src/transformAttr.ts');
      expect(plain.result.results.some((r) => r.why.some((w) => w.startsWith('scope:')))).to.equal(false);
      for (const scope of ['runtime-dom', '@demo/runtime-dom']) {
        const scoped = await topFiles(`fix(${scope}): ${task}`);
        expect(scoped.files[0], scope).to.equal('packages/runtime-dom/src/patchAttr.ts');
        expect(scoped.result.results[0]?.why).to.include('scope: workspace member packages/runtime-dom/');
      }
      // a scope naming neither a member nor a file (here a word of the code) changes nothing
      const unknown = await topFiles(`fix(sandbox): ${task}`);
      expect(unknown.files[0]).to.equal('packages/compiler-dom/src/transformAttr.ts');
    });

    it('favours the files whose name a scope naming no member spells', async () => {
      const task = 'keep the iframe sandbox attribute as an attribute';
      for (const scope of ['patch-attr', 'PatchAttr', 'attr']) {
        const scoped = await topFiles(`fix(${scope}): ${task}`);
        const expected =
          scope === 'attr' ? 'packages/compiler-dom/src/transformAttr.ts' : 'packages/runtime-dom/src/patchAttr.ts';
        expect(scoped.files[0], scope).to.equal(expected);
        if (scope === 'patch-attr')
          expect(scoped.result.results[0]?.why).to.include('scope: its path spells patchattr');
      }
      expect(scopePathWords('fix(custom-element): x', [])).to.deep.equal(['customelement']);
      expect(pathSpellsScope('packages/runtime-dom/src/apiCustomElement.ts', ['customelement'])).to.equal(true);
      expect(pathSpellsScope('packages/compiler-ssr/src/index.ts', ['ssr'])).to.equal(true);
      expect(pathSpellsScope('packages/runtime-dom/src/customElementOf.ts', ['customelement'])).to.equal(false);
      // too short to spell a file, or a member's name (the member rule applies instead)
      expect(scopePathWords('fix(ui): x', [])).to.deep.equal([]);
      expect(
        scopePathWords('fix(runtime-dom): x', [{ dir: 'packages/runtime-dom', names: ['runtime-dom'] }]),
      ).to.deep.equal([]);
    });
  });

  describe('BROAD answers', () => {
    let repo: FixtureRepo;
    before(async () => {
      repo = await fixtureRepo(SERVICE_REPO);
    });
    after(async () => {
      await repo?.index.close();
    });

    it('still rank and propose the subsystems the task would split into, within the answer budget', async () => {
      const result = await runRecon(
        parseQuery('improve how every value is handled'),
        runnerOf(repo.host),
        retrievalIndexOf(repo.index),
      );
      expect(result.gate).to.equal('BROAD');
      expect(result.results.length).to.be.greaterThan(0);
      const parts = result.decomposition ?? [];
      expect(parts.length).to.be.at.least(2);
      const resultDirs = new Set(result.results.map((r) => r.path.split('/').slice(0, 2).join('/')));
      for (const part of parts) {
        expect(resultDirs.has(part.subsystem), part.subsystem).to.equal(true);
        for (const file of part.files) expect(file.startsWith(`${part.subsystem}/`)).to.equal(true);
      }
      expect(parts.reduce((n, p) => n + p.results, 0)).to.be.at.most(result.results.length);
      const { answer, text } = shapeReconAnswer(result, { budgetTokens: 600, verbose: false });
      expect(answer.decomposition).to.deep.equal(parts);
      expect(text).to.include('split into:').and.include(`- ${parts[0]?.subsystem} (`);
      expect(answer.budget.used_tokens).to.be.at.most(600);
    });

    it('an OK answer carries no decomposition', async () => {
      const result = await runRecon(
        parseQuery('LruCache evict should drop the least recently used entry'),
        runnerOf(repo.host),
        retrievalIndexOf(repo.index),
      );
      expect(result.gate).to.equal('OK');
      expect(result).to.not.have.property('decomposition');
    });
  });
});
