import { escapeRegExp, type Assessment } from '@agentgov/core';

/** A 4xx answer of the Score API: its status, a stable snake_case code and a message. */
export class ScoreHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ScoreHttpError';
  }
}

export interface ScoreResponse {
  risk_assessment: { score: number; level: string };
  recommendation: { action: string; reason_code: string };
  evidence: Assessment['evidence'];
  stage: 'assessed';
}

/**
 * The server's own directories, which no answer may show: its home (as `~`) and, unless the request named it, its cwd
 * (as `.`).
 */
export interface LocalPaths {
  home: string | undefined;
  cwd: string | undefined;
}

/** The last redaction built (a server's home and cwd do not change between requests). */
let lastRedaction: { key: string; redact: (value: unknown) => unknown } | undefined;

/** Replaces the local directories in every string of `value` (a JSON value) by `~` and `.`. */
export function redactLocalPaths<T>(value: T, local: LocalPaths): T {
  const key = `${local.cwd ?? ''}\0${local.home ?? ''}`;
  if (lastRedaction?.key !== key) lastRedaction = { key, redact: redaction(local) };
  return lastRedaction.redact(value) as T;
}

function redaction(local: LocalPaths): (value: unknown) => unknown {
  // Longest first: a cwd under the home becomes `.`, not `~/…`.
  const pairs = [
    [local.cwd, '.'],
    [local.home, '~'],
  ]
    .filter((pair): pair is [string, string] => typeof pair[0] === 'string' && pair[0].length > 1 && pair[0] !== '/')
    .sort((a, b) => b[0].length - a[0].length);
  if (pairs.length === 0) return (value) => value;
  const pattern = new RegExp(
    pairs.map(([dir]) => `${escapeRegExp(dir.replace(/\/+$/, ''))}(?=/|$|[^\\w.-])`).join('|'),
    'g',
  );
  const byDir = new Map(pairs.map(([dir, shown]) => [dir.replace(/\/+$/, ''), shown]));
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(pattern, (dir) => byDir.get(dir) ?? dir);
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

export function scoreResponse(assessment: Assessment, local: LocalPaths): ScoreResponse {
  return {
    risk_assessment: { score: assessment.score, level: assessment.level },
    recommendation: { action: assessment.action, reason_code: assessment.reason_code },
    evidence: redactLocalPaths(assessment.evidence, local),
    stage: 'assessed',
  };
}
