import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { makeTempDir } from '@agentgov/core/testing';
import { join } from 'node:path';
import { expect } from 'chai';
import { ignoredDirectories } from '../../src/index/discovery.js';
import { IndexWatcher } from '../../src/index/index-watcher.js';
import { openRepositoryIndex, type IndexUpdate, type RepositoryIndex } from '../../src/index/repository-index.js';
import { gitRepo, LANGUAGES, memoryLogger, TYPESCRIPT_REPO, removeRepos } from './fixture-repos.js';

/** Resolves with the first update whose changed files include `path`. */
function updateTouching(index: RepositoryIndex, path: string): Promise<IndexUpdate> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no index update for ${path}`)), 20_000);
    const listener = (update: IndexUpdate) => {
      if (!update.changedFiles.includes(path)) return;
      clearTimeout(timer);
      index.off('updated', listener);
      resolve(update);
    };
    index.on('updated', listener);
  });
}

describe('repository index: watching the work tree', () => {
  let root: string;
  let index: RepositoryIndex;
  before(async () => {
    root = gitRepo(TYPESCRIPT_REPO);
    index = await openRepositoryIndex({
      root,
      languages: LANGUAGES,
      logger: memoryLogger().logger,
      watch: true,
      debounceMs: 30,
    });
    await index.ready;
  });
  after(async () => {
    await index.close();
    removeRepos();
  });

  it('follows an edit', async () => {
    const epoch = index.epoch();
    const updated = updateTouching(index, 'src/cycle/a.ts');
    writeFileSync(
      join(root, 'src/cycle/a.ts'),
      `export function a(): number {\n  return 1;\n}\nexport function a2(): number {\n  return 2;\n}\n`,
    );
    const update = await updated;
    expect(update.epoch).to.be.greaterThan(epoch);
    expect(index.definitions({ path: 'src/cycle/a.ts' }).map((def) => def.name)).to.deep.equal(['a', 'a2']);
    expect(index.imports('src/cycle/a.ts')).to.deep.equal([]);
  });

  it('follows an added file, including the imports that now resolve to it', async () => {
    const updated = updateTouching(index, 'src/extra.ts');
    writeFileSync(join(root, 'src/extra.ts'), `import { a2 } from './cycle/a';\nexport const EXTRA = a2();\n`);
    await updated;
    expect(index.definitions({ path: 'src/extra.ts' }).map((def) => [def.kind, def.name])).to.deep.equal([
      ['constant', 'EXTRA'],
    ]);
    const call = index.references({ path: 'src/extra.ts', name: 'a2' }).find((ref) => ref.context === 'call')!;
    expect(index.definition(call.to_def_uid!)?.path).to.equal('src/cycle/a.ts');
  });

  it('follows a deleted file: its file and definitions go', async () => {
    const updated = updateTouching(index, 'src/cycle/b.ts');
    rmSync(join(root, 'src/cycle/b.ts'));
    await updated;
    expect(index.files().map((file) => file.path)).to.not.include('src/cycle/b.ts');
    expect(index.definitions({ name: 'b' })).to.deep.equal([]);
  });

  it('follows a rename: the old path disappears and importers re-resolve to the new one', async () => {
    const updated = updateTouching(index, 'src/cycle/alpha.ts');
    renameSync(join(root, 'src/cycle/a.ts'), join(root, 'src/cycle/alpha.ts'));
    const update = await updated;
    expect(update.changedFiles).to.include('src/cycle/a.ts');
    const paths = index.files().map((file) => file.path);
    expect(paths).to.include('src/cycle/alpha.ts').and.not.include('src/cycle/a.ts');
    expect(index.definitions({ path: 'src/cycle/alpha.ts' }).map((def) => def.name)).to.deep.equal(['a', 'a2']);
    expect(index.imports('src/extra.ts').map((edge) => edge.to_path)).to.deep.equal([null]);
  });
});

describe('index watcher: what git ignores is not walked', () => {
  after(() => removeRepos());

  it('lists the directories git ignores, and the watcher reports no change inside them', async () => {
    const root = gitRepo({ ...TYPESCRIPT_REPO, '.gitignore': 'dist/\n.venv/\n' });
    mkdirSync(join(root, 'dist/deep'), { recursive: true });
    mkdirSync(join(root, '.venv/lib'), { recursive: true });
    writeFileSync(join(root, 'dist/deep/out.js'), 'x');
    writeFileSync(join(root, '.venv/lib/site.py'), 'x');
    expect((await ignoredDirectories(root)).sort()).to.deep.equal(['.venv', 'dist']);
    const seen: string[] = [];
    const watcher = new IndexWatcher(
      root,
      30,
      (paths) => seen.push(...paths),
      () => {},
      await ignoredDirectories(root),
    );
    await watcher.ready;
    try {
      writeFileSync(join(root, 'dist/deep/out.js'), 'changed');
      writeFileSync(join(root, 'dist/new.js'), 'new');
      writeFileSync(join(root, 'src/cycle/a.ts'), 'export const a = 2;\n');
      const deadline = Date.now() + 10_000;
      while (!seen.includes('src/cycle/a.ts') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(seen).to.include('src/cycle/a.ts');
      expect(seen.filter((path) => path.startsWith('dist') || path.startsWith('.venv'))).to.deep.equal([]);
    } finally {
      await watcher.close();
    }
  });

  it('outside git nothing is known to be ignored', async () => {
    const dir = makeTempDir('agentgov-nogit-');
    expect(await ignoredDirectories(dir)).to.deep.equal([]);
  });
});
