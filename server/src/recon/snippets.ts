import type { RetrievalIndex } from '@agentgov/core';
import type { RankedCandidate } from './fuse.js';

/** One returned span. The top half carries `snippet` (full code); the rest signature and docstring only. */
export interface ReconSpan {
  def_uid: string;
  path: string;
  name: string;
  qualified_name: string;
  kind: string;
  start_line: number;
  end_line: number;
  score: number;
  signature: string | null;
  docstring: string | null;
  snippet?: string;
  /** The retrievers that found it, best rank first. */
  found_by: string[];
  /** The retrievers' explanations (`term: name = evict`), best rank first, at most three. */
  why: string[];
}

export interface SnippetBudget {
  /** Total characters of code across all snippets. */
  maxChars: number;
  /** Lines of one snippet before it is shortened (the rest is elided with a marker). */
  maxLinesPerSnippet: number;
}

export const DEFAULT_SNIPPET_BUDGET: SnippetBudget = { maxChars: 24_000, maxLinesPerSnippet: 80 };

/**
 * Builds spans: full code for the top half, signature and docstring for the bottom half. When the
 * budget runs out, remaining top-half spans fall back to signature and docstring; the count is returned.
 */
export function buildSpans(
  kept: readonly RankedCandidate[],
  index: Pick<RetrievalIndex, 'fileText'>,
  budget: SnippetBudget = DEFAULT_SNIPPET_BUDGET,
): { spans: ReconSpan[]; downgraded: number; chars: number } {
  const full = Math.ceil(kept.length / 2);
  const lineCache = new Map<string, string[]>();
  let chars = 0;
  let downgraded = 0;
  const spans = kept.map((candidate, i) => {
    const { def } = candidate;
    const signals = Object.entries(candidate.signals).sort((a, b) => a[1].rank - b[1].rank);
    const span: ReconSpan = {
      def_uid: def.def_uid,
      path: def.path,
      name: def.name,
      qualified_name: def.qualified_name,
      kind: def.kind,
      start_line: def.start_line,
      end_line: def.end_line,
      score: Math.round(candidate.score * 10_000) / 10_000,
      signature: def.signature,
      docstring: def.docstring,
      found_by: signals.map(([name]) => name),
      why: signals
        .slice(0, 3)
        .map(([name, signal]) => (signal.why && signal.why !== `file ${def.path}` ? `${name}: ${signal.why}` : name)),
    };
    if (candidate.demoted) span.why.push(`demoted: ${candidate.demoted}`);
    if (candidate.scoped) span.why.push(`scope: ${candidate.scoped}`);
    if (i >= full) return span;
    const snippet = readSnippet(def.path, def.start_line, def.end_line, index, lineCache, budget.maxLinesPerSnippet);
    if (snippet === undefined) return span;
    if (chars + snippet.length > budget.maxChars) {
      downgraded += 1;
      return span;
    }
    chars += snippet.length;
    span.snippet = snippet;
    return span;
  });
  return { spans, downgraded, chars };
}

function readSnippet(
  path: string,
  start: number,
  end: number,
  index: Pick<RetrievalIndex, 'fileText'>,
  cache: Map<string, string[]>,
  maxLines: number,
): string | undefined {
  let lines = cache.get(path);
  if (!lines) {
    const text = index.fileText(path);
    if (text === undefined) return undefined;
    lines = text.split('\n');
    cache.set(path, lines);
  }
  const body = lines.slice(start - 1, end);
  if (body.length <= maxLines) return body.join('\n');
  const head = body.slice(0, maxLines - 1);
  return `${head.join('\n')}\n… (${body.length - head.length} more lines, ${path}:${start + head.length}-${end})`;
}
