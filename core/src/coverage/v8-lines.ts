import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TraceMap, decodedMappings } from '@jridgewell/trace-mapping';

/** A V8 block-coverage range (`Profiler.takePreciseCoverage`, `detailed: true`). */
export interface V8Range {
  startOffset: number;
  endOffset: number;
  count: number;
}

export interface V8FunctionCoverage {
  functionName: string;
  ranges: V8Range[];
  isBlockCoverage: boolean;
}

export interface V8ScriptCoverage {
  scriptId: string;
  url: string;
  functions: V8FunctionCoverage[];
}

/** Offsets of each line's first and last non-blank character (as v8-to-istanbul trims lines). */
interface LineSpan {
  start: number;
  end: number;
}

export function lineSpans(source: string): LineSpan[] {
  const spans: LineSpan[] = [];
  let offset = 0;
  for (const text of source.split('\n')) {
    const lead = text.length - text.trimStart().length;
    const trail = text.length - text.trimEnd().length;
    spans.push({ start: offset + lead, end: offset + text.length - trail });
    offset += text.length + 1;
  }
  return spans;
}

function firstLineAtOrAfter(spans: LineSpan[], offset: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The 1-based lines of a script that executed, v8-to-istanbul's rule: ranges apply outermost first,
 * a range sets the count of every non-blank line it fully contains, so a never-run nested block
 * uncovers its own lines and a line partly inside it keeps its enclosing count.
 */
export function executedLines(spans: LineSpan[], functions: V8FunctionCoverage[]): number[] {
  const ranges = functions.flatMap((fn) => fn.ranges);
  if (!ranges.some((range) => range.count > 0)) return [];
  ranges.sort((a, b) => a.startOffset - b.startOffset || b.endOffset - a.endOffset);
  const counts = new Map<number, number>();
  for (const range of ranges) {
    for (let i = firstLineAtOrAfter(spans, range.startOffset); i < spans.length; i++) {
      const span = spans[i]!;
      if (span.start >= range.endOffset) break;
      if (span.end > range.endOffset || span.end === span.start) continue;
      counts.set(i + 1, range.count);
    }
  }
  return [...counts]
    .filter(([, count]) => count > 0)
    .map(([line]) => line)
    .sort((a, b) => a - b);
}

const SOURCE_MAP_COMMENT = /\/\/[#@] sourceMappingURL=([^\s'"]+)\s*$/m;

/** The source map a script names (inline `data:` URL or a file next to it), or undefined. */
export function sourceMapOf(source: string, scriptPath: string): TraceMap | undefined {
  const match = SOURCE_MAP_COMMENT.exec(source.slice(-Math.min(source.length, 1 << 20)));
  if (!match) return undefined;
  const url = match[1]!;
  try {
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const payload = url.slice(comma + 1);
      const text = url.slice(0, comma).endsWith(';base64')
        ? Buffer.from(payload, 'base64').toString('utf8')
        : decodeURIComponent(payload);
      return new TraceMap(text, scriptPath);
    }
    const mapPath = resolve(dirname(scriptPath), url);
    return new TraceMap(readFileSync(mapPath, 'utf8'), mapPath);
  } catch {
    return undefined;
  }
}

/** Absolute original file of each map source, resolved against the map's location. */
function sourcePaths(map: TraceMap, scriptPath: string): string[] {
  return map.sources.map((source, i) => {
    const resolved = map.resolvedSources[i] ?? source ?? '';
    if (resolved.startsWith('file://')) return fileURLToPath(resolved);
    if (isAbsolute(resolved)) return resolved;
    return resolve(dirname(scriptPath), resolved);
  });
}

/** Maps generated lines to original (file, line) pairs through a source map; unmapped lines are dropped. */
export function mapLines(map: TraceMap, scriptPath: string, lines: number[]): Map<string, Set<number>> {
  const mappings = decodedMappings(map);
  const paths = sourcePaths(map, scriptPath);
  const out = new Map<string, Set<number>>();
  for (const line of lines) {
    for (const segment of mappings[line - 1] ?? []) {
      if (segment.length < 4) continue;
      const file = paths[segment[1]!]!;
      let set = out.get(file);
      if (!set) out.set(file, (set = new Set()));
      set.add(segment[2]! + 1);
    }
  }
  return out;
}

/**
 * The file path of a V8 script URL (`file://...` or a bare absolute path), or undefined for node: internals and evals.
 */
export function scriptPathOf(url: string): string | undefined {
  if (url.startsWith('file://')) return fileURLToPath(url);
  if (isAbsolute(url)) return url;
  return undefined;
}
