import { AgentgovError, type EngineReference, type RefactorEngine } from '@agentgov/core';
import type { RepositoryIndex } from '../index/repository-index.js';
import type { RefactorService } from '../refactor/refactor-service.js';
import {
  countByCertainty,
  LineReader,
  type ImpactReference,
  type ImpactResult,
  type TypeAwareReport,
} from './impact.js';

/** Definitions of one symbol an engine searches from (each search bounded); more are left to the index. */
const MAX_DEFINITIONS_SEARCHED = 5;

type ReferenceFinder = RefactorEngine & Required<Pick<RefactorEngine, 'references'>>;

function hasReferences(engine: RefactorEngine | undefined): engine is ReferenceFinder {
  return typeof engine?.references === 'function';
}

/**
 * A symbol's impact with the references refactor engines find (`high`, `by: "language-service"`, or
 * `by: "receiver-type"` for a member access whose receiver the engine typed, Python): for each
 * definition in a language whose engine can search references,
 * the engine's search confirms the index's name matches it reaches and adds those the index missed.
 * The index's other name matches stay as they are. Each search may take `budgetMs` (an engine's
 * first call also loads its project, which is not bounded); when one runs over or an engine fails,
 * that engine adds nothing and `type_aware` says so.
 */
export async function withTypeAwareReferences(
  result: ImpactResult,
  index: RepositoryIndex,
  service: RefactorService,
  budgetMs: number,
): Promise<ImpactResult> {
  if (budgetMs <= 0 || result.target_kind !== 'symbol') return result;
  const byEngine = new Map<ReferenceFinder, ImpactResult['definitions']>();
  for (const def of result.definitions) {
    const engine = service.engineOf(def.path);
    if (!hasReferences(engine)) continue;
    byEngine.set(engine, [...(byEngine.get(engine) ?? []), def]);
  }
  if (byEngine.size === 0) return result;
  const reports: TypeAwareReport[] = [];
  const found: EngineReference[] = [];
  for (const [engine, defs] of byEngine) {
    const started = Date.now();
    const searched = Math.min(defs.length, MAX_DEFINITIONS_SEARCHED);
    const report: TypeAwareReport = {
      engine: engine.name,
      status: 'complete',
      definitions: searched,
      references: 0,
      confirmed: 0,
      added: 0,
      ms: 0,
    };
    if (searched < defs.length)
      report.note =
        `searched from ${searched} of the ${defs.length} definitions; the others' ` + `references are the index's`;
    const mine: EngineReference[] = [];
    try {
      for (const def of defs.slice(0, MAX_DEFINITIONS_SEARCHED)) {
        const stored = index.definition(def.def_uid);
        if (!stored) continue;
        const symbol = {
          path: stored.path,
          name: stored.name,
          qualifiedName: stored.qualified_name,
          kind: stored.kind,
          line: stored.name_line,
          col: stored.name_col,
        };
        const declaration = (ref: EngineReference) =>
          ref.path === stored.path && ref.span.startLine === stored.name_line && ref.span.startCol === stored.name_col;
        mine.push(
          ...(await engine.references(symbol, service.workspace, { timeoutMs: budgetMs })).filter(
            (ref) => !declaration(ref),
          ),
        );
      }
      found.push(...mine);
      report.references = mine.length;
    } catch (error) {
      const deadlinePassed = error instanceof AgentgovError && error.code === 'E_DEADLINE_EXCEEDED';
      report.status = deadlinePassed ? 'deadline' : 'failed';
      report.note = deadlinePassed
        ? `${engine.name} did not finish a search within ` +
          `${budgetMs} ms (server.impact.language_service_ms); these references are ` +
          `the index's alone`
        : `${engine.name} failed (${(error as Error).message}); these references are the index's alone`;
    }
    report.ms = Date.now() - started;
    reports.push(report);
  }
  const merged = mergeReferences(result.references, found, index);
  for (const report of reports) {
    if (report.status !== 'complete') continue;
    report.confirmed = merged.confirmed;
    report.added = merged.added;
  }
  const references = merged.references;
  return { ...result, references, counts: countByCertainty(references), type_aware: reports };
}

/** The index's references with the engines' ones made `high` (same position) or added. */
function mergeReferences(
  indexed: ImpactReference[],
  found: EngineReference[],
  index: RepositoryIndex,
): { references: ImpactReference[]; confirmed: number; added: number } {
  const key = (path: string, line: number, column: number) => `${path}:${line}:${column}`;
  const byPosition = new Map(indexed.map((ref) => [key(ref.path, ref.line, ref.column), { ...ref }]));
  const reader = new LineReader(index.root);
  const contexts = new Map<string, Map<string, string>>();
  const contextAt = (path: string, line: number, column: number): string => {
    let inFile = contexts.get(path);
    if (!inFile)
      contexts.set(
        path,
        (inFile = new Map(
          index.references({ path }).map((ref) => [key(path, ref.start_line, ref.start_col), ref.context]),
        )),
      );
    return inFile.get(key(path, line, column)) ?? 'value';
  };
  let confirmed = 0;
  let added = 0;
  for (const ref of found) {
    const at = key(ref.path, ref.span.startLine, ref.span.startCol);
    const existing = byPosition.get(at);
    if (existing) {
      if (existing.certainty !== 'high') confirmed += 1;
      existing.certainty = 'high';
      existing.by = ref.by ?? 'language-service';
    } else {
      added += 1;
      byPosition.set(at, {
        path: ref.path,
        line: ref.span.startLine,
        column: ref.span.startCol,
        match_text: reader.line(ref.path, ref.span.startLine),
        certainty: 'high',
        context: contextAt(ref.path, ref.span.startLine, ref.span.startCol),
        by: ref.by ?? 'language-service',
      });
    }
  }
  const references = [...byPosition.values()].sort(
    (a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
  return { references, confirmed, added };
}
