import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError, argsOfScript, splitInlineValue } from '@agentgov/core';
import { parse as parseYaml } from 'yaml';

/** The parts of a project's mocha setup that decide which files run and how. */
export interface MochaSetup {
  /** Spec entries (files, directories or globs), relative to the root. */
  spec: string[];
  extensions: string[];
  recursive: boolean;
  ignore: string[];
  /**
   * Options to pass through on every run (`--require`, `--check-leaks`, `--timeout`, `--ui`...), minus spec and
   * reporter.
   */
  passThrough: string[];
  /** Where the setup came from, for messages. */
  sources: string[];
}

export const MOCHARC_FILES = [
  '.mocharc.js',
  '.mocharc.cjs',
  '.mocharc.yaml',
  '.mocharc.yml',
  '.mocharc.jsonc',
  '.mocharc.json',
];

/** Options whose value is the next argument. */
const VALUED = new Set([
  '--require',
  '-r',
  '--extension',
  '--spec',
  '--ignore',
  '--exclude',
  '--ui',
  '-u',
  '--timeout',
  '-t',
  '--slow',
  '-s',
  '--reporter',
  '-R',
  '--reporter-option',
  '--reporter-options',
  '-O',
  '--grep',
  '-g',
  '--fgrep',
  '-f',
  '--config',
  '--package',
  '--file',
  '--node-option',
  '-n',
  '--retries',
  '--jobs',
  '-j',
]);
/** Options agentgov sets itself on every run. */
const OWN = new Set([
  '--reporter',
  '-R',
  '--reporter-option',
  '--reporter-options',
  '-O',
  '--grep',
  '-g',
  '--fgrep',
  '-f',
  '--watch',
  '-w',
  '--parallel',
  '-p',
  '--jobs',
  '-j',
  '--bail',
  '-b',
]);

/** The mocha arguments of the first `mocha` invocation in a package.json script, if any. */
export function mochaArgsOfScript(script: string): string[] | undefined {
  return argsOfScript(script, (word) => /(^|\/)(_?mocha)(\.js)?$/.test(word));
}

function asList(value: unknown): string[] {
  if (value === undefined || value === null || value === false) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** Reads `.mocharc.*` (data files only: a `.js` config is loaded by mocha itself) and package.json `mocha`. */
function readRcFile(root: string): { options: Record<string, unknown>; source?: string } {
  for (const name of MOCHARC_FILES) {
    const file = join(root, name);
    if (!existsSync(file)) continue;
    if (name.endsWith('.js') || name.endsWith('.cjs')) return { options: {}, source: name };
    try {
      const text = readFileSync(file, 'utf8').replace(/^\s*\/\/.*$/gm, '');
      const parsed = parseYaml(text) as unknown;
      if (parsed !== null && typeof parsed !== 'object') throw new Error('not an object');
      return { options: (parsed ?? {}) as Record<string, unknown>, source: name };
    } catch (error) {
      throw new AgentgovError('E_TEST_CONFIG_INVALID', `mocha: ${name} cannot be read: ${(error as Error).message}`, {
        runner: 'mocha',
        file: name,
      });
    }
  }
  return { options: {} };
}

function readPackageJson(root: string): {
  mocha?: Record<string, unknown>;
  scripts?: Record<string, string>;
  devDependencies?: Record<string, string>;
  dependencies?: Record<string, string>;
} {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as never;
  } catch (error) {
    throw new AgentgovError(
      'E_TEST_CONFIG_INVALID',
      `mocha: package.json cannot be read: ${(error as Error).message}`,
      { runner: 'mocha', file: 'package.json' },
    );
  }
}

/** Whether the project uses mocha: a `.mocharc.*`, a `mocha` key, a script calling mocha, or a mocha dependency. */
export function usesMocha(root: string): boolean {
  if (MOCHARC_FILES.some((name) => existsSync(join(root, name)))) return true;
  let pkg: ReturnType<typeof readPackageJson>;
  try {
    pkg = readPackageJson(root);
  } catch {
    return false;
  }
  if (pkg.mocha) return true;
  if (Object.values(pkg.scripts ?? {}).some((script) => mochaArgsOfScript(script) !== undefined)) return true;
  return Boolean(pkg.devDependencies?.['mocha'] ?? pkg.dependencies?.['mocha']);
}

/** Merges, as mocha does, CLI args of the `test` script over `.mocharc.*` over package.json `mocha`. */
export function readMochaSetup(root: string): MochaSetup {
  const pkg = readPackageJson(root);
  const rc = readRcFile(root);
  const sources: string[] = [];
  const options: Record<string, unknown> = { ...(pkg.mocha ?? {}), ...rc.options };
  if (pkg.mocha) sources.push('package.json#mocha');
  if (rc.source) sources.push(rc.source);
  const passThrough: string[] = [];
  for (const key of ['require', 'ui', 'timeout', 'file'])
    for (const value of asList(options[key])) passThrough.push(`--${key}`, value);
  for (const key of [
    'check-leaks',
    'checkLeaks',
    'exit',
    'allow-uncaught',
    'async-only',
    'forbid-only',
    'forbid-pending',
  ]) {
    if (options[key] === true) passThrough.push(`--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
  }
  let spec = asList(options['spec']);
  let extensions = asList(options['extension']);
  let recursive = options['recursive'] === true;
  const ignore = asList(options['ignore'] ?? options['exclude']);
  const script = ['test', 'test:unit', 'test-ci']
    .map((name) => pkg.scripts?.[name])
    .find((s) => s !== undefined && mochaArgsOfScript(s) !== undefined);
  if (script) {
    sources.push('package.json#scripts');
    const args = mochaArgsOfScript(script)!;
    const positional: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const [flag, inline] = splitInlineValue(arg);
      const value = VALUED.has(flag) ? (inline ?? args[++i]) : undefined;
      if (!flag.startsWith('-')) positional.push(arg);
      else if (flag === '--spec') positional.push(value ?? '');
      else if (flag === '--extension') extensions.push(value ?? '');
      else if (flag === '--ignore' || flag === '--exclude') ignore.push(value ?? '');
      else if (flag === '--recursive') recursive = true;
      else if (OWN.has(flag)) continue;
      else passThrough.push(flag, ...(value !== undefined ? [value] : []));
    }
    if (positional.length) spec = positional;
  }
  if (!spec.length) spec = ['./test'];
  if (!extensions.length) extensions = ['js', 'cjs', 'mjs'];
  return { spec, extensions: extensions.map((e) => e.replace(/^\./, '')), recursive, ignore, passThrough, sources };
}
