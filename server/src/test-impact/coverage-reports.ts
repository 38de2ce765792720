import { isAbsolute, relative, resolve, sep } from 'node:path';
import { AgentgovError, type TestCoverage } from '@agentgov/core';

/** The report formats `coverage_import` reads. */
export type CoverageReportFormat = 'istanbul' | 'lcov' | 'coverage.py';

/** A part of a report that could not be used, with why; counted and reported, never dropped silently. */
export interface SkippedReportPart {
  /** The file the part names (as the report spells it), when known. */
  file?: string;
  reason: string;
}

export interface ParsedCoverageReport {
  format: CoverageReportFormat;
  /** `test` when the report attributes lines to test cases (coverage.py contexts), else `file`. */
  granularity: 'test' | 'file';
  coverage: TestCoverage[];
  /** Source files the report covers that lie in the repository. */
  files: number;
  skipped: SkippedReportPart[];
}

/**
 * Maps a report's path (absolute, or relative to the repository root) to a repo-relative one; undefined outside the
 * repository.
 */
export function repoPathOf(root: string, path: string): string | undefined {
  const absolute = isAbsolute(path) ? path : resolve(root, path);
  const relativePath = relative(root, absolute).split(sep).join('/');
  if (relativePath === '' || relativePath.startsWith('../') || relativePath === '..' || isAbsolute(relativePath))
    return undefined;
  return relativePath;
}

/** Which format a report is, from its name and first characters. */
export function detectFormat(name: string, text: string): CoverageReportFormat {
  const head = text.trimStart();
  if (name.endsWith('.info') || name.endsWith('.lcov') || /^(TN|SF):/.test(head)) return 'lcov';
  if (!head.startsWith('{'))
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `${name} is neither lcov (TN:/SF: records) nor a JSON coverage report`,
      { argument: 'report_path' },
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `${name} is not valid JSON: ${(error as Error).message}`, {
      argument: 'report_path',
    });
  }
  const record = parsed as Record<string, unknown>;
  if (record['meta'] && typeof record['files'] === 'object') return 'coverage.py';
  return 'istanbul';
}

/** The report's `(scope, id)` entry for the suite as a whole: lines the report covers without naming a test. */
export function suiteScopeId(reportPath: string): string {
  return `report:${reportPath}`;
}

function addLines(byFile: Map<string, Set<number>>, file: string, lines: Iterable<number>): void {
  let set = byFile.get(file);
  if (!set) byFile.set(file, (set = new Set()));
  for (const line of lines) set.add(line);
}

function toCoverage(scope: 'test' | 'file', id: string, byFile: Map<string, Set<number>>): TestCoverage {
  return { scope, id, files: [...byFile].map(([file, lines]) => ({ file, lines: [...lines].sort((a, b) => a - b) })) };
}

const isLine = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;

/** istanbul `coverage-final.json`: `{ path: { statementMap, s } }`; a statement with a count covers its start line. */
export function parseIstanbul(root: string, reportPath: string, text: string): ParsedCoverageReport {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `${reportPath} is not valid JSON: ${(error as Error).message}`, {
      argument: 'report_path',
    });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `${reportPath} is not an istanbul coverage map (an object keyed by file)`,
      { argument: 'report_path' },
    );
  const skipped: SkippedReportPart[] = [];
  const byFile = new Map<string, Set<number>>();
  let files = 0;
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    const entry = value as {
      path?: unknown;
      statementMap?: Record<string, { start?: { line?: unknown } }>;
      s?: Record<string, unknown>;
    } | null;
    const name = typeof entry?.path === 'string' ? entry.path : key;
    if (
      !entry ||
      typeof entry !== 'object' ||
      typeof entry.statementMap !== 'object' ||
      typeof entry.s !== 'object' ||
      !entry.statementMap ||
      !entry.s
    ) {
      skipped.push({ file: name, reason: 'no statementMap/s (not an istanbul file coverage object)' });
      continue;
    }
    const path = repoPathOf(root, name);
    if (!path) {
      skipped.push({ file: name, reason: 'outside the repository' });
      continue;
    }
    files++;
    const covered: number[] = [];
    let bad = 0;
    for (const [id, count] of Object.entries(entry.s)) {
      const line = entry.statementMap[id]?.start?.line;
      if (!isLine(line) || typeof count !== 'number') bad++;
      else if (count > 0) covered.push(line);
    }
    if (bad) skipped.push({ file: name, reason: `${bad} statement(s) without a start line or count` });
    addLines(byFile, path, covered);
  }
  return {
    format: 'istanbul',
    granularity: 'file',
    coverage: byFile.size ? [toCoverage('file', suiteScopeId(reportPath), byFile)] : [],
    files,
    skipped,
  };
}

/** lcov `lcov.info`: `SF:` opens a file, `DA:<line>,<count>` per line, `end_of_record` closes it. */
export function parseLcov(root: string, reportPath: string, text: string): ParsedCoverageReport {
  const skipped: SkippedReportPart[] = [];
  const byFile = new Map<string, Set<number>>();
  let files = 0;
  let current: { name: string; path: string | undefined; lines: number[]; bad: number } | undefined;
  const close = () => {
    if (!current) return;
    if (current.bad) skipped.push({ file: current.name, reason: `${current.bad} malformed DA record(s)` });
    if (current.path) addLines(byFile, current.path, current.lines);
    current = undefined;
  };
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('TN:')) return;
    if (line.startsWith('SF:')) {
      close();
      const name = line.slice(3);
      const path = repoPathOf(root, name);
      if (!path) skipped.push({ file: name, reason: 'outside the repository' });
      else files++;
      current = { name, path, lines: [], bad: 0 };
    } else if (line === 'end_of_record') close();
    else if (line.startsWith('DA:')) {
      const [lineText, countText] = line.slice(3).split(',');
      const number = Number(lineText);
      const count = Number(countText);
      if (!current) skipped.push({ reason: `line ${index + 1}: DA record outside an SF record` });
      else if (!isLine(number) || !Number.isFinite(count)) current.bad++;
      else if (count > 0) current.lines.push(number);
    } else if (!/^(FN|FNDA|FNF|FNH|BRDA|BRF|BRH|LF|LH|VER|FNL|FNA):/.test(line)) {
      skipped.push({
        ...(current ? { file: current.name } : {}),
        reason: `line ${index + 1}: not an lcov record: ${line.slice(0, 60)}`,
      });
    }
  });
  if (current) skipped.push({ file: current.name, reason: 'no end_of_record (truncated report); its lines are kept' });
  close();
  return {
    format: 'lcov',
    granularity: 'file',
    coverage: byFile.size ? [toCoverage('file', suiteScopeId(reportPath), byFile)] : [],
    files,
    skipped,
  };
}

/**
 * coverage.py JSON (`coverage json`, with `--show-contexts` for per-test contexts). A pytest node
 * id context (`tests/test_a.py::test_x|run`, as pytest-cov's `--cov-context=test` writes) is that
 * test; the empty context (imports, `def` lines) and other context names, or no
 * contexts at all, count for the suite as a whole.
 */
export function parseCoveragePy(root: string, reportPath: string, text: string): ParsedCoverageReport {
  let parsed: {
    meta?: unknown;
    files?: Record<string, { executed_lines?: unknown; contexts?: Record<string, unknown> }>;
  };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `${reportPath} is not valid JSON: ${(error as Error).message}`, {
      argument: 'report_path',
    });
  }
  if (!parsed || typeof parsed.files !== 'object' || parsed.files === null)
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `${reportPath} is not a coverage.py JSON report (no "files" object)`,
      { argument: 'report_path' },
    );
  const skipped: SkippedReportPart[] = [];
  const entries = new Map<string, { scope: 'test' | 'file'; id: string; byFile: Map<string, Set<number>> }>();
  const entry = (scope: 'test' | 'file', id: string) => {
    let found = entries.get(`${scope}\0${id}`);
    if (!found) entries.set(`${scope}\0${id}`, (found = { scope, id, byFile: new Map() }));
    return found.byFile;
  };
  const suite = suiteScopeId(reportPath);
  let files = 0;
  let perTest = false;
  for (const [name, file] of Object.entries(parsed.files)) {
    const path = repoPathOf(root, name);
    if (!path) {
      skipped.push({ file: name, reason: 'outside the repository' });
      continue;
    }
    if (!file || typeof file !== 'object') {
      skipped.push({ file: name, reason: 'not a coverage.py file object' });
      continue;
    }
    files++;
    if (file.contexts && typeof file.contexts === 'object') {
      let bad = 0;
      for (const [lineText, contexts] of Object.entries(file.contexts)) {
        const line = Number(lineText);
        if (!isLine(line) || !Array.isArray(contexts)) {
          bad++;
          continue;
        }
        for (const context of contexts) {
          if (typeof context !== 'string') bad++;
          else if (context === '') addLines(entry('file', suite), path, [line]);
          else if (context.includes('::')) {
            perTest = true;
            addLines(entry('test', context.replace(/\|(run|setup|teardown)$/, '')), path, [line]);
          } else addLines(entry('file', suite), path, [line]);
        }
      }
      if (bad) skipped.push({ file: name, reason: `${bad} malformed context entr(y/ies)` });
    } else if (Array.isArray(file.executed_lines)) {
      const lines = file.executed_lines.filter(isLine);
      if (lines.length !== file.executed_lines.length)
        skipped.push({
          file: name,
          reason: `${file.executed_lines.length - lines.length} executed line(s) that are not line numbers`,
        });
      addLines(entry('file', suite), path, lines);
    } else skipped.push({ file: name, reason: 'neither contexts nor executed_lines' });
  }
  return {
    format: 'coverage.py',
    granularity: perTest ? 'test' : 'file',
    coverage: [...entries.values()].map((e) => toCoverage(e.scope, e.id, e.byFile)),
    files,
    skipped,
  };
}

/** Parses a report of `format` (detected from the name and content when not given). */
export function parseCoverageReport(
  root: string,
  reportPath: string,
  text: string,
  format?: CoverageReportFormat,
): ParsedCoverageReport {
  const chosen = format ?? detectFormat(reportPath, text);
  if (chosen === 'lcov') return parseLcov(root, reportPath, text);
  if (chosen === 'coverage.py') return parseCoveragePy(root, reportPath, text);
  return parseIstanbul(root, reportPath, text);
}
