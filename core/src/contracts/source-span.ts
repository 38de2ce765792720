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

/**
 * Rows and columns from string offsets, without asking tree-sitter (a native call per token).
 * tree-sitter's Node binding parses the JS string as UTF-16, so a column is the offset from the
 * row's start in UTF-16 code units and only `\n` starts a row: exactly what this computes.
 */
export class LineIndex {
  readonly #source: string;
  #starts: number[] | null = null;
  #row = 0;

  constructor(source: string) {
    this.#source = source;
  }

  point(index: number): SourcePoint {
    const starts = (this.#starts ??= this.#lineStarts());
    let row = this.#row;
    // Walks visit tokens in document order: the last row, or the next, is nearly always it.
    if (!(starts[row]! <= index && (row + 1 >= starts.length || index < starts[row + 1]!))) {
      let low = 0;
      let high = starts.length - 1;
      while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid]! <= index) low = mid;
        else high = mid - 1;
      }
      row = this.#row = low;
    }
    return { row, column: index - starts[row]! };
  }

  #lineStarts(): number[] {
    const starts = [0];
    for (let at = this.#source.indexOf('\n'); at !== -1; at = this.#source.indexOf('\n', at + 1)) starts.push(at + 1);
    return starts;
  }
}

/** Lines a definition spans, 1-based and inclusive, as the index stores them. */
export interface LineRange {
  start_line: number;
  end_line: number;
}

/** The range of fewest lines holding `line` — the innermost enclosing definition; the first such on a tie. */
export function innermostRange<T extends LineRange>(ranges: Iterable<T>, line: number): T | undefined {
  let best: T | undefined;
  for (const range of ranges)
    if (range.start_line <= line && line <= range.end_line)
      if (!best || range.end_line - range.start_line < best.end_line - best.start_line) best = range;
  return best;
}

/** The range of most lines; the first such on a tie. */
export function largestRange<T extends LineRange>(ranges: Iterable<T>): T | undefined {
  let best: T | undefined;
  for (const range of ranges)
    if (!best || range.end_line - range.start_line > best.end_line - best.start_line) best = range;
  return best;
}
