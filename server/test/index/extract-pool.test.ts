import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguagePack } from '@agentgov/core';
import { makeTempDir } from '@agentgov/core/testing';
import { expect } from 'chai';
import { ExtractPool } from '../../src/index/extract-pool.js';
import { openRepositoryIndex } from '../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger, PYTHON_REPO, removeRepos, TYPESCRIPT_REPO } from './fixture-repos.js';

/** Enough files that a sync starts the worker pool, in both languages, importing each other. */
function largeRepo(): Record<string, string> {
  const tree: Record<string, string> = { ...TYPESCRIPT_REPO, ...PYTHON_REPO };
  for (let i = 0; i < 24; i++) {
    tree[`gen/t${i}.ts`] =
      `import { t${(i + 1) % 24} } from './t${(i + 1) % 24}';\n// calls helperFn\nexport function t${i}(n: number): number {\n  return n > 0 ? t${(i + 1) % 24}(n - 1) : ${i};\n}\nexport class K${i} { run() { return t${i}(1); } }\n`;
    tree[`gen/p${i}.py`] =
      `from gen.p${(i + 1) % 24} import p${(i + 1) % 24}\n\ndef p${i}(n):\n    """Doc ${i}."""\n    return p${(i + 1) % 24}(n - 1) if n else ${i}\n`;
  }
  return tree;
}

/** Every stored fact, in a stable order. */
function dump(root: string, index: Awaited<ReturnType<typeof openRepositoryIndex>>) {
  const sqlite = index.db.$client;
  return {
    root,
    stats: index.stats(),
    files: sqlite.prepare(`SELECT path, language, size, hash, lines, exports FROM files ORDER BY path`).all(),
    definitions: sqlite.prepare(`SELECT * FROM definitions ORDER BY def_uid`).all(),
    // in path and position order, then by name and context (references at one position are written in either order)
    refs: index
      .references({})
      .sort(
        (a, b) =>
          a.path.localeCompare(b.path) ||
          a.start_line - b.start_line ||
          a.start_col - b.start_col ||
          a.name.localeCompare(b.name) ||
          a.context.localeCompare(b.context),
      ),
    imports: sqlite
      .prepare(
        `SELECT from_path, specifier, kind, to_path, bindings, star, line FROM imports ORDER BY from_path, line, specifier`,
      )
      .all(),
    // The FTS tables are contentless: compare their term index, each entry named by its definition.
    fts: (() => {
      sqlite.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.fts_terms USING fts5vocab(main, fts_definitions, 'instance')`,
      );
      return sqlite
        .prepare(
          `SELECT d.def_uid, v.col, v.term, v.offset FROM temp.fts_terms v JOIN def_rows d ON d.rowid = v.doc ORDER BY d.def_uid, v.col, v.offset, v.term`,
        )
        .all();
    })(),
  };
}

/** `extractOnMainThread: false` keeps every job of a worker-capable pack on the workers. */
async function build(
  files: Record<string, string>,
  languages: readonly LanguagePack[],
  extractWorkers: number,
  extractOnMainThread = true,
) {
  const root = gitRepo(files);
  const { logger, lines } = memoryLogger();
  const index = await openRepositoryIndex({ root, languages, logger, extractWorkers, extractOnMainThread });
  await index.ready;
  const { root: _root, ...facts } = dump(root, index);
  await index.close();
  return { facts, lines };
}

/** A module a worker can import: the real TypeScript pack, whose extract fails on marked files. */
function failingPackModule(failure: 'throw' | 'exit'): string {
  const dir = makeTempDir();
  const real = import.meta.resolve('@agentgov/plugin-language-typescript').replace(/index\.js$/, 'language-packs.js');
  const file = join(dir, 'failing-pack.mjs');
  const fail = failure === 'throw' ? `throw new Error('walker failed on purpose')` : `process.exit(7)`;
  writeFileSync(
    file,
    `import { LANGUAGE_PACKS } from ${JSON.stringify(real)};\n` +
      `const base = LANGUAGE_PACKS.find((pack) => pack.name === 'typescript');\n` +
      `export const PACK = { ...base, extract(tree, source) { if (source.includes('FAIL_HERE')) { ${fail}; } return base.extract(tree, source); } };\n`,
  );
  return file;
}

describe('repository index: extraction on worker threads', () => {
  after(removeRepos);

  it('stores exactly the facts of an in-thread build, with or without the main thread helping', async () => {
    const inThread = await build(largeRepo(), LANGUAGES, 0);
    expect(inThread.facts.stats.files).to.be.greaterThan(50);
    expect((await build(largeRepo(), LANGUAGES, 2, false)).facts).to.deep.equal(inThread.facts);
    expect((await build(largeRepo(), LANGUAGES, 1, true)).facts).to.deep.equal(inThread.facts);
  });

  it('extracts in-thread the files of a pack without a worker module, or whose module lacks the pack', async () => {
    const reference = await build(largeRepo(), LANGUAGES, 0);
    const noModule = LANGUAGES.map((pack) =>
      pack.name === 'typescript' ? { ...pack, workerModule: undefined } : pack,
    );
    expect((await build(largeRepo(), noModule, 2)).facts).to.deep.equal(reference.facts);
    const wrongExport = LANGUAGES.map((pack) =>
      pack.workerModule ? { ...pack, workerModule: { ...pack.workerModule, exportName: 'NOT_EXPORTED' } } : pack,
    );
    expect((await build(largeRepo(), wrongExport, 2)).facts).to.deep.equal(reference.facts);
  });

  it('counts a file whose extraction throws on a worker as skipped and indexes the rest', async () => {
    const module = failingPackModule('throw');
    const languages = LANGUAGES.map((pack) =>
      pack.name === 'typescript' ? { ...pack, workerModule: { url: module, exportName: 'PACK' } } : pack,
    );
    const files = { ...largeRepo(), 'gen/bad.ts': `export const FAIL_HERE = 1;\n` };
    const { facts, lines } = await build(files, languages, 2, false);
    expect(facts.stats.skipped).to.deep.equal({ 'parse-error': 1 });
    expect(facts.files.map((file) => (file as { path: string }).path)).to.not.include('gen/bad.ts');
    expect(facts.files.map((file) => (file as { path: string }).path)).to.include('gen/t0.ts');
    expect(lines.join('')).to.contain('walker failed on purpose');
  });

  it('skips the files in progress on a worker that dies, and finishes the build without it', async () => {
    const module = failingPackModule('exit');
    const languages = LANGUAGES.map((pack) =>
      pack.name === 'typescript' ? { ...pack, workerModule: { url: module, exportName: 'PACK' } } : pack,
    );
    const files = { ...largeRepo(), 'gen/bad.ts': `export const FAIL_HERE = 1;\n` };
    const { facts, lines } = await build(files, languages, 1, false);
    const everything = (await build(files, LANGUAGES, 0)).facts.stats.files;
    const skipped = facts.stats.skipped['parse-error'] ?? 0;
    expect(skipped).to.be.within(1, 4); // the bad file and what else was in flight on that worker (at most 4)
    expect(facts.stats.files + skipped).to.equal(everything);
    expect(lines.join('')).to.contain('index worker thread stopped');
  });
});

describe('ExtractPool', () => {
  after(removeRepos);

  it('is not started when no language pack names a worker module', () => {
    const root = gitRepo({ 'a.ts': 'export const a = 1;\n' });
    const languages = LANGUAGES.map((pack) => ({ ...pack, workerModule: undefined }));
    expect(ExtractPool.start(root, languages, 2, memoryLogger().logger)).to.equal(null);
  });

  it('answers each job with its outcome and runs further jobs after close in-thread', async () => {
    const root = gitRepo({
      'a.ts': 'export function a() { return b(); }\n',
      'b.py': 'def b():\n    return 1\n',
      'bin.ts': 'x\u0000y',
    });
    const pool = ExtractPool.start(root, LANGUAGES, 2, memoryLogger().logger)!;
    const [a, b, binary, missing] = await Promise.all(
      ['a.ts', 'b.py', 'bin.ts', 'gone.ts'].map((path) => pool.run({ path, previousHash: null })),
    );
    expect(a).to.include({ status: 'extracted', lines: 2 });
    expect(a?.status === 'extracted' && a.facts?.definitions.map((def) => def.name)).to.deep.equal(['a']);
    expect(b?.status === 'extracted' && b.facts?.language).to.equal('python');
    expect(binary).to.deep.equal({ status: 'binary' });
    expect(missing).to.deep.equal({ status: 'unreadable' });
    const again = await pool.run({ path: 'a.ts', previousHash: a?.status === 'extracted' ? a.hash : null });
    expect(again.status).to.equal('unchanged');
    await pool.close();
    expect((await pool.run({ path: 'a.ts', previousHash: null })).status).to.equal('extracted');
  });

  it('lets the caller extract queued jobs itself (help) while the workers are busy', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 24; i++) files[`m${i}.ts`] = `export function f${i}(): number { return ${i}; }\n`;
    const root = gitRepo(files);
    const pool = ExtractPool.start(root, LANGUAGES, 1, memoryLogger().logger)!;
    const jobs = Object.keys(files).map((path) => pool.run({ path, previousHash: null }));
    let helped = 0;
    while (pool.help()) helped++;
    expect(helped).to.be.greaterThan(0);
    expect(pool.help()).to.equal(false);
    const outcomes = await Promise.all(jobs);
    expect(
      outcomes.map((outcome) =>
        outcome.status === 'extracted' ? outcome.facts?.definitions[0]?.name : outcome.status,
      ),
    ).to.deep.equal(Object.keys(files).map((_, i) => `f${i}`));
    await pool.close();
  });
});
