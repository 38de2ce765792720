/** A directory collapsed to fit the budget; pass its path as `scope` to see inside. */
export interface ZoomTarget {
  path: string;
  files: number;
  lines: number;
}

export interface CompressedTree {
  /** Rendered lines, two spaces of indent per level; a collapsed directory ends in `…`. */
  lines: string[];
  zoomTargets: ZoomTarget[];
}

interface DirNode {
  name: string;
  path: string;
  depth: number;
  dirs: Map<string, DirNode>;
  files: { name: string; lines: number }[];
  totalFiles: number;
  totalLines: number;
}

/** Files listed per expanded directory before a `… N more files` line (the largest first). */
export const FILES_PER_DIR = 6;
/** Default number of tree lines in a briefing. */
export const TREE_BUDGET = 80;

function buildTree(files: { path: string; lines: number }[], rootPath: string): DirNode {
  const root: DirNode = {
    name: rootPath || '.',
    path: rootPath,
    depth: 0,
    dirs: new Map(),
    files: [],
    totalFiles: 0,
    totalLines: 0,
  };
  const prefix = rootPath ? `${rootPath}/` : '';
  for (const file of files) {
    const parts = file.path.slice(prefix.length).split('/');
    let node = root;
    node.totalFiles++;
    node.totalLines += file.lines;
    for (const part of parts.slice(0, -1)) {
      let child = node.dirs.get(part);
      if (!child) {
        child = {
          name: part,
          path: node.path ? `${node.path}/${part}` : part,
          depth: node.depth + 1,
          dirs: new Map(),
          files: [],
          totalFiles: 0,
          totalLines: 0,
        };
        node.dirs.set(part, child);
      }
      node = child;
      node.totalFiles++;
      node.totalLines += file.lines;
    }
    node.files.push({ name: parts[parts.length - 1]!, lines: file.lines });
  }
  return root;
}

/** Lines that expanding `dir` adds: one per subdirectory, the first files, a `more files` line. */
function expansionCost(dir: DirNode): number {
  return dir.dirs.size + Math.min(dir.files.length, FILES_PER_DIR) + (dir.files.length > FILES_PER_DIR ? 1 : 0);
}

const bySize = (a: DirNode, b: DirNode) => b.totalFiles - a.totalFiles || (a.name < b.name ? -1 : 1);

/**
 * The directory tree of `files`, progressively compressed to `budget` lines: directories are
 * expanded breadth-first (shallow before deep, large before small) while their children fit;
 * the rest stay collapsed with their file and line counts and become zoom targets.
 */
export function compressTree(
  files: { path: string; lines: number }[],
  rootPath = '',
  budget = TREE_BUDGET,
): CompressedTree {
  const root = buildTree(files, rootPath);
  const expanded = new Set<DirNode>([root]);
  let used = expansionCost(root);
  const queue = [...root.dirs.values()];
  while (queue.length > 0) {
    queue.sort((a, b) => a.depth - b.depth || bySize(a, b));
    const next = queue.shift()!;
    // a directory holding a single directory and no files costs one line to open: always open it
    const cost = expansionCost(next);
    if (used + cost > budget && !(next.files.length === 0 && next.dirs.size === 1)) continue;
    expanded.add(next);
    used += cost;
    queue.push(...next.dirs.values());
  }
  const lines: string[] = [];
  const zoomTargets: ZoomTarget[] = [];
  const render = (dir: DirNode, indent: string) => {
    for (const child of [...dir.dirs.values()].sort(bySize)) {
      if (expanded.has(child)) {
        lines.push(`${indent}${child.name}/ (${child.totalFiles} files)`);
        render(child, `${indent}  `);
      } else {
        lines.push(`${indent}${child.name}/ … (${child.totalFiles} files, ${child.totalLines} lines)`);
        zoomTargets.push({ path: child.path, files: child.totalFiles, lines: child.totalLines });
      }
    }
    const shown = [...dir.files].sort((a, b) => b.lines - a.lines || (a.name < b.name ? -1 : 1));
    for (const file of shown.slice(0, FILES_PER_DIR)) lines.push(`${indent}${file.name} (${file.lines} lines)`);
    if (shown.length > FILES_PER_DIR) lines.push(`${indent}… ${shown.length - FILES_PER_DIR} more files`);
  };
  lines.push(`${root.path || '.'}/ (${root.totalFiles} files)`);
  render(root, '  ');
  zoomTargets.sort((a, b) => b.files - a.files || (a.path < b.path ? -1 : 1));
  return { lines, zoomTargets };
}
