import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { RetrievalDefinition, RetrievalIndex } from '@agentgov/core';
import { codeText, definitionDocument } from './documents.js';

/** Column weights for bm25(): name, qualified name, signature, docstring, body, path. */
const DEF_WEIGHTS = [4, 2, 2, 1.5, 1, 1.5];
/** Column weights for bm25() over whole files: path, content. */
const FILE_WEIGHTS = [3, 1];

/** Bumped whenever the documents or tables change: a persisted store of another format is rebuilt. */
const FORMAT = 1;
const PREFIX = 'lexical-';

/**
 * A SQLite FTS5 database of per-definition and per-file documents built from one index version.
 * BM25 is SQLite's own `bm25()`; scores are negated so higher is better. When the index offers a
 * cache directory it lives there, named after the content key, so a restarted server opens it
 * instead of reading and tokenizing every file again, and its pages stay on disk rather than in the
 * process's memory; otherwise in memory.
 */
export class LexicalStore {
  readonly #db: Database.Database;
  /** A definition document's uid by rowid (a query has a few hundred hits: asked of the store, not all kept). */
  readonly #defUidOf: Database.Statement;
  readonly #paths: string[] = [];
  readonly #searchDefs: Database.Statement;
  readonly #searchFiles: Database.Statement;
  readonly #filesWith: Database.Statement;
  /** True when an earlier process's store was opened rather than built. */
  readonly reused: boolean;

  constructor(index: RetrievalIndex) {
    const cache = index.cache;
    const file = cache ? join(cache.dir, `${PREFIX}${FORMAT}-${cache.key}.db`) : null;
    let db = file && existsSync(file) ? openBuilt(file) : null;
    this.reused = db !== null;
    if (!db && (!file || !cache)) {
      db = new Database(':memory:');
      this.#build(db, index);
    } else if (!db && file && cache) {
      mkdirSync(cache.dir, { recursive: true });
      // Built under a name of its own, renamed when complete: a crash leaves no half store behind.
      const building = `${file}.${process.pid}.tmp`;
      rmSync(building, { force: true });
      const writing = new Database(building);
      writing.pragma('journal_mode = OFF');
      writing.pragma('synchronous = OFF');
      try {
        const build = () => this.#build(writing, index);
        if (cache.build) cache.build(build);
        else build();
      } finally {
        writing.close();
      }
      renameSync(building, file);
      for (const name of readdirSync(cache.dir))
        if (name.startsWith(PREFIX) && join(cache.dir, name) !== file && !name.endsWith('.tmp'))
          rmSync(join(cache.dir, name), { force: true });
      db = openBuilt(file);
      if (!db) throw new Error(`lexical store ${file} was written but does not open`);
    } else if (db) {
      for (const path of db.prepare('SELECT path FROM file_ids WHERE rowid > 0 ORDER BY rowid').pluck().iterate())
        this.#paths.push(path as string);
    }
    this.#db = db!;
    this.#searchDefs = this.#db.prepare(
      `SELECT rowid, -bm25(defs, ${DEF_WEIGHTS.join(', ')}) AS score FROM defs ` +
        `WHERE defs MATCH ? ORDER BY score DESC LIMIT ?`,
    );
    this.#searchFiles = this.#db.prepare(
      `SELECT rowid, -bm25(files, ${FILE_WEIGHTS.join(', ')}) AS score FROM files ` +
        `WHERE files MATCH ? ORDER BY score DESC LIMIT ?`,
    );
    this.#filesWith = this.#db.prepare('SELECT rowid FROM files WHERE files MATCH ?').pluck();
    this.#defUidOf = this.#db.prepare('SELECT def_uid FROM def_ids WHERE rowid = ?').pluck();
  }

  /** Fills an empty database with every document; `def_ids` and `#paths` map rowids back. */
  #build(db: Database.Database, index: RetrievalIndex): void {
    db.exec(
      `
      CREATE VIRTUAL TABLE defs USING fts5(name, qualified, signature, docstring, ` +
        `body, path, tokenize = 'porter unicode61');
      CREATE VIRTUAL TABLE files USING fts5(path, content, tokenize = 'porter ` +
        `unicode61');
      CREATE TABLE def_ids (rowid INTEGER PRIMARY KEY, def_uid TEXT NOT ` +
        `NULL);
      CREATE TABLE file_ids (rowid INTEGER PRIMARY KEY, path TEXT NOT NULL);
    `,
    );
    const insertDef = db.prepare(
      'INSERT INTO defs(rowid, name, qualified, signature, docstring, body, path) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const insertFile = db.prepare('INSERT INTO files(rowid, path, content) VALUES (?, ?, ?)');
    const insertDefId = db.prepare('INSERT INTO def_ids(rowid, def_uid) VALUES (?, ?)');
    const insertFileId = db.prepare('INSERT INTO file_ids(rowid, path) VALUES (?, ?)');
    // Identifiers repeat across a repository: split each distinct one once.
    const words = new Map<string, string>();
    // Definitions are numbered file by file in the order `definitions()` first names each file, after
    // every file document, exactly as when all texts were read first; each file's text is now split
    // into lines once, its definitions written, and let go (neither the whole repository nor every
    // definition is held: a file's definitions are asked for when its text is written).
    const counts = new Map<string, number>();
    for (const def of index.definitions()) counts.set(def.path, (counts.get(def.path) ?? 0) + 1);
    const firstRowid = new Map<string, number>();
    let total = 0;
    for (const [path, count] of counts) {
      firstRowid.set(path, total + 1);
      total += count;
    }
    // `lineWords`: each line of the file as code text. A token never spans lines, so a text's code text is its lines'
    // (the non-empty ones) joined by spaces: each line is split once, for the file's document and its owner's body.
    const writeDefs = (path: string, lineWords: string[]) => {
      const first = firstRowid.get(path);
      if (first === undefined) return;
      firstRowid.delete(path);
      const defs = index.definitionsIn(path);
      if (defs.length !== counts.get(path))
        throw new Error(`${path}: ${defs.length} definitions by file, ${counts.get(path)} in the listing`);
      const owned = ownLines(lineWords.length, defs);
      defs.forEach((def, i) => {
        const body = joinWords((owned[i] ?? []).map((line) => lineWords[line] ?? ''));
        insertDef.run(first + i, ...definitionDocument(def, body, words, { bodyIsCodeText: true }));
        insertDefId.run(first + i, def.def_uid);
      });
    };
    db.transaction(() => {
      for (const path of index.files()) {
        const text = index.fileText(path, { cache: false });
        if (text === undefined) continue;
        const lineWords = text.split('\n').map((line) => codeText(line, words));
        this.#paths.push(path);
        insertFile.run(this.#paths.length, codeText(path, words), joinWords(lineWords));
        insertFileId.run(this.#paths.length, path);
        writeDefs(path, lineWords);
      }
      for (const path of [...firstRowid.keys()]) writeDefs(path, []);
      db.exec(`INSERT INTO file_ids(rowid, path) VALUES (0, '')`); // written last: the store is complete
    })();
  }

  #lastDefs: { key: string; hits: { def_uid: string; score: number }[] } | undefined;

  /** Both lexical retrievers ask the same question in one recon call: the last answer is kept. */
  searchDefinitions(words: string[], limit: number): { def_uid: string; score: number }[] {
    const match = matchExpression(words);
    if (!match) return [];
    const key = `${limit}\0${match}`;
    if (this.#lastDefs?.key === key) return this.#lastDefs.hits;
    const hits = this.#searchDefinitions(match, limit);
    this.#lastDefs = { key, hits };
    return hits;
  }

  #searchDefinitions(match: string, limit: number): { def_uid: string; score: number }[] {
    return (this.#searchDefs.all(match, limit) as { rowid: number; score: number }[]).map((row) => ({
      def_uid: this.#defUidOf.get(row.rowid) as string,
      score: row.score,
    }));
  }

  searchFiles(words: string[], limit: number): { path: string; score: number }[] {
    const match = matchExpression(words);
    if (!match) return [];
    return (this.#searchFiles.all(match, limit) as { rowid: number; score: number }[]).map((row) => ({
      path: this.#paths[row.rowid - 1] as string,
      score: row.score,
    }));
  }

  /**
   * Every file whose content has all of `words` (lower-case, as `codeText` splits them; unstemmed): the files that may
   * contain a literal made of those words, to be checked as written.
   */
  filesWithAll(words: string[]): string[] {
    const plain = [...new Set(words)].filter((w) => /^[a-z0-9]+$/.test(w));
    if (plain.length === 0) return [];
    const match = `content : (${plain.map((w) => `"${w}"`).join(' AND ')})`;
    return (this.#filesWith.all(match) as number[]).map((rowid) => this.#paths[rowid - 1] as string);
  }

  close(): void {
    this.#db.close();
  }
}

/** A complete persisted store (its marker row is written last, in the build's transaction), or null. */
function openBuilt(file: string): Database.Database | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    if (db.prepare('SELECT count(*) FROM file_ids WHERE rowid = 0').pluck().get() === 1) return db;
    db.close();
  } catch {
    // unreadable or from an interrupted build: rebuilt
  }
  rmSync(file, { force: true });
  return null;
}

/**
 * Each definition's own lines, as 0-based line numbers in order: a line belongs to the innermost definition spanning
 * it, so a class document holds its fields and docstring but not its methods' bodies (they are documents of their own).
 */
export function ownLines(lineCount: number, defs: RetrievalDefinition[]): number[][] {
  const owner = new Int32Array(lineCount).fill(-1);
  const order = defs.map((d, i) => i).sort((a, b) => spanOf(defs[b]) - spanOf(defs[a]));
  for (const i of order) {
    const def = defs[i] as RetrievalDefinition;
    for (let line = Math.max(1, def.start_line); line <= Math.min(lineCount, def.end_line); line += 1)
      owner[line - 1] = i;
  }
  const own: number[][] = defs.map(() => []);
  owner.forEach((i, line) => {
    if (i >= 0) own[i]?.push(line);
  });
  return own;
}

/** Code texts joined as `codeText` joins a text's words: one space between, none for an empty one. */
function joinWords(parts: string[]): string {
  return parts.filter((part) => part !== '').join(' ');
}

function spanOf(def: RetrievalDefinition | undefined): number {
  return def ? def.end_line - def.start_line : 0;
}

/** An FTS5 OR-query of quoted words; quoting keeps FTS5 syntax characters inert. */
function matchExpression(words: string[]): string {
  return words
    .filter((w) => /^[a-z0-9]+$/.test(w))
    .map((w) => `"${w}"`)
    .join(' OR ');
}
