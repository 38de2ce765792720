import { budgetChars, jsonCost, pageWithinBudget, type Page } from '../tools/answer-budget.js';
import type { Certainty, ImpactReference, ImpactResult } from './impact.js';

/** One file's references, counted by certainty. */
export interface ImpactFile {
  path: string;
  references: number;
  high: number;
  medium: number;
  low: number;
}

/**
 * What `recon_impact` answers, shaped to a budget: every count, the files with references grouped and
 * counted (as many as fit half the budget), then one page of the references themselves, file by file.
 */
export interface ImpactAnswer {
  target: string;
  target_kind: 'symbol' | 'file';
  definitions: ImpactResult['definitions'];
  /** Definitions the symbol has beyond the ones listed. */
  definitions_omitted?: number;
  /** Every reference, per certainty. */
  counts: Record<Certainty, number>;
  /** Files with references: those with resolved (high) references first, then by count and path. */
  files: ImpactFile[];
  /** Files with references beyond the ones listed in `files`. */
  files_omitted: number;
  /** One page of the references, in the order of `files`, each file's by line. */
  references: ImpactReference[];
  /** File targets: the import statements of the page's references. */
  importers?: ImpactResult['importers'];
  page: Page;
  type_aware?: ImpactResult['type_aware'];
}

export interface ImpactAnswerOptions {
  budgetTokens: number;
  offset: number;
  limit: number | null;
}

/** Definitions listed at most; a name defined more often is better asked for by qualified name. */
const MAX_DEFINITIONS = 20;

/** Groups references by file (ordered as `ImpactAnswer.files` says) and counts them. */
export function groupByFile(references: readonly ImpactReference[]): {
  files: ImpactFile[];
  ordered: ImpactReference[];
} {
  const byPath = new Map<string, ImpactReference[]>();
  for (const ref of references) (byPath.get(ref.path) ?? byPath.set(ref.path, []).get(ref.path)!).push(ref);
  const files = [...byPath.entries()].map(([path, refs]) => {
    const file: ImpactFile = { path, references: refs.length, high: 0, medium: 0, low: 0 };
    for (const ref of refs) file[ref.certainty] += 1;
    return file;
  });
  files.sort((a, b) => b.high - a.high || b.references - a.references || a.path.localeCompare(b.path));
  const ordered = files.flatMap((f) => [...byPath.get(f.path)!].sort((a, b) => a.line - b.line || a.column - b.column));
  return { files, ordered };
}

/** Shapes an impact result to the budget; returns the structured answer and the text the agent reads. */
export function shapeImpactAnswer(
  result: ImpactResult,
  options: ImpactAnswerOptions,
): { answer: ImpactAnswer; text: string } {
  const chars = budgetChars(options.budgetTokens);
  const { files, ordered } = groupByFile(result.references);
  const definitions = result.definitions.slice(0, MAX_DEFINITIONS);
  const definitionsOmitted = result.definitions.length - definitions.length;
  let reserved = jsonCost(definitions) + jsonCost(result.type_aware ?? []);
  // The file summary takes at most half of what is left, the page of references the rest.
  const listedFiles: ImpactFile[] = [];
  for (const file of files) {
    const cost = jsonCost(file);
    if (listedFiles.length > 0 && reserved + cost > chars / 2) break;
    listedFiles.push(file);
    reserved += cost;
  }
  const narrower =
    result.target_kind === 'symbol'
      ? `a qualified name (Class.method)${result.counts.low ? ', include_comments: false' : ''}, ` +
        `or recon_impact on one of the files`
      : 'recon_impact on a symbol the file defines';
  // A file target's reference is listed twice: as a reference and as its import statement in `importers`.
  const importerOf = new Map((result.importers ?? []).map((i) => [`${i.path}:${i.line}`, i]));
  const cost = (ref: ImpactReference): number =>
    jsonCost(ref) +
    (importerOf.has(`${ref.path}:${ref.line}`) ? jsonCost(importerOf.get(`${ref.path}:${ref.line}`)) : 0);
  const { items, page } = pageWithinBudget(ordered, {
    offset: options.offset,
    limit: options.limit,
    budgetTokens: options.budgetTokens,
    cost,
    reserved,
    noun: 'references',
    narrower,
  });
  const shownImports = new Set(items.map((r) => `${r.path}:${r.line}`));
  const answer: ImpactAnswer = {
    target: result.target,
    target_kind: result.target_kind,
    definitions,
    ...(definitionsOmitted > 0 ? { definitions_omitted: definitionsOmitted } : {}),
    counts: result.counts,
    files: listedFiles,
    files_omitted: files.length - listedFiles.length,
    references: items,
    ...(result.importers ? { importers: result.importers.filter((i) => shownImports.has(`${i.path}:${i.line}`)) } : {}),
    page,
    ...(result.type_aware ? { type_aware: result.type_aware } : {}),
  };
  return { answer, text: renderImpact(answer) };
}

export function renderImpact(a: ImpactAnswer): string {
  const total = a.counts.high + a.counts.medium + a.counts.low;
  const fileCount = a.files.length + a.files_omitted;
  const lines = [
    `${a.target} (${a.target_kind}): ${total} reference` +
      `${total === 1 ? '' : 's'} in ${fileCount} file` +
      `${fileCount === 1 ? '' : 's'} — high ` +
      `${a.counts.high}, medium ${a.counts.medium}, low ` +
      `${a.counts.low}`,
  ];
  if (a.definitions.length) {
    const total = a.definitions.length + (a.definitions_omitted ?? 0);
    lines.push(`definitions${a.definitions_omitted ? ` (${a.definitions.length} of ${total})` : ''}:`);
    for (const d of a.definitions) lines.push(`  ${d.path}:${d.line} ${d.kind} ${d.qualified_name}`);
  }
  for (const report of a.type_aware ?? []) {
    lines.push(
      `type-aware (${report.engine}): ${report.status}, ` +
        `${report.references} references, ${report.confirmed} confirmed, ` +
        `${report.added} added${report.note ? ` — ${report.note}` : ''}`,
    );
  }
  if (a.files.length) {
    lines.push(`files (references: high/medium/low)${a.files_omitted ? `, ${a.files.length} of ${fileCount}` : ''}:`);
    for (const f of a.files) lines.push(`  ${f.path} ${f.references} (${f.high}/${f.medium}/${f.low})`);
  }
  if (a.references.length) {
    lines.push(`references ${a.page.offset + 1}–${a.page.offset + a.page.shown} of ${a.page.total}:`);
    let path = '';
    for (const ref of a.references) {
      if (ref.path !== path) {
        path = ref.path;
        lines.push(path);
      }
      lines.push(
        `  ${ref.line}:${ref.column} ${ref.certainty}` +
          `${ref.by ? ` (${ref.by})` : ''} [${ref.context}] ` +
          `${ref.match_text}`,
      );
    }
  }
  if (a.page.more) lines.push(a.page.more);
  return lines.join('\n');
}
