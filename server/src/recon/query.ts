import { AgentgovError, identifierWords, isCodeShaped, type RetrievalIndex, type RetrievalQuery } from '@agentgov/core';
import { STOP_WORDS, TASK_WORDS } from './stop-words.js';

/** What parseQuery may ask the index: whether a word names something in this repository. */
export type QueryVocabulary = Pick<RetrievalIndex, 'isKnownName'>;

/** Longest task accepted; a longer one is almost always a pasted file, not a task. */
export const MAX_TASK_CHARS = 32_000;
const MAX_LIST_ITEMS = 100;
const CODE_EXTENSION = /\.(?:[cm]?[jt]sx?|py|pyi|vue|svelte|go|rs|java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala)$/;
const SOURCE_EXTENSION = new RegExp(
  String.raw`\.(?:[cm]?[jt]sx?|py|pyi|vue|svelte|go|rs|` +
    String.raw`java|kt|rb|php|cs|c|h|cc|cpp|hpp|swift|scala|` +
    String.raw`json|ya?ml|toml|md|css|scss|html)$`,
  'i',
);

/** `seeds`/`pins` accept a string or an array of strings; anything else is a catalog error. */
export function normaliseList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  const items = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(items) || !items.every((item) => typeof item === 'string')) {
    throw new AgentgovError('E_INVALID_ARGUMENT', `'${name}' must be a string or an array of strings`, {
      argument: name,
      received: typeof value,
    });
  }
  if (items.length > MAX_LIST_ITEMS) {
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `'${name}' has ${items.length} items; at most ${MAX_LIST_ITEMS} are accepted`,
      { argument: name, count: items.length, max: MAX_LIST_ITEMS },
    );
  }
  return [...new Set(items.map((item) => item.trim()).filter(Boolean))];
}

/**
 * Parses a task into the parts retrievers match on: identifiers, paths, quoted text and plain terms.
 * Task words ("hello", "version", "test") are dropped while the task has other words to go on; a
 * task made only of them keeps those this repository knows (`vocabulary`), so `recon "hello"` on a
 * repository that defines `hello` finds it instead of answering UNSAT.
 */
export function parseQuery(
  task: unknown,
  seeds: unknown = [],
  pins: unknown = [],
  vocabulary?: QueryVocabulary,
): RetrievalQuery {
  if (typeof task !== 'string' || task.trim() === '') {
    throw new AgentgovError('E_INVALID_ARGUMENT', "'task' must be a non-empty string describing what to find", {
      argument: 'task',
    });
  }
  if (task.length > MAX_TASK_CHARS) {
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `'task' has ${task.length} characters; at most ${MAX_TASK_CHARS} are accepted`,
      { argument: 'task', length: task.length, max: MAX_TASK_CHARS },
    );
  }
  const quoted = unique(
    [...task.matchAll(/`([^`\n]{1,200})`|"([^"\n]{1,200})"/g)].map((m) => (m[1] ?? m[2] ?? '').trim()).filter(Boolean),
  );
  const identifiers: string[] = [];
  const paths: string[] = [];
  for (const raw of task.split(/[\s,;()[\]{}<>"'`=]+/)) {
    const token = raw.replace(/^[^\w./~$-]+|[^\w/$)]+$/g, '').replace(/:\d+(?::\d+)?$/, '');
    if (token.length < 2) continue;
    if (isPathShaped(token)) paths.push(token.replace(/^\.\//, ''));
    else if (isCodeShaped(token)) identifiers.push(token.replace(/\(\)?$/, ''));
  }
  for (const text of quoted)
    if (/^[A-Za-z_$][\w$.]*$/.test(text) && !STOP_WORDS.has(text.toLowerCase())) identifiers.push(text);
  // A written path names its file (the symbol retriever resolves it by suffix); its file name is not also a
  // term, or `a/__init__.py` would match every `__init__` module of the repository by name.
  const pathStems = new Set(paths.map((p) => (p.split('/').pop() ?? p).replace(/\.[^.]*$/, '').toLowerCase()));
  const terms: string[] = [];
  for (const word of withoutIssueReferences(task)
    .toLowerCase()
    .split(/[^a-z0-9_]+/)) {
    for (const part of word.includes('_') ? [word, ...identifierWords(word)] : [word]) {
      if (part.length < 3 || /^\d+$/.test(part) || STOP_WORDS.has(part) || pathStems.has(part)) continue;
      terms.push(part);
    }
  }
  for (const identifier of identifiers)
    for (const part of identifierWords(identifier)) if (part.length >= 3 && !STOP_WORDS.has(part)) terms.push(part);
  if (vocabulary && terms.length === 0 && identifiers.length === 0 && paths.length === 0)
    terms.push(...knownTaskWords(task, vocabulary));
  return {
    task,
    terms: unique(terms),
    identifiers: unique(identifiers),
    paths: unique(paths),
    quoted,
    seeds: normaliseList(seeds, 'seeds'),
    pins: normaliseList(pins, 'pins'),
  };
}

/**
 * An issue tracker's closing keywords before an issue reference ("Closes #2662", "fixes owner/repo#12",
 * "Resolves https://…/issues/3") say which ticket the change settles, not what the code does: the keyword is
 * not a term, or "Closes #2662" ranks every `close` method of the repository.
 */
const ISSUE_REFERENCE = new RegExp(
  String.raw`\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?|refs?|see):?\s+` +
    String.raw`(?:(?:[\w.-]+\/[\w.-]+)?#\d+|https?:\/\/\S+\/(?:issues|pull)\/\d+)`,
  'gi',
);

function withoutIssueReferences(task: string): string {
  return task.replace(ISSUE_REFERENCE, ' ');
}

function knownTaskWords(task: string, vocabulary: QueryVocabulary): string[] {
  return task
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((word) => TASK_WORDS.has(word) && vocabulary.isKnownName(word));
}

function isPathShaped(token: string): boolean {
  // `-c/--count` is a flag and its long form, not a path: no path a task names starts with a dash
  if (/^https?:/i.test(token) || token.startsWith('-')) return false;
  if (token.includes('/'))
    return /[A-Za-z]/.test(token) && (SOURCE_EXTENSION.test(token) || /^[\w.-]+(\/[\w.-]+)+\/?$/.test(token));
  return CODE_EXTENSION.test(token) && /^[\w.-]+$/.test(token) && !/^\d/.test(token);
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
