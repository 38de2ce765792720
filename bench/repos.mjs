// The repositories a bench runs on: `name` (under bench/.work/) or `name=dir` arguments,
// defaulting to zod, vue and sympy checked out under bench/.work/ (see each bench's RESULTS.md).
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const WORK_DIR = fileURLToPath(new URL('./.work', import.meta.url));

export function benchRepos(args = process.argv.slice(2), defaults = ['zod', 'vue', 'sympy']) {
  return (args.length > 0 ? args : defaults).map((arg) => {
    const [name, dir] = arg.includes('=') ? arg.split('=') : [arg, join(WORK_DIR, arg)];
    return { name, dir: resolve(dir) };
  });
}
