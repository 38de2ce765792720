import { formatKeyPath, type KeyPath } from './document.js';

/** `${NAME}` (NAME: letters, digits, underscore; not starting with a digit); `$${` is a literal `${`. */
const REFERENCE = /\$(\$)?\{([^}]*)\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface InterpolationIssue {
  path: string;
  message: string;
}

/**
 * Expands `${NAME}` from the environment in every string of `value` (objects and arrays walked,
 * other values kept). A reference to an unset variable, or one that is not a variable name, is an
 * issue naming the key path: a secret is never silently replaced by an empty string.
 */
export function interpolateEnv<T>(
  value: T,
  env: NodeJS.ProcessEnv,
  base: KeyPath = [],
): { value: T; issues: InterpolationIssue[] } {
  const issues: InterpolationIssue[] = [];
  const walk = (node: unknown, path: KeyPath): unknown => {
    if (typeof node === 'string') {
      return node.replace(REFERENCE, (whole, escaped: string | undefined, name: string) => {
        if (escaped) return whole.slice(1);
        if (!NAME.test(name)) {
          issues.push({
            path: formatKeyPath(path),
            message: `'\${${name}}' is not an environment variable reference (write $\${ for a literal \${)`,
          });
          return whole;
        }
        const found = env[name];
        if (found === undefined) {
          issues.push({ path: formatKeyPath(path), message: `environment variable ${name} is not set` });
          return whole;
        }
        return found;
      });
    }
    if (Array.isArray(node)) return node.map((item, i) => walk(item, [...path, i]));
    if (node !== null && typeof node === 'object')
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, [...path, k])]));
    return node;
  };
  return { value: walk(value, base) as T, issues };
}
