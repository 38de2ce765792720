import { existsSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { AgentgovError } from '@agentgov/core';

/** A path argument after the safety check: absolute on disk and relative to the repository root (POSIX separators). */
export interface RepoPath {
  absolute: string;
  relative: string;
}

function inside(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * The real path of `target`, or of its nearest existing ancestor joined with the missing rest (a file about to be
 * created).
 */
function realOrNearest(target: string): string {
  let existing = target;
  const missing: string[] = [];
  while (!existsSync(existing)) {
    const parent = dirname(existing);
    if (parent === existing) break;
    missing.unshift(existing.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    existing = parent;
  }
  return resolve(realpathSync(existing), ...missing);
}

/** The root is not named: where the repository lives on this machine is not the caller's business. */
function refuse(input: string, why: string): AgentgovError {
  return new AgentgovError('E_PATH_OUTSIDE_REPO', `path '${input}' resolves outside the repository (${why})`, {
    path: input,
    reason: why,
  });
}

/**
 * Resolves a path argument against the repository root and refuses anything outside it: an
 * absolute path elsewhere, a climb with `..`, or a symlink (in any component) pointing out.
 * Tools call this for every path they are given, before touching the file system.
 */
export function resolveRepoPath(root: string, input: string): RepoPath {
  if (typeof input !== 'string' || input.length === 0)
    throw new AgentgovError('E_INVALID_ARGUMENT', 'a path argument must be a non-empty string', { path: input });
  if (input.includes('\0'))
    throw new AgentgovError('E_INVALID_ARGUMENT', 'a path argument must not contain NUL bytes', { path: input });
  // The root may be given through a symlink (e.g. /tmp on macOS): accept paths lexically under either spelling.
  const bases = [realpathSync(root), resolve(root)];
  const base = bases.find((b) => inside(b, resolve(b, input)));
  if (!base) throw refuse(input, isAbsolute(input) ? 'absolute path outside the repository' : 'climbs out with ..');
  const lexical = resolve(base, input);
  const real = realOrNearest(lexical);
  if (!inside(bases[0]!, real)) throw refuse(input, 'a symlink points outside the repository');
  return { absolute: lexical, relative: relative(base, lexical).split(sep).join('/') };
}
