import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RepositoryIndex } from './repository-index.js';
import type { FileParseErrors } from './store/index-store.js';

/** A file that did not parse and mentions a name: its definitions and references may be missing from the index. */
export interface UnparsedMention extends FileParseErrors {
  /** Whole-word occurrences of the name in the file's text. */
  mentions: number;
  /** 1-based line of the first one. */
  first_mention_line: number;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The indexed files that did not parse cleanly and whose text holds `name` as a whole word (for a
 * dotted name, its last part): a text search, since the index's facts of such a file are partial.
 */
export function unparsedFilesMentioning(index: RepositoryIndex, name: string): UnparsedMention[] {
  const word = name.split(/[.:]/).filter(Boolean).pop() ?? name;
  if (!word) return [];
  const pattern = new RegExp(`(?<![\\w$])${escape(word)}(?![\\w$])`, 'g');
  const found: UnparsedMention[] = [];
  for (const broken of index.parseErrors()) {
    let text: string;
    try {
      text = readFileSync(join(index.root, broken.path), 'utf8');
    } catch {
      continue;
    }
    const matches = [...text.matchAll(pattern)];
    if (matches.length === 0) continue;
    const firstLine = text.slice(0, matches[0]!.index).split('\n').length;
    found.push({ ...broken, mentions: matches.length, first_mention_line: firstLine });
  }
  return found;
}

/** One sentence per file for previews and impact answers. */
export function unparsedWarning(files: readonly UnparsedMention[], name: string): string | null {
  if (files.length === 0) return null;
  const listed = files
    .slice(0, 10)
    .map(
      (f) =>
        `${f.path} (syntax error at line ${f.first_line}:` +
        `${f.first_col + 1}; '${name}' on line ` +
        `${f.first_mention_line})`,
    );
  const more = files.length > 10 ? ` and ${files.length - 10} more` : '';
  return (
    `${files.length} file${files.length === 1 ? '' : 's'} mentioning '` +
    `${name}' did not parse: ${listed.join(', ')}` +
    `${more}. ` +
    'The index has only what it could read around the syntax error there, so references in them may be missing — ' +
    'fix the syntax and re-run.'
  );
}
