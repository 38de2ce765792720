import type { FileClass, RetrievalIndex, RetrievalQuery, WorkspaceMember } from '@agentgov/core';
import type { RankedCandidate } from './fuse.js';

// Type tests (`*.test-d.ts`, `dts-test/`, `test-d/`) are tests too: they check the types, not ship them.
const TEST_PATH = new RegExp(
  String.raw`(^|\/)(tests?|__tests__|testing|spec|specs|` +
    String.raw`dts-tests?|test-d|type-?tests?|__typetests__)\/|` +
    String.raw`\.(test|spec)(-d)?\.[cm]?[jt]sx?$|(^|\/)test_[^/]*\.py$|` +
    String.raw`_test\.py$|(^|\/)conftest\.py$`,
);
const PERIPHERAL_PATH = new RegExp(
  String.raw`(^|\/)(examples?|samples?|demos?|docs?|benchmarks?|` +
    String.raw`bench|scripts|vendor|third_party|public|` +
    String.raw`fixtures?|dist|build|out|generated)\/|\.min\.js$`,
);
/**
 * Peripheral folders nested in the source tree, whose files can be the product's own code when the product imports
 * them (a `doc/` module of a CLI's flags, `crates/core/flags/doc/`): not a top-level `docs/` or `examples/`, which
 * the product never builds from even when a test suite imports them, and not vendored, built or generated folders.
 */
const BESIDE_PRODUCT_PATH = new RegExp(String.raw`\/(examples?|samples?|demos?|docs?|benchmarks?|bench|scripts)\/`);
const PERIPHERAL_WORDS = /\b(examples?|samples?|demos?|docs?|documentation|benchmarks?|bench|scripts?|vendor(ed)?)\b/i;
const GENERATED_WORDS = /\b(generated|codegen|generator|regenerate)\b/i;
/** Words that say a task is about tests, unless this repository's product code uses them (see isProductWord). */
export const TEST_VOCABULARY = [
  'test',
  'tests',
  'testing',
  'spec',
  'specs',
  'fixture',
  'fixtures',
  'conftest',
  'pytest',
  'mocha',
  'jest',
  'vitest',
  'coverage',
];
const TEST_WORDS = new RegExp(`\\b(${TEST_VOCABULARY.join('|')})\\b`, 'gi');

export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** A file in a nested documentation, example, benchmark or script folder that the product imports is product code. */
function productBeside(path: string, index: PriorIndex | undefined): boolean {
  return BESIDE_PRODUCT_PATH.test(path) && index?.importedByProduct?.(path) === true;
}

export function isPeripheralPath(path: string): boolean {
  return PERIPHERAL_PATH.test(path);
}

/** What the priors may ask the index: the optional per-repository file classes and product vocabulary. */
export type PriorIndex = Pick<
  RetrievalIndex,
  'fileClass' | 'isProductWord' | 'isTestFile' | 'workspaceMembers' | 'importedByProduct'
>;

/**
 * True when the task talks about tests: it uses a test word that is not this repository's product
 * vocabulary (`fixture` in a test framework's own repository is not), or pins a test file.
 */
export function isAboutTests(query: RetrievalQuery, index?: PriorIndex): boolean {
  if (query.pins.some((pin) => isTestPath(pin) || index?.isTestFile?.(pin) === true)) return true;
  for (const m of query.task.matchAll(TEST_WORDS)) {
    const word = (m[1] ?? '').toLowerCase();
    if (!index?.isProductWord?.(word)) return true;
  }
  return false;
}

export interface PriorWeights {
  /** Score multiplier of test code when the task does not talk about tests. */
  testCode: number;
  /** Score multiplier of examples, docs, benchmarks, scripts and vendored code when the task does not name them. */
  peripheralCode: number;
  /** Each further definition of a file already ranked above keeps this share of its score. */
  sameFileDecay: number;
  /** Score multiplier of vendored and generated code (see fileClass) when the task does not name it. */
  foreignCode: number;
  /**
   * Score multiplier of the files of the workspace members a task's scope names (`fix(runtime-dom): …`,
   * `printer: …`), over the rest of the repository.
   */
  scopedMember: number;
  /**
   * Score multiplier of files whose folder or file name the task's scope spells (`fix(custom-element): …` and
   * `apiCustomElement.ts`, `hmr: …` and `hmr.ts`), for a scope naming no workspace member.
   */
  scopedPath: number;
}

// A task that does not mention tests or examples/docs/scripts rarely changes them: on the visible
// commit sets, 0.3 beats 0.5 everywhere (express most: its test tree is as large as its code).
export const DEFAULT_PRIORS: PriorWeights = {
  testCode: 0.3,
  peripheralCode: 0.3,
  sameFileDecay: 0.75,
  foreignCode: 0.3,
  scopedMember: 3,
  scopedPath: 2,
};

/** What a commit's leading `word:` says when it is its type (`fix: …`), not a scope. */
const COMMIT_TYPES = new Set(
  (
    'feat feature fix fixed fixes bugfix hotfix chore docs doc refactor refactoring perf test tests build ci style ' +
    'revert release deps lint cleanup trivial wip change changed changes add added update updated remove removed ' +
    'breaking security sec types typo note'
  ).split(' '),
);

/**
 * The scope a task opens with: a conventional commit's `type(scope):` (also inside `Revert "…"`) or a leading
 * `scope:` / `scope/part:`. Several scopes (`compiler-core, compiler-sfc`) and sub-scopes (`runtime-core/hmr`) give
 * each of their names. Lowercase; empty when the task opens with none.
 */
export function taskScopes(task: string): string[] {
  const head = task.trimStart().replace(/^revert\s+["'`]?/i, '');
  const prefix = /^([@a-z0-9][\w@./-]{0,60}):\s/i.exec(head)?.[1];
  const scope =
    /^[a-z]+\(([^()\n]{1,80})\)!?:/i.exec(head)?.[1] ??
    (prefix && !COMMIT_TYPES.has(prefix.toLowerCase()) ? prefix : undefined);
  if (!scope) return [];
  const out = new Set<string>();
  for (const part of scope
    .toLowerCase()
    .split(/[,\s]+/)
    .filter(Boolean)) {
    out.add(part);
    // `runtime-core/hmr` names runtime-core; `@vue/runtime-dom` is a whole package name (kept above) and `runtime-dom`
    const segments = part.split('/').filter(Boolean);
    if (segments.length > 1) for (const segment of segments) out.add(segment);
  }
  return [...out];
}

/** A scope or path part reduced to its letters and digits, lowercase (`custom-element`, `CustomElement`). */
const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '');
/** Scopes shorter than this (squashed) spell no file: `ui`, `io` end too many names. */
const MIN_SCOPE_PATH = 3;

/**
 * The squashed scopes of a task that name no workspace member, to be matched against folder and file names: a
 * path part matches when its squashed name (file names without extension) is the scope or ends with it
 * (`apiCustomElement` for `custom-element`, `compiler-ssr` for `ssr`).
 */
export function scopePathWords(task: string, members: readonly WorkspaceMember[]): string[] {
  const names = new Set(members.flatMap((m) => m.names));
  return [
    ...new Set(
      taskScopes(task)
        .filter((scope) => !names.has(scope) && !scope.includes('/'))
        // `helpers.py: …` spells helpers.py, whose name without its extension is what paths are matched by
        .map((scope) => squash(scope.replace(/\.[a-z]{1,4}$/, '')))
        .filter((word) => word.length >= MIN_SCOPE_PATH),
    ),
  ];
}

/** True when a folder or file name of `path` spells one of the scope words (see scopePathWords). */
export function pathSpellsScope(path: string, words: readonly string[]): boolean {
  if (words.length === 0) return false;
  return path.split('/').some((part, i, parts) => {
    const name = squash(i === parts.length - 1 ? part.replace(/\.[^.]*$/, '') : part);
    return words.some((word) => name.endsWith(word));
  });
}

/** The workspace members a task's scope names (see taskScopes): their directories, deepest first. */
export function scopedMembers(task: string, members: readonly WorkspaceMember[]): string[] {
  if (members.length === 0) return [];
  const scopes = taskScopes(task);
  if (scopes.length === 0) return [];
  return members
    .filter((member) => member.names.some((name) => scopes.includes(name)))
    .map((member) => member.dir)
    .sort((a, b) => b.length - a.length);
}

/**
 * Re-ranks fused candidates with priors: tests rank below the code they test unless the task is
 * about tests, examples/docs/benchmarks/vendored code below the product code unless named, and a file's second, third
 * ... definitions decay so the top of the list covers
 * more places instead of one large file. Returns a new, re-sorted list.
 */
export function applyPriors(
  ranked: readonly RankedCandidate[],
  query: RetrievalQuery,
  weights: PriorWeights = DEFAULT_PRIORS,
  index?: PriorIndex,
): RankedCandidate[] {
  const aboutTests = isAboutTests(query, index);
  const aboutPeriphery = PERIPHERAL_WORDS.test(query.task);
  const taskWords = new Set(query.task.toLowerCase().split(/[^a-z0-9_.-]+/));
  const members = weights.scopedMember === 1 && weights.scopedPath === 1 ? [] : (index?.workspaceMembers?.() ?? []);
  const scoped = scopedMembers(query.task, members);
  const scopeWords = scoped.length === 0 && weights.scopedPath !== 1 ? scopePathWords(query.task, members) : [];
  const adjusted = ranked.map((c) => {
    let score = c.score;
    const member = scoped.find((dir) => c.def.path.startsWith(`${dir}/`));
    if (member !== undefined) score *= weights.scopedMember;
    const spelled = member === undefined && pathSpellsScope(c.def.path, scopeWords);
    if (spelled) score *= weights.scopedPath;
    const mark =
      member !== undefined
        ? { scoped: `workspace member ${member}/` }
        : spelled
          ? { scoped: `its path spells ${scopeWords.join(', ')}` }
          : {};
    // Only what the caller named outright (seeds, pins) is exempt; a name dropped in the task text is not.
    const exempt = c.named >= 1;
    let demoted = false;
    if (!exempt && !aboutTests && (isTestPath(c.def.path) || index?.isTestFile?.(c.def.path) === true)) {
      score *= weights.testCode;
      demoted = true;
    }
    if (!exempt && !aboutPeriphery && PERIPHERAL_PATH.test(c.def.path) && !productBeside(c.def.path, index)) {
      score *= weights.peripheralCode;
      demoted = true;
    }
    const foreign = exempt || demoted ? undefined : index?.fileClass?.(c.def.path);
    if (foreign && !namesForeign(foreign, query, taskWords)) {
      score *= weights.foreignCode;
      return { ...c, ...mark, score, demoted: `${foreign.kind} (${foreign.reason})` };
    }
    return { ...c, ...mark, score };
  });
  adjusted.sort((a, b) => b.score - a.score || a.def.def_uid.localeCompare(b.def.def_uid));
  const seen = new Map<string, number>();
  for (const c of adjusted) {
    const n = seen.get(c.def.path) ?? 0;
    c.score *= weights.sameFileDecay ** n;
    seen.set(c.def.path, n + 1);
  }
  return adjusted.sort((a, b) => b.score - a.score || a.def.def_uid.localeCompare(b.def.def_uid));
}

/** A task that names vendored code (its package name, or just "vendored") or asks about generated code is about it. */
function namesForeign(foreign: FileClass, query: RetrievalQuery, taskWords: ReadonlySet<string>): boolean {
  if (foreign.kind === 'generated') return GENERATED_WORDS.test(query.task);
  if (/\bvendor(ed|ing)?\b/i.test(query.task)) return true;
  return (
    foreign.name !== undefined &&
    (taskWords.has(foreign.name.toLowerCase()) ||
      query.identifiers.some((i) => i.toLowerCase().split('.').includes(foreign.name!.toLowerCase())))
  );
}
