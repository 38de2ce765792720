import { hash } from 'node:crypto';
import { extname } from 'node:path';
import { createRequire } from 'node:module';
import type { ExtractedFacts, ExtractedImport, ExtractedReference, LanguagePack } from '@agentgov/core/contracts';
// Not the package's index: this module is an index worker's, and the index loads all of core (~250 ms of CPU).
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import { FlatTree, FlatTreeParser } from '@agentgov/flat-tree';
import type Parser from 'tree-sitter';
import type { Definition, DefUid } from './types.js';

/** The thread's one tree-sitter runtime (see sharedTreeSitter): this package's copy when it loads first. */
const TreeSitter = sharedTreeSitter(() => createRequire(import.meta.url)('tree-sitter') as typeof Parser);

/** Everything one file yields before cross-file resolution. */
export interface FileFacts {
  language: string;
  definitions: Definition[];
  /** Unresolved: `enclosing` is a qualified name within the file. */
  references: ExtractedReference[];
  imports: ExtractedImport[];
  localExports: ExtractedFacts['localExports'];
  /** Default-exported definitions (ES). */
  defaultExports: DefUid[];
  /** Identifiers per definition, for search documents. */
  bodyIdentifiers: Map<DefUid, string[]>;
  /** Where the parser met syntax it could not read; null when the file parsed cleanly. */
  parseErrors: ParseErrors | null;
}

/**
 * A file that did not parse cleanly: tree-sitter's error nodes (text it skipped) and missing nodes
 * (tokens it assumed), and the first of them. Its facts come from the partial tree: definitions
 * inside or after the broken region may be missing.
 */
export interface ParseErrors {
  errors: number;
  missing: number;
  /** 1-based line, 0-based column (UTF-16) of the first error or missing node. */
  first_line: number;
  first_col: number;
}

/** Counts the error and missing nodes of a tree, stepping only into subtrees that hold one. */
export function parseErrorsOf(tree: Parser.Tree): ParseErrors | null {
  const root = tree.rootNode;
  if (!root.hasError) return null;
  let errors = 0;
  let missing = 0;
  let first: Parser.Point | null = null;
  const cursor = root.walk();
  const visit = (): void => {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) {
      if (node.isError) errors += 1;
      else missing += 1;
      first ??= node.startPosition;
    }
    if (node.hasError && !node.isMissing && cursor.gotoFirstChild()) {
      do visit();
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
  };
  visit();
  // node-tree-sitter parses the JS string as UTF-16: its columns are code units, as the index's
  const at: Parser.Point = first ?? root.startPosition;
  return { errors, missing, first_line: at.row + 1, first_col: at.column };
}

/** One-shot (`crypto.hash`): ~7× cheaper than a `createHash` object per call, and the index hashes every definition. */
export function sha1(text: string): string {
  return hash('sha1', text, 'hex');
}

/** path + kind + qualified name (+ ordinal among duplicates): never line numbers, so edits elsewhere keep it. */
export function defUidOf(path: string, kind: string, qualifiedName: string, ordinal: number): DefUid {
  return sha1(`${path}\0${kind}\0${qualifiedName}\0${ordinal}`).slice(0, 16);
}

export function languageFor(path: string, languages: readonly LanguagePack[]): LanguagePack | undefined {
  const extension = extname(path).toLowerCase();
  return languages.find((pack) => pack.extensions.includes(extension));
}

const parsers = new WeakMap<object, Parser>();

function parserFor(pack: LanguagePack): Parser {
  const grammar = pack.grammar as object;
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new TreeSitter();
    parser.setLanguage(pack.grammar as Parser.Language);
    parsers.set(grammar, parser);
  }
  return parser;
}

/** tree-sitter's default buffer is too small for large sources; size it to the file. */
function parse(parser: Parser, content: string): Parser.Tree {
  return parser.parse(content, undefined, { bufferSize: Math.max(32 * 1024, content.length * 2 + 1024) });
}

/**
 * The thread's native parse-and-walk (@agentgov/flat-tree): null when `AGENTGOV_NATIVE_PARSE=0` turns it off (to
 * compare, or to rule it out when facts look wrong), the reason where its addon did not load. Either way
 * node-tree-sitter parses, with the same facts at a higher cost (every node a call into the runtime).
 */
const nativeParse: FlatTreeParser | Error | null =
  process.env['AGENTGOV_NATIVE_PARSE'] === '0' ? null : FlatTreeParser.load();
const flatParser = nativeParse instanceof FlatTreeParser ? nativeParse : null;

/** Whether extraction parses natively, and if not why: turned off, or the addon did not load. */
export function nativeParseState(): { state: 'on' } | { state: 'off' } | { state: 'unavailable'; reason: string } {
  if (nativeParse === null) return { state: 'off' };
  return nativeParse instanceof Error
    ? { state: 'unavailable', reason: nativeParse.message.split('\n')[0]! }
    : { state: 'on' };
}

/**
 * A file's syntax tree for its language pack: a `FlatTree` (read through the node-tree-sitter API a
 * pack's walker uses) for a pack that reads one (`flatTree`) when the addon loads, else node-tree-sitter's own.
 */
export function parseForExtraction(pack: LanguagePack, content: string): Parser.Tree | FlatTree {
  return flatParser && pack.flatTree
    ? flatParser.parse(pack.grammar as object, content)
    : parse(parserFor(pack), content);
}

/**
 * Parses one file and returns its facts with def_uids and body hashes. Pure (no index, no disk):
 * semantic_diff runs it on git blobs. Returns null when no language pack handles the path.
 */
export function extractFile(path: string, content: string, languages: readonly LanguagePack[]): FileFacts | null {
  const pack = languageFor(path, languages);
  if (!pack) return null;
  const tree = parseForExtraction(pack, content);
  let facts: ExtractedFacts;
  let parseErrors: ParseErrors | null;
  try {
    facts = pack.extract(tree as Parser.Tree, content);
    parseErrors = parseErrorsOf(tree as Parser.Tree);
  } finally {
    // its memory now, not at a later collection: a worker parsing fast would hold tens of MB of dead trees
    if (tree instanceof FlatTree) tree.dispose();
  }
  const seen = new Map<string, number>();
  const definitions: Definition[] = [];
  const defaultExports: DefUid[] = [];
  const bodyIdentifiers = new Map<DefUid, string[]>();
  for (const def of facts.definitions) {
    const key = `${def.kind}\0${def.qualifiedName}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    const uid = defUidOf(path, def.kind, def.qualifiedName, ordinal);
    definitions.push({
      def_uid: uid,
      path,
      kind: def.kind,
      name: def.name,
      qualified_name: def.qualifiedName,
      start_line: def.span.startLine,
      start_col: def.span.startCol,
      end_line: def.span.endLine,
      end_col: def.span.endCol,
      name_line: def.nameSpan.startLine,
      name_col: def.nameSpan.startCol,
      signature: def.signature,
      docstring: def.docstring,
      body_hash: sha1(def.text).slice(0, 16),
      exported: def.exported,
    });
    if (def.isDefault) defaultExports.push(uid);
    bodyIdentifiers.set(uid, def.bodyIdentifiers);
  }
  return {
    language: pack.name,
    definitions,
    references: facts.references,
    imports: facts.imports,
    localExports: facts.localExports,
    defaultExports,
    bodyIdentifiers,
    parseErrors,
  };
}
