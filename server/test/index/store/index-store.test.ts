import { execFileSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { openRepositoryIndex, type RepositoryIndex } from '../../../src/index/repository-index.js';
import { identifierTerms } from '../../../src/index/search-terms.js';
import { gitRepo, LANGUAGES, memoryLogger, TYPESCRIPT_REPO, removeRepos } from '../fixture-repos.js';

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
    expect(update).to.deep.equal({ epoch: epoch + 1, changedFiles: ['src/cycle/a.ts'] });
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
          `SELECT d.qualified_name AS name FROM fts_definitions f JOIN definitions d ON d.rowid = f.rowid WHERE fts_definitions MATCH ? ORDER BY bm25(fts_definitions)`,
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
