import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError } from '@agentgov/core';
import type { UnparsedMention } from '../index/parse-health.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import type { Definition, Reference } from '../index/types.js';
import { nearestNames } from './nearest-names.js';
import { retrievalIndexOf } from './retrieval-index.js';

export type Certainty = 'high' | 'medium' | 'low';

/** What the language services added to a symbol's impact, or why they added nothing. */
export interface TypeAwareReport {
  engine: string;
  /** `complete`: its references are in the answer; `deadline`/`failed`: the answer is the index's alone. */
  status: 'complete' | 'deadline' | 'failed';
  /** Definitions of the symbol it searched from. */
  definitions: number;
  /** References it found (the declarations themselves not counted). */
  references: number;
  /** Of those, references the index had not resolved to the symbol (now `high`) or had not listed at all. */
  confirmed: number;
  added: number;
  ms: number;
  note?: string;
}

export interface ImpactReference {
  path: string;
  line: number;
  column: number;
  match_text: string;
  certainty: Certainty;
  context: string;
  /** Set when a language service found this reference (type-aware, `high`). */
  by?: 'language-service' | 'receiver-type';
}

export interface ImpactResult {
  target: string;
  target_kind: 'symbol' | 'file';
  definitions: { def_uid: string; path: string; line: number; kind: string; qualified_name: string }[];
  references: ImpactReference[];
  importers?: { path: string; line: number; specifier: string }[];
  counts: Record<Certainty, number>;
  /** Symbols in languages with a reference-finding engine: what each engine added, or why nothing. */
  type_aware?: TypeAwareReport[];
  /** Files that did not parse and mention the target: references there may be missing (parse health). */
  unparsed_files?: UnparsedMention[];
  /** Set with `unparsed_files`: what that means for the answer. */
  note?: string;
}

const MAX_MATCH_TEXT = 200;

/** Lines of files, read once per call. */
export class LineReader {
  readonly #cache = new Map<string, string[]>();
  constructor(private readonly root: string) {}
  line(path: string, line: number): string {
    let lines = this.#cache.get(path);
    if (!lines) {
      try {
        lines = readFileSync(join(this.root, path), 'utf8').split('\n');
      } catch {
        lines = [];
      }
      this.#cache.set(path, lines);
    }
    return (lines[line - 1] ?? '').trim().slice(0, MAX_MATCH_TEXT);
  }
}

/** Definitions a symbol names: its bare name, or a qualified name such as `Parser.parse`. */
export function definitionsOf(index: RepositoryIndex, symbol: string): Definition[] {
  if (symbol.includes('.')) {
    const qualified = index.definitions({ qualifiedName: symbol });
    if (qualified.length > 0) return qualified;
  }
  return index.definitions({ name: symbol.split('.').pop() ?? symbol });
}

/**
 * References to a symbol: `high` when scope or imports resolve them to one of its definitions,
 * `medium` when only the name matches (unresolved code use), `low` in comments and strings.
 */
export function symbolImpact(index: RepositoryIndex, symbol: string, includeComments: boolean): ImpactResult {
  const defs = definitionsOf(index, symbol);
  if (defs.length === 0) {
    const bare = symbol.split('.').pop() ?? symbol;
    const nearest = nearestNames([bare], retrievalIndexOf(index))[bare] ?? [];
    const remediation =
      `No definition is named '${symbol}'` +
      (nearest.length ? `; the nearest names defined here: ${nearest.join(', ')}` : '') +
      '. ' +
      ('Pass a defined name (recon finds it from a description), a qualified one ' +
        '(Class.method), or a repository-relative file path.');
    throw new AgentgovError(
      'E_NOT_FOUND',
      `no definition named '${symbol}' in the index`,
      { target: symbol, nearest },
      { remediation },
    );
  }
  const uids = new Set(defs.map((d) => d.def_uid));
  const name = defs[0]?.name ?? symbol;
  const reader = new LineReader(index.root);
  const seen = new Set<string>();
  const references: ImpactReference[] = [];
  const add = (ref: Reference, certainty: Certainty) => {
    const key = `${ref.path}:${ref.start_line}:${ref.start_col}`;
    if (seen.has(key)) return;
    seen.add(key);
    references.push({
      path: ref.path,
      line: ref.start_line,
      column: ref.start_col,
      match_text: reader.line(ref.path, ref.start_line),
      certainty,
      context: ref.context,
    });
  };
  const classify = (ref: Reference) => {
    // A mention in a comment or string is never code, however the index resolved its name.
    if (ref.context === 'comment' || ref.context === 'string') {
      if (includeComments) add(ref, 'low');
    } else if (ref.to_def_uid !== null && uids.has(ref.to_def_uid)) add(ref, 'high');
    else if (ref.to_def_uid === null) add(ref, 'medium');
  };
  for (const uid of uids) for (const ref of index.references({ toDefUid: uid })) classify(ref);
  for (const ref of index.references({ name })) classify(ref);
  references.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  return {
    target: symbol,
    target_kind: 'symbol',
    definitions: defs.map((d) => ({
      def_uid: d.def_uid,
      path: d.path,
      line: d.start_line,
      kind: d.kind,
      qualified_name: d.qualified_name,
    })),
    references,
    counts: countByCertainty(references),
  };
}

/** A file's importers, each import statement a high-certainty reference. */
export function fileImpact(index: RepositoryIndex, path: string): ImpactResult {
  if (!index.files().some((f) => f.path === path)) {
    const remediation =
      `'${path}' is not a file the index parsed (it does not exist, or no language ` +
      `pack reads it): pass the repository-relative path of a source file, or a ` +
      `symbol name.`;
    throw new AgentgovError('E_NOT_FOUND', `'${path}' is not an indexed file`, { target: path }, { remediation });
  }
  const reader = new LineReader(index.root);
  const importers = index
    .importers(path)
    .map((edge) => ({ path: edge.from_path, line: edge.line, specifier: edge.specifier }));
  const references: ImpactReference[] = importers.map((i) => ({
    path: i.path,
    line: i.line,
    column: 0,
    match_text: reader.line(i.path, i.line),
    certainty: 'high',
    context: 'import',
  }));
  return {
    target: path,
    target_kind: 'file',
    definitions: [],
    references,
    importers,
    counts: countByCertainty(references),
  };
}

export function countByCertainty(references: ImpactReference[]): Record<Certainty, number> {
  const counts: Record<Certainty, number> = { high: 0, medium: 0, low: 0 };
  for (const r of references) counts[r.certainty] += 1;
  return counts;
}
