import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { cycles } from '../../src/graph/graph-algorithms.js';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger, PYTHON_REPO, TYPESCRIPT_REPO, removeRepos } from './fixture-repos.js';

async function open(root: string): Promise<RepositoryIndex> {
  const index = await openRepositoryIndex({ root, languages: LANGUAGES, logger: memoryLogger().logger });
  await index.ready;
  return index;
}

function shape(index: RepositoryIndex, path: string) {
  return index.definitions({ path }).map((def) => [def.kind, def.qualified_name, def.start_line, def.end_line]);
}

function target(index: RepositoryIndex, uid: string | null): string | null {
  if (uid === null) return null;
  const def = index.definition(uid);
  return def ? `${def.path}#${def.qualified_name}` : `missing:${uid}`;
}

describe('repository index: TypeScript fixture', () => {
  let root: string;
  let index: RepositoryIndex;
  before(async () => {
    root = gitRepo(TYPESCRIPT_REPO);
    index = await open(root);
  });
  after(async () => {
    await index.close();
    removeRepos();
  });

  it('extracts every definition with kind, qualified name and span', () => {
    expect(shape(index, 'src/lib/math.ts')).to.deep.equal([
      ['function', 'add', 2, 4],
      ['class', 'Calculator', 6, 12],
      ['method', 'Calculator.plus', 8, 11],
      ['interface', 'Shape', 14, 16],
      ['type', 'Id', 18, 18],
      ['enum', 'Color', 20, 23],
      ['constant', 'PI', 25, 25],
    ]);
    const [add] = index.definitions({ path: 'src/lib/math.ts', name: 'add' });
    expect(add).to.include({
      signature: 'function add(a: number, b: number): number',
      docstring: 'Adds two numbers.',
      exported: true,
      name_line: 2,
      name_col: 16,
    });
    expect(add!.body_hash).to.match(/^[0-9a-f]{16}$/);
    expect(shape(index, 'src/cycle/a.ts')).to.deep.equal([['function', 'a', 2, 4]]);
  });

  it('resolves relative, extension-mapped, barrel, tsconfig-paths and require imports', () => {
    const edges = (path: string) => index.imports(path).map((edge) => [edge.specifier, edge.to_path, edge.names]);
    expect(edges('src/app.ts')).to.deep.equal([
      ['./lib', 'src/lib/index.ts', ['add', 'formatNumber']],
      ['@lib/math', 'src/lib/math.ts', ['Shape']],
      ['./lib/math', 'src/lib/math.ts', ['*']],
    ]);
    expect(edges('src/lib/index.ts')).to.deep.equal([
      ['./math', 'src/lib/math.ts', []],
      ['./format', 'src/lib/format.ts', ['format']],
    ]);
    expect(edges('src/lib/format.ts')).to.deep.equal([['@lib/math', 'src/lib/math.ts', ['Calculator']]]);
    expect(edges('src/cycle/b.ts')).to.deep.equal([['./a.js', 'src/cycle/a.ts', ['a']]]);
    expect(edges('scripts/legacy.js')).to.deep.equal([['../src/lib/math', 'src/lib/math.ts', ['add']]]);
    expect(index.importers('src/lib/math.ts').map((edge) => edge.from_path)).to.deep.equal([
      'scripts/legacy.js',
      'src/app.ts',
      'src/app.ts',
      'src/lib/format.ts',
      'src/lib/index.ts',
    ]);
  });

  it('resolves references through barrels, aliased re-exports, namespaces and this', () => {
    const refs = index
      .references({ path: 'src/app.ts' })
      .map((ref) => [ref.name, ref.context, ref.start_line, target(index, ref.to_def_uid)]);
    expect(refs).to.deep.equal([
      ['add', 'import', 1, 'src/lib/math.ts#add'],
      ['formatNumber', 'import', 1, 'src/lib/format.ts#format'],
      ['Shape', 'import', 2, 'src/lib/math.ts#Shape'],
      ['Shape', 'type', 5, 'src/lib/math.ts#Shape'],
      ['formatNumber', 'call', 6, 'src/lib/format.ts#format'],
      ['add', 'call', 6, 'src/lib/math.ts#add'],
      ['PI', 'member', 6, 'src/lib/math.ts#PI'],
    ]);
    const add = index.definitions({ path: 'src/lib/math.ts', name: 'add' })[0]!;
    expect(
      index.references({ toDefUid: add.def_uid }).map((ref) => `${ref.path}:${ref.start_line}:${ref.context}`),
    ).to.deep.equal(['scripts/legacy.js:2:call', 'src/app.ts:1:import', 'src/app.ts:6:call', 'src/lib/math.ts:9:call']);
    // Both names of an aliased re-export resolve to the original definition.
    expect(
      index
        .references({ path: 'src/lib/index.ts' })
        .map((ref) => [ref.name, ref.context, target(index, ref.to_def_uid)]),
    ).to.deep.equal([
      ['format', 'import', 'src/lib/format.ts#format'],
      ['formatNumber', 'import', 'src/lib/format.ts#format'],
    ]);
    const plusCall = index.references({ path: 'src/lib/math.ts', name: 'add' })[0]!;
    expect(target(index, plusCall.from_def_uid)).to.equal('src/lib/math.ts#Calculator.plus');
    expect(plusCall).to.include({ start_line: 9, start_col: 17, end_col: 20 });
  });

  it('finds the import cycle as a strongly connected component', () => {
    expect(cycles(index.fileGraph())).to.deep.equal([['src/cycle/a.ts', 'src/cycle/b.ts']]);
  });

  it('keeps def_uids of unchanged definitions when the file is edited elsewhere', async () => {
    const before = new Map(index.definitions({ path: 'src/lib/math.ts' }).map((def) => [def.qualified_name, def]));
    const file = join(root, 'src/lib/math.ts');
    writeFileSync(
      file,
      `export function inserted(): void {}\n\n${readFileSync(file, 'utf8').replace('a + b', 'b + a')}`,
    );
    const update = await index.refresh();
    expect(update.changedFiles).to.deep.equal(['src/lib/math.ts']);
    const after = new Map(index.definitions({ path: 'src/lib/math.ts' }).map((def) => [def.qualified_name, def]));
    for (const name of ['Calculator', 'Calculator.plus', 'Shape', 'Id', 'Color', 'PI']) {
      expect(after.get(name)!.def_uid, name).to.equal(before.get(name)!.def_uid);
      expect(after.get(name)!.body_hash, name).to.equal(before.get(name)!.body_hash);
      expect(after.get(name)!.start_line, name).to.equal(before.get(name)!.start_line + 2);
    }
    expect(after.get('add')!.def_uid).to.equal(before.get('add')!.def_uid);
    expect(after.get('add')!.body_hash).to.not.equal(before.get('add')!.body_hash);
    const changes = index.definitionsChangedAt(update.epoch).map((change) => [change.qualified_name, change.change]);
    expect(changes).to.have.deep.members([
      ['inserted', 'added'],
      ['add', 'modified'],
    ]);
    // References elsewhere still point at the same uid.
    expect(index.references({ path: 'src/app.ts', name: 'add' }).map((ref) => ref.to_def_uid)).to.deep.equal([
      before.get('add')!.def_uid,
      before.get('add')!.def_uid,
    ]);
  });
  it('re-resolves importers when a file’s definitions or exports change, not for an edit inside a body', async () => {
    const file = join(root, 'src/lib/math.ts');
    const [add] = index.definitions({ path: 'src/lib/math.ts', name: 'add' });
    writeFileSync(file, readFileSync(file, 'utf8').replace('return b + a;', 'return b + a + 0;'));
    const bodyEdit = await index.refresh();
    expect(bodyEdit.changedFiles).to.deep.equal(['src/lib/math.ts']);
    expect(bodyEdit.resolvedFiles, 'only the edited file').to.equal(1);
    expect(index.references({ path: 'src/app.ts', name: 'add' }).map((ref) => ref.to_def_uid)).to.deep.equal([
      add!.def_uid,
      add!.def_uid,
    ]);
    // PI no longer exported: app.ts's math.PI (through the namespace import) resolves to nothing
    const [pi] = index.definitions({ path: 'src/lib/math.ts', name: 'PI' });
    expect(index.references({ path: 'src/app.ts', name: 'PI' }).map((ref) => ref.to_def_uid)).to.deep.equal([
      pi!.def_uid,
    ]);
    writeFileSync(file, readFileSync(file, 'utf8').replace('export const PI', 'const PI'));
    const unexported = await index.refresh();
    expect(unexported.resolvedFiles, 'its importers too').to.be.greaterThan(3);
    expect(index.references({ path: 'src/app.ts', name: 'PI' }).map((ref) => ref.to_def_uid)).to.deep.equal([null]);
    // an import added to a barrel is an interface change of the barrel
    const barrel = join(root, 'src/lib/index.ts');
    writeFileSync(barrel, readFileSync(barrel, 'utf8') + "export { PI as pi } from './math';\n");
    expect((await index.refresh()).resolvedFiles).to.be.greaterThan(1);
  });
});

describe('repository index: Python fixture', () => {
  let index: RepositoryIndex;
  before(async () => {
    index = await open(gitRepo(PYTHON_REPO));
  });
  after(async () => {
    await index.close();
    removeRepos();
  });

  it('extracts classes, methods, functions and constants with docstrings', () => {
    expect(shape(index, 'pkg/core.py')).to.deep.equal([
      ['class', 'Engine', 1, 8],
      ['method', 'Engine.start', 4, 5],
      ['method', 'Engine.step', 7, 8],
      ['function', 'helper', 11, 13],
      ['constant', 'MAX_SPEED', 16, 16],
    ]);
    const [engine] = index.definitions({ name: 'Engine' });
    expect(engine).to.include({ docstring: 'Runs things.', signature: 'class Engine', kind: 'class' });
    expect(index.definitions({ name: 'start' })[0]).to.include({ signature: 'def start(self)' });
  });

  it('resolves absolute, relative, package and submodule imports', () => {
    const edges = (path: string) => index.imports(path).map((edge) => [edge.specifier, edge.to_path, edge.names]);
    expect(edges('main.py')).to.deep.equal([
      ['pkg', 'pkg/__init__.py', ['Engine']],
      ['pkg.sub.tools', 'pkg/sub/tools.py', ['*']],
    ]);
    expect(edges('pkg/sub/tools.py')).to.deep.equal([
      ['..core', 'pkg/core.py', ['helper']],
      ['..core', 'pkg/core.py', ['*']],
      ['pkg.core', 'pkg/core.py', ['*']],
    ]);
    expect(edges('pkg/__init__.py')).to.deep.equal([['.core', 'pkg/core.py', ['Engine']]]);
  });

  it('resolves references through __init__ re-exports, module aliases and self', () => {
    const resolved = (path: string) =>
      index
        .references({ path })
        .filter((ref) => ref.context !== 'import')
        .map((ref) => [ref.name, ref.qualifier, target(index, ref.to_def_uid)]);
    expect(resolved('main.py')).to.deep.equal([
      ['Engine', null, 'pkg/core.py#Engine'],
      ['start', 'Engine()', null],
      ['use', 'tools', 'pkg/sub/tools.py#use'],
    ]);
    expect(resolved('pkg/sub/tools.py')).to.deep.equal([
      ['helper', null, 'pkg/core.py#helper'],
      ['helper', 'core', 'pkg/core.py#helper'],
      ['helper', 'pkg.core', 'pkg/core.py#helper'],
    ]);
    expect(resolved('pkg/core.py')).to.deep.equal([
      ['step', 'self', 'pkg/core.py#Engine.step'],
      ['helper', null, 'pkg/core.py#helper'],
    ]);
  });

  it('finds the relative-import cycle', () => {
    expect(cycles(index.fileGraph())).to.deep.equal([['pkg/ping.py', 'pkg/pong.py']]);
  });
});

describe('repository index: CommonJS modules', () => {
  let index: RepositoryIndex;
  before(async () => {
    index = await open(
      gitRepo({
        'lib/legacy.js': 'module.exports = function legacy() {\n  return 1;\n};\n',
        'lib/helpers.js': 'exports.helper = () => 2;\nmodule.exports.other = function () {\n  return 3;\n};\n',
        'lib/obj.js': 'function a() {}\nfunction b() {}\nmodule.exports = { a, bee: b };\n',
        'main.js':
          "const legacy = require('./lib/legacy');\nconst { helper } = require('./lib/helpers');\nconst obj = require('./lib/obj');\nlegacy();\nhelper();\nobj.bee();\n",
      }),
    );
  });
  after(async () => {
    await index.close();
    removeRepos();
  });

  it('treats exports.x / module.exports assignments as exported definitions', () => {
    expect(index.definitions().map((def) => [def.path, def.kind, def.qualified_name, def.exported])).to.deep.equal([
      ['lib/helpers.js', 'function', 'helper', true],
      ['lib/helpers.js', 'function', 'other', true],
      ['lib/legacy.js', 'function', 'legacy', true],
      ['lib/obj.js', 'function', 'a', false],
      ['lib/obj.js', 'function', 'b', false],
    ]);
  });

  it('resolves calls through require bindings, whole-module calls and module.exports objects', () => {
    const calls = index
      .references({ path: 'main.js' })
      .filter((ref) => ref.context === 'call')
      .map((ref) => [ref.name, target(index, ref.to_def_uid)]);
    // `require` itself is defined nowhere in the repository, so its calls are not kept.
    expect(calls).to.deep.equal([
      ['legacy', 'lib/legacy.js#legacy'],
      ['helper', 'lib/helpers.js#helper'],
      ['bee', 'lib/obj.js#b'],
    ]);
  });
});

describe('repository index: a root that is not a directory', () => {
  it('is refused with E_NOT_FOUND, and nothing is created in its place', async () => {
    const parent = makeTempDir('index-root');
    const missing = join(parent, 'not-here');
    const file = join(parent, 'a-file');
    writeFileSync(file, 'x');
    for (const root of [missing, file]) {
      const error = await openRepositoryIndex({ root, languages: LANGUAGES, logger: memoryLogger().logger }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error, root).to.be.instanceOf(AgentgovError);
      expect((error as AgentgovError).code).to.equal('E_NOT_FOUND');
      expect((error as Error).message).to.contain(root);
    }
    expect(existsSync(missing)).to.equal(false);
  });
});
