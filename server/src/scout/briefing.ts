import { AgentgovError } from '@agentgov/core';
import { rankOf } from '../graph/graph-algorithms.js';
import type { RepositoryIndex } from '../index/repository-index.js';
import type { FileParseErrors } from '../index/store/index-store.js';
import { summarizeCoverage, type CoverageSummary } from './coverage.js';
import { findEntryPoints, type EntryPoint } from './entry-points.js';
import { communitiesOf, communityLabel, importCyclesOf, restrictGraph, weightedInDegree } from './graph-summary.js';
import { structuralWarning } from './hazards.js';
import { summarizeLint, type LintSummary } from './lint.js';
import { compressTree, type ZoomTarget } from './tree.js';

/** Spec defaults when `truncate` is true. */
export const DEFAULT_MAX_COMMUNITIES = 10;
export const DEFAULT_MAX_MEMBERS_PER_COMMUNITY = 20;
/** Not fixed by the spec: cycles shown when truncating, and files listed per cycle. */
export const DEFAULT_MAX_CYCLES = 10;
export const DEFAULT_MAX_FILES_PER_CYCLE = 20;
export const TOP_N = 10;
export const DEFAULT_MAX_ENTRY_POINTS = 20;

export interface BriefingOptions {
  /** Repo-relative path prefix ('' = whole repository). */
  scope: string;
  truncate: boolean;
  maxCycles?: number | undefined;
  maxCommunities?: number | undefined;
  maxMembersPerCommunity?: number | undefined;
  /** Names of the loaded linters (for the lint reason). */
  linters: readonly string[];
}

export interface Briefing {
  scope: string | null;
  context: string;
  warning?: string;
  tree: string;
  zoom_targets: ZoomTarget[];
  languages: { language: string; files: number; lines: number; share: number }[];
  entry_points: { total: number; shown: number; items: EntryPoint[] };
  top_files: { path: string; score: number; importers: number; imports: number }[];
  top_symbols: {
    def_uid: string;
    name: string;
    qualified_name: string;
    kind: string;
    path: string;
    line: number;
    score: number;
    references: number;
  }[];
  communities: {
    total: number;
    shown: number;
    modularity: number;
    resolution: number;
    items: { id: number; label: string; size: number; members: string[]; members_shown: number }[];
  };
  /**
   * Import cycles loading runs into; `deferred` counts those closed only through type-only, deferred or dynamic
   * imports.
   */
  cycles: {
    total: number;
    shown: number;
    items: { size: number; chain: string[]; files: string[]; files_shown: number }[];
    deferred: { total: number; largest: number };
  };
  coverage: CoverageSummary | null;
  coverage_reason?: string;
  lint: LintSummary | null;
  lint_reason?: string;
  index: { epoch: number; files: number; definitions: number; skipped: Record<string, number> };
  /**
   * Indexed files whose syntax tree holds errors (parse health): their definitions and references
   * come from the partial tree, so some may be missing. First error's line (1-based) and column (0-based).
   */
  parse_errors: { total: number; shown: number; items: FileParseErrors[] };
}

/** Files listed under `parse_errors` when truncating. */
export const DEFAULT_MAX_PARSE_ERRORS = 20;

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function inScope(scope: string): (path: string) => boolean {
  return scope === '' ? () => true : (path) => path === scope || path.startsWith(`${scope}/`);
}

function limit(truncate: boolean, explicit: number | undefined, fallback: number): number {
  if (explicit !== undefined) return explicit;
  return truncate ? fallback : Number.POSITIVE_INFINITY;
}

function contextSentence(
  scopeLabel: string,
  languages: Briefing['languages'],
  files: number,
  topDirs: string[],
  topFile: string | undefined,
  cycles: number,
  deferred: number,
): string {
  const langs = languages
    .slice(0, 2)
    .map((l) => `${l.language} (${Math.round(l.share * 100)}%)`)
    .join(' and ');
  const areas = topDirs.length ? `, mostly in ${topDirs.slice(0, 3).join(', ')}` : '';
  const hub = topFile ? `; the most-imported file is ${topFile}` : '';
  const later = deferred ? ` (${deferred} more only through deferred or type-only imports)` : '';
  const loops = `${cycles ? `; ${cycles} import cycle${cycles === 1 ? '' : 's'}` : '; no import cycles'}${later}`;
  return `${scopeLabel} holds ${files} indexed ${langs || 'source'} files${areas}${hub}${loops}.`;
}

/**
 * Builds the file graph and its PageRank ahead of the first call. Not the definition graph: on a 7,600-file tree that
 * is 3–4 s of the main thread (a call arriving then waits) and ~117 MB kept only while calls ask for it
 * (`server.index.graph_keep_seconds`), so the first recon_scout builds it.
 */
export function warmBriefing(index: RepositoryIndex): void {
  rankOf(index.fileGraph());
}

/** The top-level directories (under the scope) holding the most files, largest first. */
function mainAreas(paths: readonly string[], scope: string): string[] {
  const counts = new Map<string, number>();
  const prefix = scope ? `${scope}/` : '';
  for (const path of paths) {
    const rest = path.slice(prefix.length).split('/');
    if (rest.length > 1) counts.set(`${prefix}${rest[0]}/`, (counts.get(`${prefix}${rest[0]}/`) ?? 0) + 1);
  }
  // an area worth naming holds at least 5% of the files (and more than one)
  const floor = Math.max(2, paths.length * 0.05);
  return [...counts.entries()]
    .filter(([, n]) => n >= floor)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([dir]) => dir);
}

/** Everything `recon_scout` returns, computed from the index (and coverage/lint reports on disk). */
export function buildBriefing(index: RepositoryIndex, options: BriefingOptions): Briefing {
  const accept = inScope(options.scope);
  const files = index.files().filter((f) => accept(f.path));
  if (files.length === 0) {
    throw new AgentgovError('E_NOT_FOUND', `no indexed file under '${options.scope}'`, {
      scope: options.scope,
      hint: 'use a directory from zoom_targets of a repo-wide recon_scout',
    });
  }
  const tree = compressTree(files, options.scope);

  const byLanguage = new Map<string, { files: number; lines: number }>();
  for (const file of files) {
    const entry = byLanguage.get(file.language) ?? { files: 0, lines: 0 };
    entry.files++;
    entry.lines += file.lines;
    byLanguage.set(file.language, entry);
  }
  const totalLines = files.reduce((n, f) => n + f.lines, 0);
  const languages = [...byLanguage.entries()]
    .map(([language, v]) => ({
      language,
      ...v,
      share: round(totalLines ? v.lines / totalLines : v.files / files.length),
    }))
    .sort((a, b) => b.lines - a.lines || b.files - a.files);

  const fileGraph = restrictGraph(index.fileGraph(), options.scope ? (node) => accept(node) : null);
  const fileRank = rankOf(fileGraph);
  const top_files = [...fileRank.entries()]
    .filter(([path]) => fileGraph.inDegree(path) > 0)
    .slice(0, TOP_N)
    .map(([path, score]) => ({
      path,
      score: round(score),
      importers: fileGraph.inDegree(path),
      imports: fileGraph.outDegree(path),
    }));

  const defGraph = restrictGraph(
    index.defGraph(),
    options.scope ? (_node, attributes) => accept(String(attributes['path'])) : null,
  );
  const top_symbols = [...rankOf(defGraph).entries()]
    .filter(([uid]) => defGraph.inDegree(uid) > 0)
    .slice(0, TOP_N)
    .flatMap(([uid, score]) => {
      const def = index.definition(uid);
      return def
        ? [
            {
              def_uid: uid,
              name: def.name,
              qualified_name: def.qualified_name,
              kind: def.kind,
              path: def.path,
              line: def.start_line,
              score: round(score),
              references: weightedInDegree(defGraph, uid),
            },
          ]
        : [];
    });

  const maxCommunities = limit(options.truncate, options.maxCommunities, DEFAULT_MAX_COMMUNITIES);
  const maxMembers = limit(options.truncate, options.maxMembersPerCommunity, DEFAULT_MAX_MEMBERS_PER_COMMUNITY);
  const found = communitiesOf(fileGraph, 1.0);
  // singletons (files nothing imports and that import nothing here) are not modules worth naming
  const clusters = found.communities.filter((members) => members.length > 1);
  const byRank = (a: string, b: string) => (fileRank.get(b) ?? 0) - (fileRank.get(a) ?? 0) || (a < b ? -1 : 1);
  const communityItems = clusters.slice(0, maxCommunities).map((members, id) => {
    const ranked = [...members].sort(byRank);
    return {
      id,
      label: communityLabel(members),
      size: members.length,
      members: ranked.slice(0, maxMembers),
      members_shown: Math.min(members.length, maxMembers),
    };
  });

  const importCycles = importCyclesOf(fileGraph);
  const allCycles = importCycles.load;
  const maxCycles = limit(options.truncate, options.maxCycles, DEFAULT_MAX_CYCLES);
  const filesPerCycle = options.truncate ? DEFAULT_MAX_FILES_PER_CYCLE : Number.POSITIVE_INFINITY;
  const cycleItems = allCycles.slice(0, maxCycles).map((c) => ({
    size: c.members.length,
    chain: c.chain,
    files: c.members.slice(0, filesPerCycle),
    files_shown: Math.min(c.members.length, filesPerCycle),
  }));

  const entries = findEntryPoints({
    root: index.root,
    files: files.map((f) => f.path),
    packs: index.languages?.() ?? [],
  });
  const maxEntries = options.truncate ? DEFAULT_MAX_ENTRY_POINTS : Number.POSITIVE_INFINITY;

  const coverage = summarizeCoverage(index.root);
  const lint = summarizeLint(index.root, options.linters);
  const warning = structuralWarning(
    allCycles,
    files.map((f) => f.path),
  );
  const stats = index.stats();
  const unparsed = index.parseErrors().filter((f) => accept(f.path));
  const maxUnparsed = options.truncate ? DEFAULT_MAX_PARSE_ERRORS : Number.POSITIVE_INFINITY;
  const topDirs = mainAreas(
    files.map((f) => f.path),
    options.scope,
  );
  return {
    scope: options.scope || null,
    context:
      contextSentence(
        options.scope ? `${options.scope}/` : 'The repository',
        languages,
        files.length,
        topDirs,
        top_files[0]?.path,
        allCycles.length,
        importCycles.deferred.length,
      ) +
      (unparsed.length > 0
        ? ` ${unparsed.length} file${unparsed.length === 1 ? '' : 's'} did not parse ` +
          `(parse_errors): their definitions may be incomplete.`
        : ''),
    ...(warning ? { warning } : {}),
    tree: tree.lines.join('\n'),
    zoom_targets: tree.zoomTargets,
    languages,
    entry_points: {
      total: entries.length,
      shown: Math.min(entries.length, maxEntries),
      items: entries.slice(0, maxEntries),
    },
    top_files,
    top_symbols,
    communities: {
      total: clusters.length,
      shown: communityItems.length,
      modularity: round(found.modularity),
      resolution: found.resolution,
      items: communityItems,
    },
    cycles: {
      total: allCycles.length,
      shown: cycleItems.length,
      items: cycleItems,
      deferred: { total: importCycles.deferred.length, largest: importCycles.deferred[0]?.members.length ?? 0 },
    },
    coverage: coverage.value,
    ...(coverage.reason ? { coverage_reason: coverage.reason } : {}),
    lint: lint.value,
    ...(lint.reason ? { lint_reason: lint.reason } : {}),
    index: { epoch: index.epoch(), files: stats.files, definitions: stats.definitions, skipped: stats.skipped },
    parse_errors: {
      total: unparsed.length,
      shown: Math.min(unparsed.length, maxUnparsed),
      items: unparsed.slice(0, maxUnparsed),
    },
  };
}
