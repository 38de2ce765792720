import Database from 'better-sqlite3';
import type { RetrievalIndex } from '@agentgov/core';
import { codeText, definitionDocument } from './documents.js';

/** Column weights for bm25(): name, qualified name, signature, docstring, body, path. */
const DEF_WEIGHTS = [4, 2, 2, 1.5, 1, 1.5];
/** Column weights for bm25() over whole files: path, content. */
const FILE_WEIGHTS = [3, 1];

/**
 * An in-memory SQLite FTS5 database of per-definition and per-file documents built from one index
 * version. BM25 is SQLite's own `bm25()`; scores are negated so higher is better.
 */
export class LexicalStore {
  readonly #db: Database.Database;
  readonly #defUids: string[] = [];
  readonly #paths: string[] = [];
  readonly #searchDefs: Database.Statement;
  readonly #searchFiles: Database.Statement;

  constructor(index: RetrievalIndex) {
    this.#db = new Database(':memory:');
    this.#db.exec(`
      CREATE VIRTUAL TABLE defs USING fts5(name, qualified, signature, docstring, body, path, tokenize = 'porter unicode61');
      CREATE VIRTUAL TABLE files USING fts5(path, content, tokenize = 'porter unicode61');
    `);
    const insertDef = this.#db.prepare('INSERT INTO defs(rowid, name, qualified, signature, docstring, body, path) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const insertFile = this.#db.prepare('INSERT INTO files(rowid, path, content) VALUES (?, ?, ?)');
    const lines = new Map<string, string[]>();
    this.#db.transaction(() => {
      for (const path of index.files()) {
        const text = index.fileText(path);
        if (text === undefined) continue;
        lines.set(path, text.split('\n'));
        this.#paths.push(path);
        insertFile.run(this.#paths.length, codeText(path), codeText(text));
      }
      for (const def of index.definitions()) {
        const body = (lines.get(def.path) ?? []).slice(def.start_line - 1, def.end_line).join('\n');
        this.#defUids.push(def.def_uid);
        insertDef.run(this.#defUids.length, ...definitionDocument(def, body));
      }
    })();
    this.#searchDefs = this.#db.prepare(`SELECT rowid, -bm25(defs, ${DEF_WEIGHTS.join(', ')}) AS score FROM defs WHERE defs MATCH ? ORDER BY score DESC LIMIT ?`);
    this.#searchFiles = this.#db.prepare(`SELECT rowid, -bm25(files, ${FILE_WEIGHTS.join(', ')}) AS score FROM files WHERE files MATCH ? ORDER BY score DESC LIMIT ?`);
  }

  searchDefinitions(words: string[], limit: number): { def_uid: string; score: number }[] {
    const match = matchExpression(words);
    if (!match) return [];
    return (this.#searchDefs.all(match, limit) as { rowid: number; score: number }[]).map((row) => ({ def_uid: this.#defUids[row.rowid - 1] as string, score: row.score }));
  }

  searchFiles(words: string[], limit: number): { path: string; score: number }[] {
    const match = matchExpression(words);
    if (!match) return [];
    return (this.#searchFiles.all(match, limit) as { rowid: number; score: number }[]).map((row) => ({ path: this.#paths[row.rowid - 1] as string, score: row.score }));
  }

  close(): void {
    this.#db.close();
  }
}

/** An FTS5 OR-query of quoted words; quoting keeps FTS5 syntax characters inert. */
function matchExpression(words: string[]): string {
  return words
    .filter((w) => /^[a-z0-9]+$/.test(w))
    .map((w) => `"${w}"`)
    .join(' OR ');
}
