// The repositories a bench runs on: `name` (under bench/.work/) or `name=dir` arguments,
// defaulting to zod, vue and sympy checked out under bench/.work/ (see each bench's RESULTS.md).
import { delimiter, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORK_DIR = fileURLToPath(new URL('./.work', import.meta.url));

export function benchRepos(args = process.argv.slice(2), defaults = ['zod', 'vue', 'sympy']) {
  const repos = (args.length > 0 ? args : defaults).map((arg) => {
    const [name, dir] = arg.includes('=') ? arg.split('=') : [arg, join(WORK_DIR, arg)];
    return { name, dir: resolve(dir) };
  });
  // A tree extracted with `git archive` under bench/.work has no .git of its own: git would walk up to this
  // repository, whose .gitignore ignores bench/.work, and the index would see no file at all. Stop git there (this
  // process and the ones it starts), so such a tree is the plain directory it is.
  if (repos.some(({ dir }) => !relative(WORK_DIR, dir).startsWith('..'))) {
    const ceilings = (process.env.GIT_CEILING_DIRECTORIES ?? '').split(delimiter).filter(Boolean);
    if (!ceilings.includes(WORK_DIR)) process.env.GIT_CEILING_DIRECTORIES = [...ceilings, WORK_DIR].join(delimiter);
  }
  return repos;
}
