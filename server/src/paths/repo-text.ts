import { readFileSync } from 'node:fs';
import { resolveRepoPath } from './repo-path.js';

/**
 * What a language pack may read (`PackModulesContext.readText`): a repository file's text by its
 * repository-relative path, or null when it is missing, unreadable or outside the repository — a
 * `..` climb, an absolute path elsewhere, or a symlink pointing out (resolveRepoPath's rules).
 */
export function repoTextReader(root: string): (path: string) => string | null {
  return (path) => {
    try {
      return readFileSync(resolveRepoPath(root, path).absolute, 'utf8');
    } catch {
      return null;
    }
  };
}
