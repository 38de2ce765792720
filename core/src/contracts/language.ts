/**
 * A language pack: a tree-sitter grammar and the queries that extract definitions,
 * references and imports. The server's indexer owns the extraction semantics.
 */
export interface LanguagePack {
  name: string;
  /** File extensions including the dot, e.g. `.ts`. */
  extensions: string[];
  /** A tree-sitter `Language` object (from the grammar package). */
  grammar: unknown;
  /** Free-form extraction data the indexer understands (queries, node kinds). */
  extract: unknown;
}
