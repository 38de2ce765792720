import { sep } from 'node:path';
import picomatch from 'picomatch';

/**
 * The one glob dialect of agentgov, picomatch's (documented in docs/config.md, "Globs"): `*` and
 * `?` within one path segment, `**` across segments, `[abc]` / `[a-z]` classes, `{a,b}` alternatives,
 * `\` escapes; `*` matches names starting with a dot too. A leading `!` is not picomatch's: in a
 * pattern list it re-includes what an earlier pattern left out (see {@link pathGlobFilter}).
 * Every glob in the tree (`server.index.exclude`, `.gitattributes`, workspace members, risk rules'
 * program names) is compiled here; a pattern that cannot be compiled throws a {@link GlobError}.
 */
const DIALECT: picomatch.PicomatchOptions = {
  dot: true,
  nonegate: true,
  strictBrackets: true,
  // Fast paths return an anchored source, which cannot be embedded in the path forms below.
  fastpaths: false,
};

/** A glob that cannot be compiled: unbalanced `[`, `{`, `(`, a dangling `\`, an empty pattern. */
export class GlobError extends Error {
  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super(`invalid glob ${JSON.stringify(pattern)}: ${reason}`);
    this.name = 'GlobError';
  }
}

export interface GlobOptions {
  /** Letters match either case (risk rules' program names). */
  nocase?: boolean;
  /** `*` and `?` match `/` too (a program glob such as `$*` covers `$HOME/bin/x`). */
  crossSlash?: boolean;
}

/** The regular-expression source of one glob (unanchored), or a GlobError. */
function globSource(pattern: string, options: GlobOptions = {}): string {
  if (pattern === '') throw new GlobError(pattern, 'the pattern is empty');
  if (/(^|[^\\])(\\\\)*\\$/.test(pattern)) throw new GlobError(pattern, 'it ends in a lone `\\` (escape nothing)');
  let output: string;
  try {
    // (@types/picomatch types parse's options as `{ maxLength }`; it takes all of makeRe's.)
    const parseOptions: picomatch.PicomatchOptions = { ...DIALECT, bash: options.crossSlash };
    output = picomatch.parse(pattern, parseOptions as { maxLength?: number }).output;
  } catch (error) {
    throw new GlobError(pattern, (error as Error).message);
  }
  try {
    new RegExp(output);
  } catch (error) {
    throw new GlobError(pattern, (error as Error).message.replace(/^Invalid regular expression: /, ''));
  }
  return output;
}

/** The glob as a RegExp matching a whole string (`python*` matches `python3`, not `mypython3`). */
export function globRegExp(pattern: string, options: GlobOptions = {}): RegExp {
  return new RegExp(`^(?:${globSource(pattern, options)})$`, options.nocase ? 'i' : '');
}

/** The sources of several globs joined in one anchored RegExp (one test for a list of names). */
export function globsRegExp(patterns: readonly string[], options: GlobOptions = {}): RegExp {
  const sources = patterns.map((pattern) => `(?:${globSource(pattern, options)})`);
  return new RegExp(`^(?:${sources.join('|')})$`, options.nocase ? 'i' : '');
}

/**
 * A repository path glob, matched as `.gitignore` matches (`server.index.exclude`,
 * `.gitattributes`): a pattern without `/` (other than a trailing one) matches a name at any depth;
 * one with `/` is rooted (a leading `/` only says so); a trailing `/` is a directory; and a pattern
 * matching a directory matches everything below it. Paths are repository-relative with `/`.
 */
export function pathGlobRegExp(pattern: string): RegExp {
  let body = pattern.endsWith('/') ? pattern.replace(/\/+$/, '') : pattern;
  const rooted = body.includes('/');
  body = body.replace(/^\/+/, '');
  if (body === '') throw new GlobError(pattern, 'the pattern names no path');
  return new RegExp(`^${rooted ? '' : '(?:.*/)?'}(?:${globSource(body)})(?:/.*)?$`);
}

/**
 * A list of path globs as one test: a path is matched when the last pattern that applies to it is
 * a plain one; `!pattern` re-includes what an earlier pattern matched (as in `.gitignore`).
 */
export function pathGlobFilter(patterns: readonly string[]): (path: string) => boolean {
  const rules = patterns.map((pattern) => {
    const negated = pattern.startsWith('!');
    return { negated, test: pathGlobRegExp(negated ? pattern.slice(1) : pattern) };
  });
  if (rules.length === 0) return () => false;
  if (!rules.some((rule) => rule.negated)) {
    const joined = new RegExp(rules.map((rule) => rule.test.source).join('|'));
    return (path) => joined.test(path);
  }
  return (path) => {
    for (let i = rules.length - 1; i >= 0; i--) if (rules[i]!.test.test(path)) return !rules[i]!.negated;
    return false;
  };
}

/** Why a path glob (as in {@link pathGlobFilter}, `!` allowed) cannot be compiled, or undefined. */
export function pathGlobProblem(pattern: string): string | undefined {
  try {
    pathGlobRegExp(pattern.startsWith('!') ? pattern.slice(1) : pattern);
    return undefined;
  } catch (error) {
    return error instanceof GlobError ? error.reason : (error as Error).message;
  }
}

/** A native path (`a\\b` on Windows) with `/` separators, the form globs and the index use. */
export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** `text` with every character a RegExp gives meaning to escaped, so it matches itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
