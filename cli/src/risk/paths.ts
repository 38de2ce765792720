import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { anyMatches, joinPatterns, type TextTester } from './patterns.js';

/**
 * Where a path points, as classes rules can name. Built-in classes come from the path's position
 * relative to the project and the home directory; data classes (secret, system, shell_rc …) come
 * from the rule files' `path_classes` patterns, matched against the absolute path and its `~/` form.
 */
export const BUILTIN_PATH_CLASSES = {
  root: 'The filesystem root `/` (or everything directly under it).',
  home: 'The home directory itself.',
  project_root: 'The project root itself (the event `cwd`).',
  project: 'Inside the project root.',
  project_ancestor: 'A directory that contains the project root.',
  temp:
    'A temporary directory (/tmp, /var/tmp, $TMPDIR) or a per-user cache (~/.cache, ' +
    '~/Library/Caches, package-manager caches).',
  home_content:
    'Inside the home directory (not the project, not a per-user cache), wherever ' +
    "home lives: with HOME under /tmp, `~/Documents` is still the home's.",
  outside_project: 'Anywhere outside the project root that is not a temporary directory.',
  unknown: 'A relative path whose directory cannot be known (no project root, or after an unresolvable `cd`).',
  dynamic:
    'A path only known at run time: an unresolved variable, command substitution, ' +
    'or xargs/find input (a `find` match also gets the root, home, system or ' +
    'outside classes of its search root).',
} as const;

export interface PathContext {
  cwd: string | null;
  projectRoot: string | null;
  home: string;
  env: Record<string, string>;
  classPatterns: ReadonlyMap<string, TextTester[]>;
  /**
   * Where an absolute path really points (symbolic links followed, see realTarget); when given, a
   * path whose real target differs is judged by its target: a link inside the project to
   * `~/.ssh` is `~/.ssh`. The project root and home are compared by their real paths too.
   */
  realPath?: (absolute: string) => string;
}

export interface ClassifiedPath {
  /** The path as written. */
  raw: string;
  /** The absolute path, when it can be known. */
  resolved: string | null;
  classes: string[];
}

/** Stands for a path `find` matched under its search root (`find DIR -exec cmd {} ;`). */
export const FIND_MATCH = '${FIND_MATCH}';

const TEMP_ROOTS = [
  '/tmp',
  '/var/tmp',
  '/private/tmp',
  '/private/var/tmp',
  '/var/folders',
  '/private/var/folders',
  '/dev/shm',
];
/** Per-user caches, as disposable as temporary directories. */
const CACHE_DIRS = [
  '.cache',
  'Library/Caches',
  '.npm/_cacache',
  '.npm/_npx',
  '.yarn/cache',
  '.pnpm-store',
  '.cargo/registry/cache',
  '.gradle/caches',
  '.m2/repository',
];

/** Classes a run-time value inherits from the directory it is known to be under. */
const INHERITED_BY_RUNTIME_VALUES = new Set([
  'root',
  'home',
  'home_content',
  'system',
  'project_ancestor',
  'outside_project',
]);

export function classifyPath(raw: string, context: PathContext): ClassifiedPath {
  const expanded = expand(raw, context);
  if (expanded === null) {
    // A `find` match is a path under find's search root: under the project, it is the project's.
    const found = raw.indexOf(FIND_MATCH);
    if (found > 0 && raw.indexOf('$', found + FIND_MATCH.length) < 0) {
      const root = classifyPath(raw.slice(0, found).replace(/\/+$/, '') || '/', context);
      if (
        root.resolved !== null &&
        !root.raw.split('/').includes('..') &&
        (root.classes[0] === 'project' || root.classes[0] === 'project_root')
      )
        return {
          raw,
          resolved: null,
          classes: ['project', ...root.classes.filter((c) => !Object.hasOwn(BUILTIN_PATH_CLASSES, c))],
        };
    }
    const runtime = Math.max(raw.indexOf('${RUNTIME_INPUT}'), found);
    const under = runtime > 0 ? raw.slice(0, runtime).replace(/\/+$/, '') || '/' : null;
    const inherited =
      under !== null && !under.includes('${RUNTIME_INPUT}') && !under.includes(FIND_MATCH)
        ? classifyPath(under, context).classes.filter((c) => INHERITED_BY_RUNTIME_VALUES.has(c))
        : [];
    return { raw, resolved: null, classes: ['dynamic', ...inherited] };
  }
  // Deleting `dir/*` empties `dir`: judge a trailing glob segment by its directory.
  const stripped = (expanded.includes('*') ? expanded.replace(/(^|\/)(\.?\*|\*\.?\*?)$/, '$1') : expanded) || '.';
  const hasGlob = stripped.includes('*') || stripped.includes('?') || stripped.includes('[');
  let resolved: string;
  if (path.posix.isAbsolute(stripped)) resolved = resolvePath(stripped);
  else if (context.cwd !== null) resolved = resolvePath(context.cwd, stripped);
  else return { raw, resolved: null, classes: ['unknown', ...dataClasses(stripped, stripped, context)] };
  if (context.realPath) {
    const real = context.realPath(resolved);
    const realRoot = context.projectRoot === null ? null : context.realPath(context.projectRoot);
    const realHome = context.realPath(context.home);
    if (real !== resolved || realRoot !== context.projectRoot || realHome !== context.home) {
      const plain = { ...context, realPath: undefined };
      const target = classifyPath(real, { ...plain, cwd: null, projectRoot: realRoot, home: realHome });
      // Where it really points decides the position; the data classes of either name count.
      const classes = target.classes;
      for (const cls of classifyPath(resolved, plain).classes)
        if (!classes.includes(cls) && !Object.hasOwn(BUILTIN_PATH_CLASSES, cls)) classes.push(cls);
      if (hasGlob && !classes.includes('glob')) classes.push('glob');
      return { raw, resolved: real === resolved ? resolved : real, classes };
    }
  }
  const classes = positionClasses(resolved, context);
  if (hasGlob && !classes.includes('dynamic')) classes.push('glob');
  const tilde =
    resolved === context.home
      ? '~'
      : resolved.startsWith(`${context.home}/`)
        ? `~${resolved.slice(context.home.length)}`
        : resolved;
  // Inside the project is the project's, wherever it lives (/root/app, /opt/app, /srv, /var/www):
  // its files are not system files. Secrets, shell rc files and the like keep their classes.
  const inside = classes[0] === 'project' || classes[0] === 'project_root';
  for (const cls of dataClasses(resolved, tilde, context))
    if (!classes.includes(cls) && !(inside && cls === 'system')) classes.push(cls);
  return { raw, resolved, classes };
}

/**
 * Directories that are never a project root, even as the event's cwd: the filesystem root, the
 * home directory, every top-level directory (/etc, /opt, /var, /root …), and anywhere under the
 * system's own trees. A project may live below a top-level directory (/opt/app, /srv/site,
 * /var/www/app, /root/app, /usr/src/app), and is then judged like any other.
 */
const NEVER_A_PROJECT = new RegExp(
  String.raw`^\/(etc|bin|sbin|lib|lib32|lib64|libx32|` +
    String.raw`boot|proc|sys|dev|run|System|Library|private\/etc|` +
    String.raw`usr\/(bin|sbin|lib|lib32|lib64|libexec|share|` +
    String.raw`include)|var\/(lib|log|spool|cache|run|mail|` +
    String.raw`db))(\/|$)`,
);

/** The project root an event's cwd stands for, or null when the cwd is no project (see NEVER_A_PROJECT). */
export function projectRootOf(cwd: string | null, home: string): string | null {
  if (cwd === null || cwd === '/' || cwd === home) return null;
  if (/^\/[^/]+$/.test(cwd) || NEVER_A_PROJECT.test(cwd)) return null;
  return cwd;
}

function positionClasses(resolved: string, context: PathContext): string[] {
  const root = context.projectRoot;
  if (resolved === '/') return ['root', 'outside_project', ...(root ? ['project_ancestor'] : [])];
  if (resolved === context.home)
    return ['home', 'outside_project', ...(root?.startsWith(`${resolved}/`) ? ['project_ancestor'] : [])];
  if (root !== null) {
    if (resolved === root) return ['project_root'];
    if (resolved.startsWith(`${root}/`)) return ['project'];
    if (root.startsWith(`${resolved}/`)) return ['project_ancestor', 'outside_project'];
  }
  if (cacheDirsOf(context.home).some((dir) => resolved.startsWith(`${dir}/`) || resolved === dir)) return ['temp'];
  // The user's files outrank the temporary directory they may live in (HOME=/tmp/… in CI images
  // and sandboxes): `~/Documents` is the home's, wherever home is.
  if (context.home !== '/' && resolved.startsWith(`${context.home}/`)) return ['outside_project', 'home_content'];
  if (TEMP_ROOTS.some((t) => resolved === t || resolved.startsWith(`${t}/`))) return ['temp'];
  return ['outside_project'];
}

/**
 * path.posix.resolve of an absolute path, or of a path relative to an absolute `cwd`, without its work when the answer
 * is plain.
 */
export function resolvePath(first: string, relative?: string): string {
  if (relative === undefined) return first.startsWith('/') && isNormal(first) ? first : path.posix.resolve(first);
  if (first.startsWith('/') && isNormal(first) && isNormal(relative) && !relative.startsWith('/'))
    return `${first === '/' ? '' : first}/${relative}`;
  return path.posix.resolve(first, relative);
}

/** What path.posix.resolve leaves as it is: no empty, `.` or `..` segment, no trailing slash (bar `/`). */
function isNormal(p: string): boolean {
  if (p === '/') return true;
  return p !== '' && !p.endsWith('/') && !p.includes('//') && !(p.includes('.') && /(^|\/)\.\.?(\/|$)/.test(p));
}

let cacheDirs: { home: string; dirs: string[] } | undefined;

function cacheDirsOf(home: string): string[] {
  if (cacheDirs?.home !== home) cacheDirs = { home, dirs: CACHE_DIRS.map((dir) => `${home}/${dir}`) };
  return cacheDirs.dirs;
}

function dataClasses(absolute: string, tilde: string, context: PathContext): string[] {
  const testers = classTesters(context.classPatterns);
  // Most paths have no data class: one run of every pattern joined says so.
  if (!anyMatches(testers.any, absolute) && (tilde === absolute || !anyMatches(testers.any, tilde))) return [];
  const found: string[] = [];
  for (const [name, patterns] of testers.byClass) {
    if (anyMatches(patterns, absolute) || (tilde !== absolute && anyMatches(patterns, tilde))) found.push(name);
  }
  return found;
}

/** The class patterns joined (see joinPatterns): all of them, and per class. */
interface ClassTesters {
  any: TextTester[];
  byClass: Array<[string, TextTester[]]>;
}

const testersByPatterns = new WeakMap<ReadonlyMap<string, TextTester[]>, ClassTesters>();

function classTesters(classPatterns: ReadonlyMap<string, TextTester[]>): ClassTesters {
  let testers = testersByPatterns.get(classPatterns);
  if (testers === undefined) {
    testers = {
      any: joinPatterns([...classPatterns.values()].flat()),
      byClass: [...classPatterns].map(([name, patterns]) => [name, joinPatterns(patterns)]),
    };
    testersByPatterns.set(classPatterns, testers);
  }
  return testers;
}

/**
 * Expands `~`, `$HOME`, `$TMPDIR`, `$PWD`, variables set on the command and `${NAME:-default}`; null when it stays
 * dynamic.
 */
function expand(raw: string, context: PathContext): string | null {
  let text = raw;
  if (text === '~' || text.startsWith('~/')) text = context.home + text.slice(1);
  else if (text.startsWith('~') && /^~[A-Za-z_]/.test(text)) text = `/home/${text.slice(1)}`;
  // Every substitution below starts at a `$` or a backtick.
  if (!text.includes('$') && !text.includes('`')) return text;
  text = text.replace(/\$\(\s*pwd\s*\)|`\s*pwd\s*`/g, () => context.cwd ?? '$PWD');
  // The repository's top level: the project root when there is one.
  text = text.replace(/\$\(\s*git rev-parse --show-toplevel\s*\)/g, () => context.projectRoot ?? '$PWD');
  // `$(mktemp -d)` is a fresh temporary path, whatever template it was given.
  text = text.replace(/\$\(\s*mktemp\b[^)]*\)|`\s*mktemp\b[^`]*`/g, '/tmp/mktemp.XXXXXX');
  // `${NAME:-default}` (and `-`, `:=`, `=`) is the variable when it is known, else its default;
  // a default may itself name a variable, so a second pass reads what the first put in.
  for (let pass = 0; pass < 2 && text.includes('$'); pass += 1) {
    text = text.replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?[-=]([^${}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (whole, a: string | undefined, fallback: string | undefined, b: string | undefined) => {
        const name = a ?? b ?? '';
        if (Object.hasOwn(context.env, name))
          return (context.env[name] ?? '').replace(
            /^\$\(\s*mktemp\b[^)]*\)$|^`\s*mktemp\b[^`]*`$/,
            '/tmp/mktemp.XXXXXX',
          );
        if (name === 'HOME') return context.home;
        if (name === 'TMPDIR') return '/tmp';
        if (name === 'PWD' && context.cwd !== null) return context.cwd;
        if (fallback !== undefined) return fallback;
        return whole;
      },
    );
  }
  if (/[$`]/.test(text)) return null;
  // A default of `~` (`${DEST:-~}`) is expanded like one written as such.
  if (text === '~' || text.startsWith('~/')) text = context.home + text.slice(1);
  return text;
}

/**
 * The real location of an absolute path: its nearest existing ancestor with symbolic links
 * resolved, and the rest of the path (not there yet) appended as written. The path itself when
 * nothing of it can be resolved. `known` holds real locations already found in this assessment and `missing` the
 * paths found not there (both read and filled here): a command's paths share their ancestors, the working directory
 * first.
 *
 * Existence is asked with a `stat` that does not throw: a path that is not there is the common
 * case (an argument that is no path at all), and a failed `realpath` costs an exception, whose
 * stack trace is most of the gate's time in a deep call stack.
 */
export function realTarget(absolute: string, known?: Map<string, string>, missing?: Set<string>): string {
  const rest: string[] = [];
  let dir = absolute;
  for (let guard = 0; guard < 256; guard += 1) {
    let real = known?.get(dir);
    if (real === undefined && !missing?.has(dir)) {
      try {
        // A dangling link stats as missing, as realpath would fail on it: its parent is resolved instead.
        if (statSync(dir, { throwIfNoEntry: false }) !== undefined) real = realpathSync.native(dir);
      } catch {
        // Not a directory on the way, no permission: resolved as missing.
      }
      if (real !== undefined) known?.set(dir, real);
      else missing?.add(dir);
    }
    if (real !== undefined) return rest.length === 0 ? real : path.posix.join(real, ...rest.reverse());
    const parent = path.posix.dirname(dir);
    if (parent === dir) return absolute;
    rest.push(path.posix.basename(dir));
    dir = parent;
  }
  return absolute;
}
