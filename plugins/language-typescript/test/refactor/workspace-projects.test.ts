import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import type { RefactorEdit, RefactorWorkspace } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import { TypeScriptRefactorEngine } from '../../src/refactor/typescript-refactor-engine.js';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/**
 * An npm-workspaces monorepo the way this repository is laid out: a solution tsconfig with
 * project references, `core` (composite, emits to dist/ — not built here) and `app` importing it
 * by its package name through node_modules, core's tests as their own tsconfig project, and a
 * loose script no tsconfig includes.
 */
const MONOREPO = {
  'package.json': JSON.stringify({ name: 'fx', private: true, type: 'module', workspaces: ['packages/*'] }),
  'tsconfig.base.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      composite: true,
      declaration: true,
      skipLibCheck: true,
      types: [],
    },
  }),
  'tsconfig.json': JSON.stringify({ files: [], references: [{ path: 'packages/core' }, { path: 'packages/app' }] }),
  'packages/core/package.json': JSON.stringify({
    name: '@fx/core',
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  }),
  'packages/core/tsconfig.json': JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
  }),
  'packages/core/src/index.ts': "export { makeHost, type Host } from './host.js';\n",
  'packages/core/src/host.ts':
    'export interface Host {\n  name: string;\n}\n/** makeHost builds a host */\nexport function makeHost(name: string): Host {\n  return { name };\n}\n',
  'packages/core/test/tsconfig.json': JSON.stringify({
    compilerOptions: {
      strict: true,
      module: 'nodenext',
      target: 'es2022',
      noEmit: true,
      skipLibCheck: true,
      types: [],
    },
    include: ['.'],
  }),
  'packages/core/test/host.test.ts': "import { makeHost } from '../src/host.js';\nexport const made = makeHost('t');\n",
  'packages/app/package.json': JSON.stringify({ name: '@fx/app', type: 'module', dependencies: { '@fx/core': '*' } }),
  'packages/app/tsconfig.json': JSON.stringify({
    extends: '../../tsconfig.base.json',
    compilerOptions: { rootDir: 'src', outDir: 'dist' },
    include: ['src'],
    references: [{ path: '../core' }],
  }),
  'packages/app/src/main.ts': "import { makeHost } from '@fx/core';\nexport const host = makeHost('app');\n",
  'scripts/loose.mjs': "import { makeHost } from '@fx/core';\nexport const made = makeHost('script');\n",
};

function monorepo(): string {
  const root = makeTempDir('ts-monorepo-');
  writeTree(root, MONOREPO);
  mkdirSync(join(root, 'node_modules/@fx'), { recursive: true });
  symlinkSync('../../packages/core', join(root, 'node_modules/@fx/core'));
  symlinkSync('../../packages/app', join(root, 'node_modules/@fx/app'));
  return root;
}

/** A workspace over the files on disk, as the index lists them (no node_modules, no build output). */
function diskWorkspace(root: string): RefactorWorkspace {
  const walk = (dir: string): string[] =>
    readdirSync(dir)
      .filter((name) => name !== 'node_modules' && name !== 'dist' && name !== '.git')
      .flatMap((name) =>
        statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [relative(root, join(dir, name))],
      );
  return {
    root,
    files: () =>
      walk(root)
        .filter((p) => /\.(?:[cm]?[jt]s|json)$/.test(p))
        .map((path) => ({ path, language: /\.[cm]?js$/.test(path) ? 'javascript' : 'typescript' })),
    read: (path) => {
      try {
        return readFileSync(join(root, path), 'utf8');
      } catch {
        return undefined;
      }
    },
    version: (path) => String(statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs ?? 'missing'),
    definitions: () => [],
    references: () => [],
    imports: () => [],
    importers: () => [],
  };
}

function apply(root: string, edits: RefactorEdit[]): void {
  const byPath = new Map<string, RefactorEdit[]>();
  for (const e of edits) byPath.set(e.path, [...(byPath.get(e.path) ?? []), e]);
  for (const [path, list] of byPath) {
    let text = readFileSync(join(root, path), 'utf8');
    const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index + 1)];
    const at = (line: number, col: number) => starts[line - 1]! + col;
    for (const e of list.sort(
      (a, b) => at(b.span.startLine, b.span.startCol) - at(a.span.startLine, a.span.startCol),
    )) {
      text =
        text.slice(0, at(e.span.startLine, e.span.startCol)) +
        e.newText +
        text.slice(at(e.span.endLine, e.span.endCol));
    }
    writeTree(root, { [path]: text });
  }
}

/** The real compiler, as the user runs it: `tsc -b` (the solution) and `tsc -p` of the test project. */
function tsc(root: string, ...args: string[]): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [TSC, ...args, '--pretty', 'false'], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}`.trim() };
}

const table = (edits: RefactorEdit[]) =>
  edits.map((e) => `${e.path}:${e.span.startLine} ${e.oldText} -> ${e.newText} [${e.certainty}]`).sort();

describe('TypeScriptRefactorEngine across the projects of a monorepo', function () {
  this.timeout(240_000);

  it('a rename reaches every project: the package, its importer by package name, its test project, a loose script; tsc -b is clean after', async () => {
    const root = monorepo();
    const engine = new TypeScriptRefactorEngine();
    const ws = diskWorkspace(root);
    const [symbol] = await engine.declarations('makeHost', ws);
    expect(symbol?.path).to.equal('packages/core/src/host.ts');
    const plan = await engine.rename({ symbol: symbol!, newName: 'createHost', includeComments: true }, ws);
    expect(table(plan.edits)).to.deep.equal([
      'packages/app/src/main.ts:1 makeHost -> createHost [high]',
      'packages/app/src/main.ts:2 makeHost -> createHost [high]',
      'packages/core/src/host.ts:4 makeHost -> createHost [low]',
      'packages/core/src/host.ts:5 makeHost -> createHost [high]',
      'packages/core/src/index.ts:1 makeHost -> createHost [high]',
      'packages/core/test/host.test.ts:1 makeHost -> createHost [high]',
      'packages/core/test/host.test.ts:2 makeHost -> createHost [high]',
      'scripts/loose.mjs:1 makeHost -> createHost [high]',
      'scripts/loose.mjs:2 makeHost -> createHost [high]',
    ]);
    apply(root, plan.edits);
    expect(tsc(root, '-b')).to.deep.equal({ status: 0, output: '' });
    expect(tsc(root, '-p', 'packages/core/test')).to.deep.equal({ status: 0, output: '' });
    engine.dispose();
  });

  it('the same rename once core is built: the importer resolves to dist/*.d.ts and is still renamed through the sources', async () => {
    const root = monorepo();
    expect(tsc(root, '-b').status).to.equal(0);
    const engine = new TypeScriptRefactorEngine();
    const ws = diskWorkspace(root);
    const [symbol] = await engine.declarations('Host', ws);
    const plan = await engine.rename({ symbol: symbol!, newName: 'Server', includeComments: false }, ws);
    expect([...new Set(plan.edits.map((e) => e.path))].sort()).to.deep.equal([
      'packages/core/src/host.ts',
      'packages/core/src/index.ts',
    ]);
    const main = await engine.declarations('makeHost', ws);
    const renamed = await engine.rename({ symbol: main[0]!, newName: 'createHost', includeComments: false }, ws);
    expect([...new Set(renamed.edits.map((e) => e.path))].sort()).to.deep.equal([
      'packages/app/src/main.ts',
      'packages/core/src/host.ts',
      'packages/core/src/index.ts',
      'packages/core/test/host.test.ts',
      'scripts/loose.mjs',
    ]);
    apply(root, renamed.edits);
    expect(tsc(root, '-b')).to.deep.equal({ status: 0, output: '' });
    engine.dispose();
  });

  it('a move rewrites the importers of every project (the test project too); an import by package name is listed unedited, not made relative', async () => {
    const root = monorepo();
    const engine = new TypeScriptRefactorEngine();
    const ws = diskWorkspace(root);
    const plan = await engine.move(
      {
        from: 'packages/core/src/host.ts',
        to: 'packages/core/src/hosting/host.ts',
        files: [{ from: 'packages/core/src/host.ts', to: 'packages/core/src/hosting/host.ts' }],
        includeComments: false,
      },
      ws,
    );
    expect(table(plan.edits)).to.deep.equal([
      'packages/core/src/index.ts:1 ./host.js -> ./hosting/host.js [high]',
      'packages/core/test/host.test.ts:1 ../src/host.js -> ../src/hosting/host.js [high]',
    ]);
    expect(plan.unedited ?? []).to.deep.equal([]);
    apply(root, plan.edits);
    mkdirSync(join(root, 'packages/core/src/hosting'));
    renameSync(join(root, 'packages/core/src/host.ts'), join(root, 'packages/core/src/hosting/host.ts'));
    engine.invalidate({
      changed: plan.edits.map((e) => e.path),
      moved: [{ from: 'packages/core/src/host.ts', to: 'packages/core/src/hosting/host.ts' }],
    });
    expect(tsc(root, '-b')).to.deep.equal({ status: 0, output: '' });
    expect(tsc(root, '-p', 'packages/core/test')).to.deep.equal({ status: 0, output: '' });

    // the package's entry moves: `@fx/core` is package.json's business, never respelled '../../core/src/…'
    const entry = await engine.move(
      {
        from: 'packages/core/src/index.ts',
        to: 'packages/core/src/entry.ts',
        files: [{ from: 'packages/core/src/index.ts', to: 'packages/core/src/entry.ts' }],
        includeComments: false,
      },
      ws,
    );
    expect(entry.edits.filter((e) => e.oldText === '@fx/core')).to.deep.equal([]);
    expect((entry.unedited ?? []).map((u) => `${u.path}:${u.line}`).sort()).to.deep.equal([
      'packages/app/src/main.ts:1',
      'scripts/loose.mjs:1',
    ]);
    expect(entry.unedited?.[0]?.reason).to.match(/package name '@fx\/core'/);
    engine.dispose();
  });

  it("a move asks only the projects whose files import a moved file: importers of the package's other entries build no program; a subpath export leading to the file is listed unedited", async () => {
    const root = monorepo();
    // the manifest mentions the moved file's stem (a description, as this repository's core does) and a
    // subpath export leads to it under another name
    writeTree(root, {
      'packages/core/package.json': JSON.stringify({
        name: '@fx/core',
        description: 'the host maker',
        type: 'module',
        exports: {
          '.': { types: './dist/index.d.ts', default: './dist/index.js' },
          './hosting': { types: './dist/host.d.ts', default: './dist/host.js' },
        },
      }),
      'packages/other/package.json': JSON.stringify({ name: '@fx/other', type: 'module' }),
      'packages/other/tsconfig.json': JSON.stringify({
        extends: '../../tsconfig.base.json',
        compilerOptions: { rootDir: 'src', outDir: 'dist' },
        include: ['src'],
        references: [{ path: '../core' }],
      }),
      'packages/other/src/deep.ts':
        "import { makeHost } from '@fx/core/hosting';\nexport const deep = makeHost('deep');\n",
    });
    symlinkSync('../../packages/other', join(root, 'node_modules/@fx/other'));
    const engine = new TypeScriptRefactorEngine();
    const disk = diskWorkspace(root);
    const versioned = new Set<string>();
    const ws: RefactorWorkspace = {
      ...disk,
      version: (path) => {
        versioned.add(path);
        return disk.version(path);
      },
    };
    const plan = await engine.move(
      {
        from: 'packages/core/src/host.ts',
        to: 'packages/core/src/hosting/host.ts',
        files: [{ from: 'packages/core/src/host.ts', to: 'packages/core/src/hosting/host.ts' }],
        includeComments: false,
      },
      ws,
    );
    expect(table(plan.edits)).to.deep.equal([
      'packages/core/src/index.ts:1 ./host.js -> ./hosting/host.js [high]',
      'packages/core/test/host.test.ts:1 ../src/host.js -> ../src/hosting/host.js [high]',
    ]);
    // `@fx/core/hosting` reaches the moved file through package.json: package.json's business, listed
    expect((plan.unedited ?? []).map((u) => `${u.path}:${u.line}`)).to.deep.equal(['packages/other/src/deep.ts:1']);
    expect(plan.unedited?.[0]?.reason).to.match(/package name '@fx\/core\/hosting'/);
    // app and the loose script import `@fx/core` (its index, not host.ts): their projects built no program
    expect([...versioned].filter((p) => p.startsWith('packages/app/') || p.startsWith('scripts/'))).to.deep.equal([]);
    expect(versioned.has('packages/other/src/deep.ts')).to.equal(true);
    engine.dispose();
  });
});
