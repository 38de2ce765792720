import { mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { RefactorEdit, RefactorWorkspace } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { expect } from 'chai';
import ts from 'typescript';
import { TypeScriptRefactorEngine } from '../../src/refactor/typescript-refactor-engine.js';

/** A workspace over a directory on disk (no index facts: the TypeScript engine needs none). */
function diskWorkspace(root: string): RefactorWorkspace {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) =>
      statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [relative(root, join(dir, name))],
    );
  return {
    root,
    files: () => walk(root).map((path) => ({ path, language: path.endsWith('.js') ? 'javascript' : 'typescript' })),
    read: (path) => readFileSync(join(root, path), 'utf8'),
    version: (path) => String(statSync(join(root, path), { throwIfNoEntry: false })?.mtimeMs ?? 'missing'),
    definitions: () => [],
    references: () => [],
    imports: () => [],
    importers: () => [],
  };
}

/** `path: old -> new @line` per edit, sorted: a table to compare against. */
function table(edits: RefactorEdit[]): string[] {
  return edits.map((e) => `${e.path}:${e.span.startLine} ${e.oldText} -> ${e.newText} [${e.certainty}]`).sort();
}

function errorCount(root: string): number {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const program = ts.createProgram(config.fileNames, config.options);
  return ts.getPreEmitDiagnostics(program).length;
}

describe('TypeScriptRefactorEngine', function () {
  this.timeout(60_000);
  const engine = new TypeScriptRefactorEngine();

  it('checks identifiers: valid names pass, keywords and non-identifiers are refused', () => {
    expect(engine.checkIdentifier('limitTo')).to.equal(null);
    expect(engine.checkIdentifier('$el_2')).to.equal(null);
    expect(engine.checkIdentifier('class')).to.match(/reserved/);
    expect(engine.checkIdentifier('2fast')).to.match(/not a valid/);
    expect(engine.checkIdentifier('a-b')).to.match(/not a valid/);
  });

  it('finds declarations by bare and qualified name, members and locals included', async () => {
    const root = makeTempDir('ts-engine-');
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true } }',
      'a.ts':
        'export class Meter {\n  read(): number { return 1; }\n}\nexport interface Reader { read(): number }\nfunction outer() { const read = 2; return read; }\n',
    });
    const ws = diskWorkspace(root);
    const all = await engine.declarations('read', ws);
    expect(all.map((s) => `${s.qualifiedName}@${s.line}:${s.col}`)).to.deep.equal([
      'Meter.read@2:2',
      'Reader.read@4:26',
      'outer.read@5:25',
    ]);
    expect((await engine.declarations('Meter.read', ws)).map((s) => s.kind)).to.deep.equal(['method']);
  });

  it('renames through the language service (through shorthand properties), comments and strings are low', async () => {
    const root = makeTempDir('ts-engine-');
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext" } }',
      'src/limit.ts': '// limit caps a value\nexport const limit = 3;\nexport function box() { return { limit }; }\n',
      'src/use.ts':
        "import { limit } from './limit.js';\nexport const twice = limit * 2;\nexport const label = 'limit';\n",
    });
    const ws = diskWorkspace(root);
    const [symbol] = await engine.declarations('limit', ws);
    const plan = await engine.rename({ symbol: symbol!, newName: 'cap', includeComments: true }, ws);
    expect(table(plan.edits)).to.deep.equal([
      'src/limit.ts:1 limit -> cap [low]',
      'src/limit.ts:2 limit -> cap [high]',
      'src/limit.ts:3 limit -> cap [high]',
      'src/use.ts:1 limit -> cap [high]',
      'src/use.ts:2 limit -> cap [high]',
      'src/use.ts:3 limit -> cap [low]',
    ]);
    expect(plan.collisions).to.deep.equal([]);
    const without = await engine.rename({ symbol: symbol!, newName: 'cap', includeComments: false }, ws);
    expect(without.edits.every((e) => e.certainty === 'high')).to.equal(true);
  });

  it('reports collisions: a binding in scope, a member of the same class', async () => {
    const root = makeTempDir('ts-engine-');
    writeTree(root, {
      'tsconfig.json': '{ "compilerOptions": { "strict": true, "noEmit": true } }',
      'a.ts':
        'const total = 1;\nexport function sum(x: number) { return x + total; }\nexport class Meter { read() { return 1; } write() { return 2; } }\n',
    });
    const ws = diskWorkspace(root);
    const [sum] = await engine.declarations('sum', ws);
    expect(
      (await engine.rename({ symbol: sum!, newName: 'total', includeComments: false }, ws)).collisions.map(
        (c) => c.existing,
      ),
    ).to.deep.equal(['variable total']);
    const [read] = await engine.declarations('Meter.read', ws);
    expect(
      (await engine.rename({ symbol: read!, newName: 'write', includeComments: false }, ws)).collisions.map(
        (c) => c.existing,
      ),
    ).to.deep.equal(['member write of Meter']);
    expect(
      (await engine.rename({ symbol: read!, newName: 'sample', includeComments: false }, ws)).collisions,
    ).to.deep.equal([]);
  });

  it('finds references (definition included) for impact analysis', async () => {
    const root = makeTempDir('ts-engine-');
    writeTree(root, { 'tsconfig.json': '{}', 'a.ts': 'export function f() {}\nf();\nf();\n' });
    const ws = diskWorkspace(root);
    const [f] = await engine.declarations('f', ws);
    const refs = await engine.references(f!, ws);
    expect(refs.map((r) => `${r.span.startLine}:${r.isDefinition}`)).to.deep.equal(['1:true', '2:false', '3:false']);
  });
});

/** Applies edits to the files on disk, then moves `from` to `to` (what refactor_commit does, minus git). */
function applyMove(root: string, edits: RefactorEdit[], from: string, to: string): void {
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
  mkdirSync(dirname(join(root, to)), { recursive: true });
  renameSync(join(root, from), join(root, to));
}

describe('TypeScriptRefactorEngine moves', function () {
  // each case type-checks the whole fixture twice with a fresh program
  this.timeout(240_000);
  const engine = new TypeScriptRefactorEngine();
  const PROJECT = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        allowJs: true,
        checkJs: false,
        paths: { '@lib/*': ['./src/lib/*'] },
      },
      include: ['src'],
    }),
    'src/lib/clamp.ts':
      "import { MIN } from '../consts.js';\nexport function clamp(v: number) { return Math.max(MIN, v); }\n",
    'src/lib/index.ts': "export * from './clamp.js';\n",
    'src/consts.ts': 'export const MIN = 0;\n',
    'src/with-ext.ts': "import { clamp } from './lib/clamp.js';\nexport const a = clamp(1);\n",
    'src/reexport.ts': "export { clamp } from './lib/clamp.js';\n",
    'src/dynamic.ts': "export async function load() { return (await import('./lib/clamp.js')).clamp(2); }\n",
    'src/aliased.ts': "import { clamp } from '@lib/clamp.js';\nexport const b = clamp(3);\n",
    'src/barrel.ts': "import { clamp } from './lib/index.js';\nexport const c = clamp(4);\n",
    'src/legacy.cjs': "const { clamp } = require('./lib/clamp.js');\nmodule.exports = clamp;\n",
  };

  it('moves a file: relative, .js-for-.ts, re-export, dynamic import, tsconfig paths, require, and its own imports', async () => {
    const root = makeTempDir('ts-move-');
    writeTree(root, PROJECT);
    const before = errorCount(root);
    const ws = diskWorkspace(root);
    const plan = await engine.move(
      {
        from: 'src/lib/clamp.ts',
        to: 'src/math/clamp.ts',
        files: [{ from: 'src/lib/clamp.ts', to: 'src/math/clamp.ts' }],
        includeComments: false,
      },
      ws,
    );
    expect(table(plan.edits)).to.deep.equal([
      'src/aliased.ts:1 @lib/clamp.js -> ./math/clamp.js [high]',
      'src/dynamic.ts:1 ./lib/clamp.js -> ./math/clamp.js [high]',
      'src/legacy.cjs:1 ./lib/clamp.js -> ./math/clamp.js [high]',
      'src/lib/index.ts:1 ./clamp.js -> ../math/clamp.js [high]',
      'src/reexport.ts:1 ./lib/clamp.js -> ./math/clamp.js [high]',
      'src/with-ext.ts:1 ./lib/clamp.js -> ./math/clamp.js [high]',
    ]);
    applyMove(root, plan.edits, 'src/lib/clamp.ts', 'src/math/clamp.ts');
    expect(errorCount(root)).to.equal(before);
  });

  it('keeps a tsconfig paths alias when the destination is still under it; moves a directory', async () => {
    const root = makeTempDir('ts-move-');
    writeTree(root, PROJECT);
    const before = errorCount(root);
    const ws = diskWorkspace(root);
    const plan = await engine.move(
      {
        from: 'src/lib/clamp.ts',
        to: 'src/lib/num/clamp.ts',
        files: [{ from: 'src/lib/clamp.ts', to: 'src/lib/num/clamp.ts' }],
        includeComments: false,
      },
      ws,
    );
    expect(
      table(plan.edits).filter((row) => row.startsWith('src/aliased.ts') || row.startsWith('src/lib/clamp.ts')),
    ).to.deep.equal([
      'src/aliased.ts:1 @lib/clamp.js -> @lib/num/clamp.js [high]',
      'src/lib/clamp.ts:1 ../consts.js -> ../../consts.js [high]',
    ]);
    applyMove(root, plan.edits, 'src/lib/clamp.ts', 'src/lib/num/clamp.ts');
    engine.invalidate({ changed: [], moved: [{ from: 'src/lib/clamp.ts', to: 'src/lib/num/clamp.ts' }] });
    expect(errorCount(root)).to.equal(before);
    const dir = await engine.move(
      {
        from: 'src/lib',
        to: 'src/core',
        files: [{ from: 'src/lib/index.ts', to: 'src/core/index.ts' }],
        includeComments: false,
      },
      diskWorkspace(root),
    );
    expect(table(dir.edits)).to.include('src/barrel.ts:1 ./lib/index.js -> ./core/index.js [high]');
    applyMove(root, dir.edits, 'src/lib', 'src/core');
    expect(errorCount(root)).to.equal(before);
  });
});
