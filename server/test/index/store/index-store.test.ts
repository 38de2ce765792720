import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openRepositoryIndex, type RepositoryIndex } from '../../../src/index/repository-index.js';
import { identifierTerms } from '../../../src/index/search-terms.js';
import { storedUid } from '../../../src/index/store/index-store.js';
import { MIGRATIONS } from '../../../src/index/store/migrations.js';
import { gitRepo, LANGUAGES, memoryLogger, TYPESCRIPT_REPO, removeRepos } from '../fixture-repos.js';

/**
 * Replaces the repository's index with an empty one of an older schema (`version` migrations) claiming to hold
 * epoch 1 by `extractor`, one path interned; the caller adds rows and closes it.
 */
function olderIndex(root: string, version: number, extractor: string): Database.Database {
  const file = join(root, '.agentgov/index.db');
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${file}${suffix}`, { force: true });
  const raw = new Database(file);
  for (const statement of MIGRATIONS.slice(0, version).flat()) raw.exec(statement);
  raw.pragma(`user_version = ${version}`);
  raw.prepare(`INSERT INTO meta (key, value) VALUES ('extractor_version', ?), ('epoch', '1')`).run(extractor);
  raw.exec(`INSERT INTO paths (id, path) VALUES (1, 'src/lib/math.ts')`);
  return raw;
}

async function openWith(root: string, extra: { maxFileBytes?: number } = {}) {
  const { logger, lines } = memoryLogger();
  const index = await openRepositoryIndex({ root, languages: LANGUAGES, logger, ...extra });
  await index.ready;
  return { index, lines };
}

describe('index store', () => {
  const opened: RepositoryIndex[] = [];
  after(async () => {
    for (const index of opened) await index.close();
    removeRepos();
  });

  it('lives in .agentgov/index.db (WAL), excluded through .git/info/exclude', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const { index } = await openWith(root);
    opened.push(index);
    expect(readFileSync(join(root, '.git/info/exclude'), 'utf8').split('\n')).to.include('.agentgov/');
    expect(index.db.$client.pragma('journal_mode', { simple: true })).to.equal('wal');
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(status).to.not.include('.agentgov');
  });

  it('a first build is ready before its WAL is checkpointed, and the checkpoint follows on the next loop turn', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const { index } = await openWith(root);
    opened.push(index);
    const file = join(root, '.agentgov/index.db');
    // Ready: the build is committed to the WAL and readable, the database file still holds only the schema.
    expect(index.definitions({ name: 'add' }).map((def) => def.path)).to.deep.equal(['src/lib/math.ts']);
    const before = statSync(file).size;
    await setImmediate();
    expect(statSync(file).size).to.be.greaterThan(before);
    const [status] = index.db.$client.pragma('wal_checkpoint(PASSIVE)') as Array<{
      busy: number;
      log: number;
      checkpointed: number;
    }>;
    expect({ busy: status!.busy, pending: status!.log - status!.checkpointed }).to.deep.equal({ busy: 0, pending: 0 });
  });

  it('re-opens without re-parsing or bumping the epoch when nothing changed, and re-parses only what did', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    const epoch = first.index.epoch();
    await first.index.close();
    const second = await openWith(root);
    expect(second.index.epoch()).to.equal(epoch);
    expect(second.index.progress()).to.deep.equal({ done: 0, total: 0, phase: 'ready' });
    writeFileSync(join(root, 'src/cycle/a.ts'), 'export const A = 1;\n');
    const update = await second.index.refresh();
    expect(update).to.include({ epoch: epoch + 1 });
    expect(update.changedFiles).to.deep.equal(['src/cycle/a.ts']);
    expect(second.index.progress()).to.deep.equal({ done: 1, total: 1, phase: 'ready' });
    await second.index.close();
  });

  it('rebuilds a corrupt index with a log line instead of failing', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    await first.index.close();
    writeFileSync(join(root, '.agentgov/index.db'), 'this is not a database'.repeat(200));
    const second = await openWith(root);
    opened.push(second.index);
    expect(second.lines.join('')).to.match(/corrupt; rebuilding the index/);
    expect(second.index.stats().files).to.equal(7);
    expect(second.index.epoch()).to.equal(1);
  });

  it('rebuilds an index written by a newer or foreign schema', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    await first.index.close();
    const raw = new Database(join(root, '.agentgov/index.db'));
    raw.pragma('user_version = 99');
    raw.close();
    const second = await openWith(root);
    opened.push(second.index);
    expect(second.lines.join('')).to.match(/schema is not this version's; rebuilding/);
    expect(second.index.stats().definitions).to.equal(12);
  });

  it("rebuilds an index whose version is this schema's but whose tables are not", async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    await first.index.close();
    const raw = new Database(join(root, '.agentgov/index.db'));
    raw.exec(`DROP VIEW definitions; DROP TABLE def_rows`); // as a build of another branch under the same number
    raw.close();
    const second = await openWith(root);
    opened.push(second.index);
    expect(second.lines.join('')).to.match(/index tables are not this version's; rebuilding the index/);
    expect(second.lines.join('')).to.match(/def_rows/);
    expect(second.index.stats().definitions).to.equal(12);
    expect(second.index.epoch()).to.equal(1);
  });

  it('rebuilds an index of the schema before the compact reference rows, not misreading its rows', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    const add = first.index.definitions({ name: 'add' })[0]!;
    const expected = first.index.references({ toDefUid: add.def_uid });
    await first.index.close();
    // The same files recorded as unchanged in a schema-5 database whose one reference row says something else:
    // reading it as the current schema would answer from that row (or fail); rebuilding answers from the source.
    const raw = olderIndex(root, 5, '5');
    raw
      .prepare(
        `INSERT INTO ref_rows (path_id, name, context, start_line, start_col, end_line, end_col, qualifier, ` +
          `from_def_uid, to_def_uid) VALUES (1, 'stale', 'call', 1, 0, 1, 5, NULL, NULL, ?)`,
      )
      .run(add.def_uid);
    raw.close();
    const second = await openWith(root);
    opened.push(second.index);
    expect(second.lines.join('')).to.match(/another extractor version; rebuilding/);
    expect(second.index.db.$client.pragma('user_version', { simple: true })).to.equal(MIGRATIONS.length);
    expect(second.index.references({ toDefUid: add.def_uid })).to.deep.equal(expected);
    expect(second.index.references({ name: 'stale' })).to.deep.equal([]);
    expect(expected.map((ref) => `${ref.path}:${ref.start_line}`)).to.include('scripts/legacy.js:2');
  });

  it('rebuilds an index of reference rows (schema 6) from the source, answering as a fresh build', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const first = await openWith(root);
    const add = first.index.definitions({ name: 'add' })[0]!;
    const expected = first.index.references({ toDefUid: add.def_uid });
    const stats = first.index.stats();
    await first.index.close();
    const raw = olderIndex(root, 6, '7');
    raw.exec(`INSERT INTO ref_names (id, name) VALUES (1, 'stale'), (2, 'call')`);
    raw.exec(`INSERT INTO ref_rows (id, name_id, context_id, start_line, start_col) VALUES (${2 ** 24}, 1, 2, 1, 0)`);
    raw.close();
    const second = await openWith(root);
    opened.push(second.index);
    expect(second.lines.join('')).to.match(/another extractor version; rebuilding/);
    const tables = second.index.db.$client
      .prepare(`SELECT name FROM sqlite_master WHERE name IN ('ref_rows', 'refs', 'ref_files')`)
      .pluck()
      .all();
    expect(tables).to.deep.equal(['ref_files']);
    expect(second.index.references({ toDefUid: add.def_uid })).to.deep.equal(expected);
    expect(second.index.references({ name: 'stale' })).to.deep.equal([]);
    expect(second.index.stats()).to.deep.equal(stats);
  });

  it('reads references back exactly as extracted, by path, name, target and all', async () => {
    const root = gitRepo({
      ...TYPESCRIPT_REPO,
      'src/uni.ts': 'export function größe(n: number): number {\n  return n;\n}\nexport const g = größe(größe(1));\n',
    });
    const { index } = await openWith(root);
    opened.push(index);
    const all = index.references({});
    expect(all.length).to.be.greaterThan(5);
    // all of them are every file's, in path order, and as many as the store counts
    const paths = [...new Set(all.map((ref) => ref.path))].sort();
    expect(all).to.deep.equal(paths.flatMap((path) => index.references({ path })));
    expect(all.length).to.equal(index.stats().references);
    const uni = index.references({ path: 'src/uni.ts' });
    const target = index.definitions({ name: 'größe' })[0]!;
    const g = index.definitions({ name: 'g' })[0]!;
    const call = { path: 'src/uni.ts', name: 'größe', context: 'call', qualifier: null, start_line: 4, end_line: 4 };
    const uids = { from_def_uid: g.def_uid, to_def_uid: target.def_uid };
    expect(uni.filter((ref) => ref.name === 'größe')).to.deep.equal([
      { ...call, start_col: 17, end_col: 22, ...uids },
      { ...call, start_col: 23, end_col: 28, ...uids },
    ]);
    expect(uni.every((ref) => ref.path === 'src/uni.ts')).to.equal(true);
    expect(index.references({ toDefUid: target.def_uid }).map((ref) => ref.start_col)).to.deep.equal([17, 23]);
    expect(index.references({ name: 'größe' })).to.deep.equal(index.references({ toDefUid: target.def_uid }));
    expect(index.references({ toDefUid: 'not-a-uid' })).to.deep.equal([]);
    for (const ref of all) {
      expect(index.references({ path: ref.path })).to.deep.include(ref);
      expect(index.references({ name: ref.name })).to.deep.include(ref);
      if (ref.to_def_uid) expect(index.references({ toDefUid: ref.to_def_uid })).to.deep.include(ref);
    }
  });

  it('keeps which files reference a name or a definition in step with the references as files change', async () => {
    const root = gitRepo(TYPESCRIPT_REPO);
    const { index } = await openWith(root);
    opened.push(index);
    const add = index.definitions({ name: 'add' })[0]!;
    const files = (refs: Array<{ path: string }>) => [...new Set(refs.map((ref) => ref.path))];
    const pairs = () =>
      index.db.$client
        .prepare(
          `SELECT (SELECT path FROM paths WHERE id = t.path_id) AS path FROM ref_target_paths t ` +
            `WHERE t.to_id = (SELECT id FROM def_uids WHERE uid = ?) UNION ` +
            `SELECT (SELECT path FROM paths WHERE id = n.path_id) FROM ref_name_paths n ` +
            `WHERE n.name_id = (SELECT id FROM ref_names WHERE name = 'add') ORDER BY 1`,
        )
        .pluck()
        .all(storedUid(add.def_uid));
    const before = files(index.references({ toDefUid: add.def_uid }));
    expect(before).to.include('scripts/legacy.js');
    expect(pairs()).to.deep.equal(files(index.references({ name: 'add' })));
    writeFileSync(join(root, 'scripts/legacy.js'), 'module.exports = function legacy() { return 3; };\n');
    await index.refresh();
    expect(files(index.references({ toDefUid: add.def_uid }))).to.deep.equal(
      before.filter((path) => path !== 'scripts/legacy.js'),
    );
    expect(index.references({ name: 'add', path: 'scripts/legacy.js' })).to.deep.equal([]);
    expect(pairs()).to.not.include('scripts/legacy.js');
    writeFileSync(join(root, 'scripts/legacy.js'), TYPESCRIPT_REPO['scripts/legacy.js']!);
    await index.refresh();
    expect(files(index.references({ toDefUid: add.def_uid }))).to.deep.equal(before);
    expect(index.references({ toDefUid: add.def_uid, name: 'add' })).to.deep.equal(
      index.references({ toDefUid: add.def_uid }),
    );
    expect(pairs()).to.include('scripts/legacy.js');
  });

  it('skips binary and oversized files and counts them', async () => {
    const root = gitRepo({
      ...TYPESCRIPT_REPO,
      'src/blob.ts': 'export const x = 1;\0\0\0binary',
      'src/huge.ts': `export const big = "${'x'.repeat(5000)}";\n`,
    });
    const { index } = await openWith(root, { maxFileBytes: 4096 });
    opened.push(index);
    const stats = index.stats();
    expect(stats.skipped).to.deep.equal({ binary: 1, 'too-large': 1 });
    expect(stats).to.include({ files: 7 });
    expect(stats.languages).to.deep.equal({ javascript: 1, typescript: 6 });
  });

  it('counts a file nested too deeply to walk as a parse error and indexes the rest', async () => {
    const { index, lines } = await openWith(
      gitRepo({ ...TYPESCRIPT_REPO, 'src/deep.ts': `export const deep = ${'1 + '.repeat(30_000)}1;\n` }),
    );
    opened.push(index);
    expect(index.stats().skipped).to.deep.equal({ 'parse-error': 1 });
    expect(index.stats().files).to.equal(7);
    expect(lines.join('')).to.match(/could not be parsed; skipped.*src\/deep\.ts/);
  });

  it('fills the FTS5 tables so bm25() ranks definitions by split name terms', async () => {
    const { index } = await openWith(gitRepo(TYPESCRIPT_REPO));
    opened.push(index);
    expect(identifierTerms('formatHTTPResponse2')).to.deep.equal([
      'format',
      'http',
      'response',
      '2',
      'formathttpresponse2',
    ]);
    const query = (match: string) =>
      index.db.$client
        .prepare(
          `SELECT d.qualified_name AS name FROM fts_definitions f JOIN def_rows d ON d.rowid = f.rowid WHERE fts_definitions MATCH ? ORDER BY bm25(fts_definitions)`,
        )
        .all(match) as Array<{ name: string }>;
    expect(query('calculator').map((row) => row.name)).to.deep.equal(['Calculator', 'Calculator.plus', 'format']);
    expect(query('docstring:numbers').map((row) => row.name)).to.deep.equal(['add']);
    const files = index.db.$client
      .prepare(
        `SELECT fl.path FROM fts_files f JOIN files fl ON fl.rowid = f.rowid WHERE fts_files MATCH ? ORDER BY bm25(fts_files)`,
      )
      .all('cycle') as Array<{ path: string }>;
    expect(files.map((row) => row.path).sort()).to.deep.equal(['src/cycle/a.ts', 'src/cycle/b.ts']);
  });
});
