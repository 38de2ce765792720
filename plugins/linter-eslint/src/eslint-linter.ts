import { mkdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { toPosix } from '@agentgov/core/glob';
import type { LintApplicability, LintProblem, LintRequest, LintResult, Linter } from '@agentgov/core/contracts';
import type { ESLint } from 'eslint';
import { findEslintConfig, FLAT_CONFIG_FILES, LEGACY_CONFIG_FILES, type EslintConfigFile } from './eslint-config.js';
import { loadEslint, type LoadedEslint } from './eslint-loader.js';

/** Where the content-keyed cache lives: the repository's own `.agentgov/`, never the user's home. */
export const CACHE_FILE = join('.agentgov', 'eslint-cache');

const NO_CONFIG =
  `no ESLint config in the repository root (none of ` +
  `${[...FLAT_CONFIG_FILES, ...LEGACY_CONFIG_FILES].join(', ')}, nor \`eslintConfig\` ` +
  `in package.json)`;

function toolOf(eslint: LoadedEslint, config: EslintConfigFile): string {
  return `eslint ${eslint.version} (${eslint.origin}), config ${config.file}`;
}

function problemsOf(root: string, results: ESLint.LintResult[]): LintProblem[] {
  const problems: LintProblem[] = [];
  for (const result of results) {
    const path = toPosix(relative(root, result.filePath));
    for (const message of result.messages) {
      problems.push({
        path,
        line: message.line ?? 1,
        column: message.column ?? 1,
        rule: message.ruleId ?? (message.fatal ? 'parse-error' : 'eslint'),
        severity: message.severity === 2 ? 'error' : 'warning',
        message: message.message,
        fixable: message.fix !== undefined,
      });
    }
  }
  return problems;
}

/**
 * ESLint through its Node API (`ESLint#lintFiles`, `ESLint.outputFixes`). It uses the
 * repository's own `eslint` package when the repository has one (resolved from its root), else
 * agentgov's, always with the repository's own config; the cache is keyed by file content and kept
 * in the repository's `.agentgov/`. A repository without an ESLint config is not linted: the
 * linter says it does not apply, and why.
 */
export function createEslintLinter(): Linter {
  return {
    name: 'eslint',
    async applicability(root: string): Promise<LintApplicability> {
      const config = findEslintConfig(root);
      if (!config) return { applies: false, reason: NO_CONFIG };
      return { applies: true, tool: toolOf(await loadEslint(root, config.format), config) };
    },
    async lint(root: string, request: LintRequest): Promise<LintResult> {
      const config = findEslintConfig(root);
      if (!config) throw new Error(NO_CONFIG);
      const loaded = await loadEslint(root, config.format);
      mkdirSync(join(root, '.agentgov'), { recursive: true });
      const eslint = new loaded.ESLint({
        cwd: root,
        fix: request.fix,
        cache: true,
        cacheLocation: join(root, CACHE_FILE),
        cacheStrategy: 'content',
        errorOnUnmatchedPattern: false,
      });
      request.signal?.throwIfAborted();
      const patterns = request.files ? await notIgnored(eslint, root, request.files) : ['.'];
      const results = patterns.length ? await eslint.lintFiles(patterns) : [];
      if (request.fix) await loaded.ESLint.outputFixes(results);
      return {
        problems: problemsOf(root, results),
        fixedFiles: results.filter((r) => r.output !== undefined).map((r) => toPosix(relative(root, r.filePath))),
        filesChecked: results.length,
        tool: toolOf(loaded, config),
      };
    },
  };
}

/** Named files the config ignores are left out (ESLint would otherwise warn "File ignored"). */
async function notIgnored(eslint: ESLint, root: string, files: string[]): Promise<string[]> {
  const kept: string[] = [];
  for (const file of files) if (!(await eslint.isPathIgnored(join(root, file)))) kept.push(file);
  return kept;
}
