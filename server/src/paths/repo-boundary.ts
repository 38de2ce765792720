import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, sep } from 'node:path';

/** Where a file in the work tree really leads, following every symlink on the way. */
export type Whereabouts = 'inside' | 'outside' | 'loop' | 'missing';

/** Skip reasons the index counts (recon_scout `index.skipped`) for files it will not follow. */
export const SYMLINK_OUTSIDE = 'symlink-outside-repo';
export const SYMLINK_LOOP = 'symlink-loop';

/**
 * Whether `absolute` resolves to a path inside `realRoot` (the repository root's real path). A
 * symlink in any component that points out of the repository makes it `outside`; a cycle of
 * links (`x/up -> ..` reached through itself, `a -> b -> a`) is `loop`. Never throws.
 */
export async function whereabouts(realRoot: string, absolute: string): Promise<Whereabouts> {
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'ELOOP' ? 'loop' : 'missing';
  }
  const rel = relative(realRoot, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel)) ? 'inside' : 'outside';
}
