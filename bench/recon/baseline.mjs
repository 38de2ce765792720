// The two baselines, both SQLite FTS5 bm25() over whole files:
//  - plain: unicode61 tokens of path + content, equal weights;
//  - path-boosted (the stronger one): identifiers split (camelCase/snake_case), porter stemming,
//    path tokens weighted 5× the content.
import Database from 'better-sqlite3';
import { readText } from './trees.mjs';

const split = (text) =>
  text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .toLowerCase();
const raw = (text) => text.toLowerCase().replace(/[^a-z0-9]+/g, ' ');

export class FileBm25 {
  constructor(dir, files) {
    this.paths = files;
    this.db = new Database(':memory:');
    this.db.exec("CREATE VIRTUAL TABLE plain USING fts5(path, content, tokenize = 'unicode61')");
    this.db.exec("CREATE VIRTUAL TABLE boosted USING fts5(path, content, tokenize = 'porter unicode61')");
    const insertPlain = this.db.prepare('INSERT INTO plain(rowid, path, content) VALUES (?, ?, ?)');
    const insertBoosted = this.db.prepare('INSERT INTO boosted(rowid, path, content) VALUES (?, ?, ?)');
    this.db.transaction(() =>
      files.forEach((f, i) => {
        const text = readText(dir, f);
        insertPlain.run(i + 1, split(f), text);
        insertBoosted.run(i + 1, split(f), split(text));
      }),
    )();
    this.plain = this.db.prepare('SELECT rowid FROM plain WHERE plain MATCH ? ORDER BY bm25(plain, 1.0, 1.0) LIMIT ?');
    this.boosted = this.db.prepare(
      'SELECT rowid FROM boosted WHERE boosted MATCH ? ORDER BY bm25(boosted, 5.0, 1.0) LIMIT ?',
    );
  }

  /** Ranked file paths for a task with the plain (false) or path-boosted (true) baseline. */
  rank(task, boostPaths, limit = 50) {
    const terms = [
      ...new Set(
        (boostPaths ? split : raw)(task)
          .split(' ')
          .filter((w) => w.length >= 2),
      ),
    ];
    if (terms.length === 0) return [];
    const match = terms.map((t) => `"${t}"`).join(' OR ');
    return (boostPaths ? this.boosted : this.plain).all(match, limit).map((r) => this.paths[r.rowid - 1]);
  }

  close() {
    this.db.close();
  }
}
