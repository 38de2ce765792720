import type { SourceSpan } from './language.js';

/** A tree-sitter position (0-based row and column), structurally; core does not load tree-sitter. */
export interface SourcePoint {
  row: number;
  column: number;
}

/** The span between two tree-sitter positions: lines 1-based, columns 0-based. */
export function spanBetween(start: SourcePoint, end: SourcePoint): SourceSpan {
  return { startLine: start.row + 1, startCol: start.column, endLine: end.row + 1, endCol: end.column };
}

/** An identifier never spans lines: its end follows from its start, saving a native call per token. */
export function tokenSpan(start: SourcePoint, length: number): SourceSpan {
  return { startLine: start.row + 1, startCol: start.column, endLine: start.row + 1, endCol: start.column + length };
}

/** A signature on one line: whitespace runs collapsed, cut at `max` characters with an ellipsis. */
export function oneLine(text: string, max = 300): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
