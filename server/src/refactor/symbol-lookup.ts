import { AgentgovError, type RefactorEngine, type RefactorSymbol } from '@agentgov/core';
import type { RefactorService } from './refactor-service.js';

/** `src/a.ts:12` or `src/a.ts:12:5`: a position, which `symbol` does not take. */
const POSITION = /^.+:\d+(?::\d+)?$/;
const MAX_SUGGESTIONS = 5;

export interface ResolvedSymbol {
  symbol: RefactorSymbol;
  engine: RefactorEngine;
}

/**
 * Finds the one definition a `symbol` argument names: a bare name (`clamp`), a qualified name
 * (`Meter.read`, `pkg.core.run`), or `path:Qualified.name` when a qualified name exists in several
 * files. Several matches → E_SYMBOL_AMBIGUOUS listing each candidate with the exact string to
 * retry with; none → E_NOT_FOUND with the nearest existing names.
 */
export async function resolveSymbol(
  service: RefactorService,
  argument: string,
  resolvePath: (path: string) => string,
): Promise<ResolvedSymbol> {
  const text = argument.trim();
  if (POSITION.test(text)) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `symbol takes a name, not a position: '${text}'`, {
      symbol: text,
      hint:
        'Pass the symbol name (`clamp`, `Meter.read`); when several definitions share ' +
        'it, the error lists each with the name to retry with.',
    });
  }
  const colon = text.lastIndexOf(':');
  const path = colon > 0 ? resolvePath(text.slice(0, colon)) : undefined;
  const name = colon > 0 ? text.slice(colon + 1) : text;
  if (!name) throw new AgentgovError('E_INVALID_ARGUMENT', 'symbol is empty', { symbol: text });

  const found: ResolvedSymbol[] = [];
  for (const engine of service.engines()) {
    for (const symbol of await engine.declarations(name, service.workspace)) {
      if (service.engineOf(symbol.path) !== engine) continue;
      if (path !== undefined && symbol.path !== path) continue;
      found.push({ symbol, engine });
    }
  }
  // `Meter.read` or `path:Name` given: an exact qualified match beats a suffix match (`Outer.Meter.read`, `Enum.Name`)
  const exact = name.includes('.') || path !== undefined ? found.filter((f) => f.symbol.qualifiedName === name) : [];
  const matches = exact.length > 0 ? exact : found;
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    const nearest = nearestNames(service, name.split('.').pop() ?? name);
    throw new AgentgovError(
      'E_NOT_FOUND',
      `no definition named '${text}'${nearest.length ? `; nearest: ${nearest.join(', ')}` : ''}`,
      { symbol: text, nearest },
    );
  }
  const sameQualified = new Map<string, number>();
  for (const m of matches)
    sameQualified.set(m.symbol.qualifiedName, (sameQualified.get(m.symbol.qualifiedName) ?? 0) + 1);
  const candidates = matches
    .map(({ symbol }) => ({
      // a retry must not be the same ambiguous query: a bare top-level name is retried with its path
      symbol:
        sameQualified.get(symbol.qualifiedName) === 1 &&
        symbol.qualifiedName.includes('.') &&
        symbol.qualifiedName !== text
          ? symbol.qualifiedName
          : `${symbol.path}:${symbol.qualifiedName}`,
      qualified_name: symbol.qualifiedName,
      kind: symbol.kind,
      location: `${symbol.path}:${symbol.line}`,
      ...(symbol.moreLines?.length
        ? { also_declared_at: symbol.moreLines.map((line) => `${symbol.path}:${line}`) }
        : {}),
    }))
    .sort((a, b) => a.location.localeCompare(b.location, undefined, { numeric: true }));
  throw new AgentgovError(
    'E_SYMBOL_AMBIGUOUS',
    `'${text}' names ${candidates.length} definitions: ${candidates
      .slice(0, 10)
      .map((c) => `${c.qualified_name} (${c.location})`)
      .join(', ')}${candidates.length > 10 ? ', …' : ''}`,
    { symbol: text, candidates },
  );
}

/** Existing definition names closest to `name` (edit distance), for a typo. */
function nearestNames(service: RefactorService, name: string): string[] {
  const names = new Set(service.workspace.index.definitions({}).map((d) => d.name));
  const limit = Math.max(2, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  return [...names]
    .map((candidate) => ({ candidate, distance: editDistance(lower, candidate.toLowerCase(), limit) }))
    .filter((c) => c.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, MAX_SUGGESTIONS)
    .map((c) => c.candidate);
}

/** Levenshtein distance, giving up (limit + 1) once every path exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length]!;
}
