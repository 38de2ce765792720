import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestCaseResult, TestCoverage } from '@agentgov/core';
import type Database from 'better-sqlite3';
import { eq, inArray } from 'drizzle-orm';
import { sha1 } from '../index/extract-file.js';
import type { IndexDatabase } from '../index/store/index-store.js';
import { coverageFiles, testCases } from '../index/store/schema.js';

export type CoverageScope = 'test' | 'file';

export interface StoredTestCase {
  test_id: string;
  runner: string;
  file: string;
  title_path: string[];
  status: string;
  duration_ms: number;
  run_at: number;
}

/** One line's coverage: the tests (scope `test`) and test-file loads (scope `file`) that ran it. */
export interface LineHits {
  line: number;
  tests: string[];
  importTime: boolean;
}

/**
 * Per-test coverage facts in the index database: `(scope, test id, file, line)` plus each covered
 * file's content hash at run time. A fact is fresh while that hash equals the file's hash now.
 */
export class CoverageStore {
  private readonly sqlite: Database.Database;
  private readonly hashes = new Map<string, string | null>();
  /**
   * What the reads below computed from the tables as they are (every test case, coverage sizes):
   * a checkpoint or blast_radius asks for them several times per call, and the whole-table reads
   * cost more than the rest of a selection. Dropped on every write here, and when another
   * connection wrote (SQLite's `data_version`: a second server on the same index).
   */
  private memo: { key: string; values: Map<string, unknown> } = { key: '', values: new Map() };
  private writes = 0;
  private readonly dataVersion: Database.Statement;

  constructor(
    private readonly db: IndexDatabase,
    private readonly root: string,
  ) {
    this.sqlite = (db as unknown as { $client: Database.Database }).$client;
    this.dataVersion = this.sqlite.prepare('PRAGMA data_version').pluck();
  }

  /**
   * The content hash of a file now (sha1, as the index computes it); null when it does not exist. Cached until
   * `forgetHashes`.
   */
  currentHash(path: string): string | null {
    if (!this.hashes.has(path)) {
      const absolute = join(this.root, path);
      this.hashes.set(path, existsSync(absolute) ? sha1(readFileSync(absolute, 'utf8')) : null);
    }
    return this.hashes.get(path)!;
  }

  forgetHashes(): void {
    this.hashes.clear();
  }

  private memoized<T>(name: string, compute: () => T): T {
    const key = `${this.writes}:${this.dataVersion.get() as number}`;
    if (this.memo.key !== key) this.memo = { key, values: new Map() };
    if (!this.memo.values.has(name)) this.memo.values.set(name, compute());
    return this.memo.values.get(name) as T;
  }

  /** Stores test results (replacing earlier ones of the same ids). */
  recordResults(runner: string, tests: TestCaseResult[], runAt = Date.now()): void {
    const upsert = this.sqlite.prepare(
      `INSERT INTO test_cases (test_id, runner, file, title, status, duration_ms, ` +
        `failure, run_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(test_id) DO UPDATE SET runner = excluded.runner, file ` +
        `= excluded.file, title = excluded.title, status = excluded.status, duration_ms ` +
        `= excluded.duration_ms, failure = excluded.failure, run_at = excluded.run_at`,
    );
    this.writes++;
    this.sqlite.transaction(() => {
      for (const test of tests)
        upsert.run(
          test.id,
          runner,
          test.file,
          JSON.stringify(test.titlePath),
          test.status,
          test.durationMs,
          test.failure ? JSON.stringify(test.failure) : null,
          runAt,
        );
    })();
  }

  /**
   * Replaces the coverage of every (scope, id) in `coverage` with the new facts, hashing each
   * covered file as it is now. `hashOf` may supply the hashes (e.g. of the version that ran).
   */
  recordCoverage(
    source: string,
    coverage: TestCoverage[],
    hashOf: (path: string) => string | null = (path) => this.currentHash(path),
  ): { facts: number; skippedFiles: number } {
    this.writes++;
    const deleteLines = this.sqlite.prepare(`DELETE FROM coverage_lines WHERE scope = ? AND test_id = ?`);
    const deleteFiles = this.sqlite.prepare(`DELETE FROM coverage_files WHERE scope = ? AND test_id = ?`);
    const insertFile = this.sqlite.prepare(
      `INSERT OR REPLACE INTO coverage_files (scope, test_id, path, hash, source) VALUES (?, ?, ?, ?, ?)`,
    );
    const insertLine = this.sqlite.prepare(
      `INSERT INTO coverage_lines (scope, test_id, path, line) VALUES (?, ?, ?, ?)`,
    );
    const insertSource = this.sqlite.prepare(
      `INSERT OR IGNORE INTO coverage_sources (hash, path, text) VALUES (?, ?, ?)`,
    );
    const sourced = new Set<string>();
    /** Keeps the text of the covered version while the file on disk still is that version. */
    const keepSource = (path: string, hash: string) => {
      if (sourced.has(hash)) return;
      sourced.add(hash);
      const absolute = join(this.root, path);
      if (!existsSync(absolute)) return;
      const text = readFileSync(absolute, 'utf8');
      if (sha1(text) === hash) insertSource.run(hash, path, text);
    };
    let facts = 0;
    let skippedFiles = 0;
    this.sqlite.transaction(() => {
      for (const entry of coverage) {
        deleteLines.run(entry.scope, entry.id);
        deleteFiles.run(entry.scope, entry.id);
        for (const covered of entry.files) {
          const hash = hashOf(covered.file);
          if (hash === null) {
            skippedFiles++;
            continue;
          }
          insertFile.run(entry.scope, entry.id, covered.file, hash, source);
          keepSource(covered.file, hash);
          for (const line of covered.lines) insertLine.run(entry.scope, entry.id, covered.file, line);
          facts += covered.lines.length;
        }
      }
      // versions no coverage refers to any more
      this.sqlite.exec(`DELETE FROM coverage_sources WHERE hash NOT IN (SELECT DISTINCT hash FROM coverage_files)`);
    })();
    return { facts, skippedFiles };
  }

  /** The text of a covered file version, by its content hash, when the store kept it. */
  coverageSource(hash: string): string | undefined {
    return (
      this.sqlite.prepare(`SELECT text FROM coverage_sources WHERE hash = ?`).get(hash) as { text: string } | undefined
    )?.text;
  }

  /** Drops results and coverage of tests that no longer exist in `files` (their test files), keeping the rest. */
  forgetTestFiles(files: string[]): void {
    if (!files.length) return;
    this.writes++;
    const ids = this.db
      .select({ id: testCases.testId })
      .from(testCases)
      .where(inArray(testCases.file, files))
      .all()
      .map((row) => row.id);
    const deleteLines = this.sqlite.prepare(`DELETE FROM coverage_lines WHERE scope = 'test' AND test_id = ?`);
    const deleteFiles = this.sqlite.prepare(`DELETE FROM coverage_files WHERE scope = 'test' AND test_id = ?`);
    this.sqlite.transaction(() => {
      for (const id of ids) {
        deleteLines.run(id);
        deleteFiles.run(id);
      }
      this.db.delete(testCases).where(inArray(testCases.file, files)).run();
    })();
  }

  testCount(): number {
    return (this.sqlite.prepare(`SELECT count(*) AS n FROM test_cases`).get() as { n: number }).n;
  }

  hasCoverage(): boolean {
    return this.sqlite.prepare(`SELECT 1 FROM coverage_files LIMIT 1`).get() !== undefined;
  }

  /** Whether a test runner's coverage is stored (imported reports aside): the scheduler builds it when not. */
  hasRunnerCoverage(): boolean {
    return (
      this.sqlite.prepare(`SELECT 1 FROM coverage_files WHERE source NOT LIKE 'import:%' LIMIT 1`).get() !== undefined
    );
  }

  /** Whether coverage imported from a report (`coverage_import`) is stored. */
  hasImportedCoverage(): boolean {
    return this.sqlite.prepare(`SELECT 1 FROM coverage_files WHERE source LIKE 'import:%' LIMIT 1`).get() !== undefined;
  }

  testCase(id: string): StoredTestCase | undefined {
    return this.memoized('byId', () => new Map(this.allTests().map((test) => [test.test_id, test]))).get(id);
  }

  testsOfFile(file: string): StoredTestCase[] {
    const byFile = this.memoized('byFile', () => {
      const out = new Map<string, StoredTestCase[]>();
      for (const test of this.allTests()) {
        const list = out.get(test.file);
        if (list) list.push(test);
        else out.set(test.file, [test]);
      }
      return out;
    });
    return [...(byFile.get(file) ?? [])];
  }

  /** Every stored test case (a shared array: callers read it, never change it). */
  allTests(): readonly StoredTestCase[] {
    return this.memoized('all', () =>
      (
        this.sqlite
          .prepare(`SELECT test_id, runner, file, title, status, duration_ms, run_at FROM test_cases`)
          .all() as {
          test_id: string;
          runner: string;
          file: string;
          title: string;
          status: string;
          duration_ms: number;
          run_at: number;
        }[]
      ).map((row) => ({
        test_id: row.test_id,
        runner: row.runner,
        file: row.file,
        title_path: JSON.parse(row.title) as string[],
        status: row.status as StoredTestCase['status'],
        duration_ms: row.duration_ms,
        run_at: row.run_at,
      })),
    );
  }

  /** How many lines each test covered in all (small = a focused unit test). */
  coverageSizes(): ReadonlyMap<string, number> {
    return this.memoized('sizes', () => {
      const out = new Map<string, number>();
      for (const row of this.sqlite
        .prepare(`SELECT test_id, count(*) AS n FROM coverage_lines WHERE scope = 'test' GROUP BY test_id`)
        .iterate() as Iterable<{ test_id: string; n: number }>)
        out.set(row.test_id, row.n);
      return out;
    });
  }

  /** The hashes a file's coverage was taken at (usually one), with how many tests each. */
  coverageHashes(path: string): Map<string, number> {
    const out = new Map<string, number>();
    for (const row of this.db
      .select({ hash: coverageFiles.hash })
      .from(coverageFiles)
      .where(eq(coverageFiles.path, path))
      .all())
      out.set(row.hash, (out.get(row.hash) ?? 0) + 1);
    return out;
  }

  /** Tests (scope `test`) covering any of `lines` of `path`, with the lines each covers. */
  testsCoveringLines(path: string, lines: Iterable<number>): Map<string, number[]> {
    const wanted = [...new Set(lines)];
    const out = new Map<string, number[]>();
    if (!wanted.length) return out;
    // `+scope`: the (path, line) index answers; SQLite's planner would otherwise take the scope index and read every
    // test's lines (87 ms on express).
    const query = this.sqlite.prepare(
      `SELECT test_id, line FROM coverage_lines WHERE path = ? AND +scope = 'test' ` +
        `AND line IN (SELECT value FROM json_each(?))`,
    );
    for (const row of query.iterate(path, JSON.stringify(wanted)) as Iterable<{ test_id: string; line: number }>) {
      const list = out.get(row.test_id);
      if (list) list.push(row.line);
      else out.set(row.test_id, [row.line]);
    }
    return out;
  }

  /** Tests (scope `test`) covering any line in [start, end] of `path`. */
  testsCoveringRange(path: string, start: number, end: number): Map<string, number[]> {
    const out = new Map<string, number[]>();
    const query = this.sqlite.prepare(
      `SELECT test_id, line FROM coverage_lines WHERE path = ? AND +scope = 'test' AND line BETWEEN ? AND ?`,
    );
    for (const row of query.iterate(path, start, end) as Iterable<{ test_id: string; line: number }>) {
      const list = out.get(row.test_id);
      if (list) list.push(row.line);
      else out.set(row.test_id, [row.line]);
    }
    return out;
  }

  /** Lines of `path` that ran while test files loaded (import time), and which loads (test files, or `*`) ran them. */
  importTimeLines(path: string): Map<number, string[]> {
    const out = new Map<number, string[]>();
    for (const row of this.sqlite
      .prepare(`SELECT test_id, line FROM coverage_lines WHERE path = ? AND +scope = 'file'`)
      .iterate(path) as Iterable<{ test_id: string; line: number }>) {
      const list = out.get(row.line);
      if (list) list.push(row.test_id);
      else out.set(row.line, [row.test_id]);
    }
    return out;
  }

  /** Every covered line of `path` in [start, end] with the tests that ran it. */
  lineHits(path: string, start: number, end: number): LineHits[] {
    const byLine = new Map<number, LineHits>();
    const query = this.sqlite.prepare(
      `SELECT scope, test_id, line FROM coverage_lines WHERE path = ? AND line BETWEEN ? AND ? ORDER BY line, test_id`,
    );
    for (const row of query.iterate(path, start, end) as Iterable<{
      scope: CoverageScope;
      test_id: string;
      line: number;
    }>) {
      let hits = byLine.get(row.line);
      if (!hits) byLine.set(row.line, (hits = { line: row.line, tests: [], importTime: false }));
      if (row.scope === 'test') hits.tests.push(row.test_id);
      else hits.importTime = true;
    }
    return [...byLine.values()];
  }

  /** Files whose coverage was taken at a hash other than their content now, with the tests affected. */
  /**
   * A test's stored result while it is still true: every file its coverage touched (its own lines,
   * and its file's load) has the content it had when the test ran. Undefined when there is no
   * result, no coverage to judge it by, or a covered file changed since (it must run again).
   */
  freshResult(
    id: string,
  ): (StoredTestCase & { failure: { message: string; stack?: string } | null; covered: Set<string> }) | undefined {
    const row = this.db.select().from(testCases).where(eq(testCases.testId, id)).get();
    if (!row) return undefined;
    const covered = this.sqlite
      .prepare(
        `SELECT path, hash FROM coverage_files WHERE (scope = 'test' AND test_id ` +
          `= ?) OR (scope = 'file' AND test_id = ?)`,
      )
      .all(id, row.file) as { path: string; hash: string }[];
    if (covered.length === 0 || covered.some((c) => this.currentHash(c.path) !== c.hash)) return undefined;
    return {
      test_id: row.testId,
      runner: row.runner,
      file: row.file,
      title_path: JSON.parse(row.title) as string[],
      status: row.status,
      duration_ms: row.durationMs,
      run_at: row.runAt,
      failure: row.failure ? (JSON.parse(row.failure) as { message: string; stack?: string }) : null,
      covered: new Set(covered.map((c) => c.path)),
    };
  }

  staleFiles(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    // The (file, version) pairs first — a few dozen — and the tests only of those that changed.
    const versions = this.memoized(
      'versions',
      () =>
        this.sqlite.prepare(`SELECT DISTINCT path, hash FROM coverage_files`).all() as { path: string; hash: string }[],
    );
    const testsOf = this.sqlite.prepare(
      `SELECT DISTINCT test_id, scope FROM coverage_files WHERE path = ? AND hash = ?`,
    );
    for (const { path, hash } of versions) {
      if (this.currentHash(path) === hash) continue;
      const list = out.get(path) ?? [];
      for (const row of testsOf.iterate(path, hash) as Iterable<{ test_id: string; scope: string }>)
        list.push(row.scope === 'test' ? row.test_id : `load:${row.test_id}`);
      out.set(path, list);
    }
    return out;
  }
}
