import type { CycleFacts } from './graph-summary.js';

/** An import cycle of at least this many files is a hazard worth a warning. */
export const LARGE_CYCLE_FILES = 5;
/** Directory names that hold vendored or generated code. */
// not 'external' or 'gen': projects use those names for their own code (sympy/external wraps optional dependencies)
export const VENDORED_DIRS = new Set([
  'vendor',
  'vendored',
  '_vendor',
  'third_party',
  'third-party',
  'thirdparty',
  'generated',
  '__generated__',
  'dist',
  'build',
]);
/** Vendored/generated trees smaller than this are noise, not a hazard. */
export const VENDORED_MIN_FILES = 3;

export interface VendoredTree {
  path: string;
  files: number;
}

/** Directories named like vendored or generated code that hold indexed source files, largest first. */
export function vendoredTrees(paths: readonly string[]): VendoredTree[] {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const parts = path.split('/');
    const at = parts.slice(0, -1).findIndex((part) => VENDORED_DIRS.has(part.toLowerCase()));
    if (at === -1) continue;
    const dir = parts.slice(0, at + 1).join('/');
    counts.set(dir, (counts.get(dir) ?? 0) + 1);
  }
  const trees = [...counts.entries()].filter(([, files]) => files >= VENDORED_MIN_FILES);
  // a minified bundle is generated code even alone
  const minified = paths
    .filter((path) => /\.min\.(js|mjs|cjs)$/.test(path) && !trees.some(([dir]) => path.startsWith(`${dir}/`)))
    .map((path) => [path, 1] as [string, number]);
  return [...trees, ...minified]
    .map(([path, files]) => ({ path, files }))
    .sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
}

/**
 * The structural traps of a briefing, or undefined when there is none: a large import cycle
 * (changing any file in it can ripple through all of them) or vendored/generated code among the
 * sources (edits there are lost or belong upstream, and it skews search and graphs).
 */
export function structuralWarning(cycles: readonly CycleFacts[], paths: readonly string[]): string | undefined {
  const hazards: string[] = [];
  const large = cycles.filter((c) => c.members.length >= LARGE_CYCLE_FILES);
  if (large.length > 0) {
    const biggest = large[0]!;
    const chain =
      biggest.chain.length <= 6 ? biggest.chain.join(' → ') : `${biggest.chain.slice(0, 5).join(' → ')} → …`;
    hazards.push(
      `${large.length === 1 ? 'an import cycle' : `${large.length} import cycles`} ` +
        `of ${LARGE_CYCLE_FILES}+ files (largest: ` +
        `${biggest.members.length} files, ${chain}); a change to any of them can ` +
        `ripple through the whole cycle`,
    );
  }
  const vendored = vendoredTrees(paths);
  if (vendored.length > 0) {
    const listed = vendored
      .slice(0, 3)
      .map((v) => `${v.path} (${v.files} files)`)
      .join(', ');
    hazards.push(
      `vendored or generated code inside the sources: ` +
        `${listed}${vendored.length > 3 ? `, +${vendored.length - 3} more` : ''}; ` +
        `do not edit it by hand`,
    );
  }
  return hazards.length ? `${hazards.join('; ')}.` : undefined;
}
