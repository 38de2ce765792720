import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { AgentgovError, argsOfScript, splitInlineValue } from '@agentgov/core';
import { toPosix } from '@agentgov/core/glob';
import { globSync } from 'tinyglobby';

/** What a project's `node --test` script says: which files, and the node options every run needs. */
export interface NodeTestSetup {
  /** Positional patterns (files, directories, globs); empty means node's defaults from the root. */
  patterns: string[];
  /** Options to start node with (`--import tsx`, `--require ./setup.cjs`, `--experimental-*`...). */
  nodeOptions: string[];
  /** The script it came from (`package.json#scripts.test`), for messages. */
  source: string;
  /** Whether the options load a TypeScript loader or strip types (then `.ts` files are tests too). */
  typescript: boolean;
}

/** Node options whose value is the next word. */
const VALUED = new Set([
  '--import',
  '--require',
  '-r',
  '--loader',
  '--experimental-loader',
  '--conditions',
  '-C',
  '--env-file',
  '--test-reporter',
  '--test-reporter-destination',
  '--test-name-pattern',
  '--test-skip-pattern',
  '--test-concurrency',
  '--test-timeout',
  '--test-shard',
  '--test-coverage-include',
  '--test-coverage-exclude',
  '--watch-path',
]);
/** Options agentgov sets or that make no sense for one run. */
const OWN = new RegExp(
  String.raw`^--(test|watch|test-(reporter|reporter-destination|` +
    String.raw`name-pattern|skip-pattern|only|concurrency|` +
    String.raw`shard|timeout|coverage-.*)|experimental-test-coverage|` +
    String.raw`watch-path)$`,
);

/** The words after `node` of the first `node ... --test ...` command in a script, if any. */
export function nodeTestArgsOfScript(script: string): string[] | undefined {
  return argsOfScript(script, (word, rest) => /(^|\/)node(\.exe)?$/.test(word) && rest.includes('--test'));
}

function readScripts(root: string): Record<string, string> {
  const file = join(root, 'package.json');
  if (!existsSync(file)) return {};
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};
  } catch (error) {
    throw new AgentgovError('E_TEST_CONFIG_INVALID', `node: package.json cannot be read: ${(error as Error).message}`, {
      runner: 'node',
      file: 'package.json',
    });
  }
}

const SCRIPT_NAMES = ['test', 'test:unit', 'test:node'];

/** Whether the project runs its tests with `node --test` (a package.json script says so). */
export function usesNodeTest(root: string): boolean {
  try {
    return Object.values(readScripts(root)).some((script) => nodeTestArgsOfScript(script) !== undefined);
  } catch {
    return false;
  }
}

/** Reads the `node --test` script (`test`, else another script calling it). */
export function readNodeTestSetup(root: string): NodeTestSetup {
  const scripts = readScripts(root);
  const name = [...SCRIPT_NAMES, ...Object.keys(scripts)].find(
    (key) => scripts[key] !== undefined && nodeTestArgsOfScript(scripts[key]!) !== undefined,
  );
  if (!name)
    throw new AgentgovError('E_TEST_CONFIG_INVALID', `node: no package.json script runs \`node --test\` in ${root}`, {
      runner: 'node',
      file: 'package.json',
    });
  const args = nodeTestArgsOfScript(scripts[name]!)!;
  const patterns: string[] = [];
  const nodeOptions: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const [flag, inline] = splitInlineValue(arg);
    const value = VALUED.has(flag) && inline === undefined ? args[++i] : inline;
    if (!flag.startsWith('-')) patterns.push(arg);
    else if (OWN.test(flag)) continue;
    else nodeOptions.push(value !== undefined ? `${flag}=${value}` : flag);
  }
  const typescript = nodeOptions.some(
    (option) =>
      /^--(import|require|-r|loader|experimental-loader)=(tsx|ts-node|@swc-node|@esbuild-kit|esbuild-register)/.test(
        option,
      ) || /strip-types|transform-types/.test(option),
  );
  return { patterns, nodeOptions, source: `package.json#scripts.${name}`, typescript };
}

/** Node's default test file patterns (`node --test` without arguments), with `.ts` when a TypeScript loader is set. */
export function defaultPatterns(typescript: boolean): string[] {
  const ext = typescript ? '{js,cjs,mjs,ts,cts,mts}' : '{js,cjs,mjs}';
  return [
    `**/*.test.${ext}`,
    `**/*-test.${ext}`,
    `**/*_test.${ext}`,
    `**/test-*.${ext}`,
    `**/test.${ext}`,
    `**/test/**/*.${ext}`,
  ];
}

/** The files the setup selects: directories expand to node's default patterns under them. */
export function testFiles(root: string, setup: NodeTestSetup): string[] {
  const patterns: string[] = [];
  const defaults = defaultPatterns(setup.typescript);
  if (!setup.patterns.length) patterns.push(...defaults);
  for (const entry of setup.patterns) {
    const clean = entry.replace(/^\.\//, '').replace(/\/$/, '');
    const absolute = join(root, clean);
    if (!(existsSync(absolute) && statSync(absolute).isDirectory())) patterns.push(clean);
    else if (clean === '.') patterns.push(...defaults);
    else {
      patterns.push(...defaults.map((pattern) => `${clean}/${pattern}`));
      // Node runs every script inside a directory named `test`.
      if (/(^|\/)test$/.test(clean))
        patterns.push(`${clean}/**/*.${setup.typescript ? '{js,cjs,mjs,ts,cts,mts}' : '{js,cjs,mjs}'}`);
    }
  }
  const files = globSync(patterns, {
    cwd: root,
    ignore: ['**/node_modules/**'],
    onlyFiles: true,
    expandDirectories: false,
  });
  return [...new Set(files.map(toPosix))].sort();
}
