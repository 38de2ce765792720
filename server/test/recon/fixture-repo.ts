import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createPluginHost, loadConfig, silentLogger, type PluginHost } from '@agentgov/core';
import { makeTempDir, writeTree } from '@agentgov/core/testing';
import { openRepositoryIndex, type RepositoryIndex } from '../../src/index/repository-index.js';

/** The bundled plugins recon needs: language packs to index, the four retrievers to search. */
export const RECON_PLUGINS = [
  '@agentgov/plugin-language-typescript',
  '@agentgov/plugin-language-python',
  '@agentgov/plugin-language-java',
  '@agentgov/plugin-retriever-lexical',
  '@agentgov/plugin-retriever-term',
  '@agentgov/plugin-retriever-symbol',
  '@agentgov/plugin-retriever-graph',
];

/**
 * A small TypeScript service with eight subsystems, written for recon's gate tests: two
 * unrelated `validate` functions (billing, auth), one LRU cache, and a `value` parameter in
 * every subsystem so a vague task matches everywhere weakly.
 */
export const SERVICE_REPO: Record<string, string> = {
  'src/billing/invoice.ts': `/** Checks an invoice before it is sent. */
export function validate(invoice: { lines: number[]; value: number }): boolean {
  return computeTotal(invoice.lines) === invoice.value;
}

export function computeTotal(lines: number[]): number {
  return lines.reduce((sum, line) => sum + line, 0);
}
`,
  'src/auth/session.ts': `/** Checks a session token's signature and expiry. */
export function validate(token: { expires: number; value: string }): boolean {
  return token.expires > Date.now() && token.value.length > 0;
}

export function createSession(user: string): { user: string; value: string } {
  return { user, value: user.split('').reverse().join('') };
}
`,
  'src/cache/lru.ts': `/** A least-recently-used cache with a fixed capacity. */
export class LruCache {
  private entries = new Map<string, unknown>();
  constructor(private capacity: number) {}

  get(key: string): unknown {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: unknown): void {
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.evict();
  }

  /** Drops the least recently used entry. */
  evict(): void {
    const oldest = this.entries.keys().next().value;
    if (oldest !== undefined) this.entries.delete(oldest);
  }
}
`,
  'src/http/router.ts': `import { createSession } from '../auth/session.js';

export function route(path: string, value: string): string {
  return path + value;
}

export function login(user: string): string {
  return createSession(user).value;
}
`,
  'src/util/strings.ts': `export function slugify(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
`,
  'src/reports/summary.ts': `export function formatSummary(value: number): string {
  return 'total: ' + value;
}
`,
  'src/db/connection.ts': `export function openConnection(value: string): { url: string } {
  return { url: value };
}

export function closeConnection(conn: { url: string }): void {
  conn.url = '';
}
`,
  'src/logging/logger.ts': `export function logMessage(level: string, value: string): string {
  return level + ': ' + value;
}
`,
};

/** The server package directory (tests run from dist/test/recon): plugins resolve from its install. */
const SERVER_DIR = fileURLToPath(new URL('../../../', import.meta.url));

export interface FixtureRepo {
  root: string;
  index: RepositoryIndex;
  host: PluginHost;
}

export function gitInit(root: string): void {
  const git = (...args: string[]) => execFileSync('git', ['-C', root, ...args], { stdio: 'ignore' });
  git('init', '-q');
  git('add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.invalid', 'commit', '-q', '-m', 'fixture');
}

export async function reconHost(): Promise<PluginHost> {
  const loaded = loadConfig({ cwd: makeTempDir('agentgov-cwd-') });
  return createPluginHost({
    loaded,
    bundled: RECON_PLUGINS,
    resolveFrom: [SERVER_DIR],
    host: 'server',
    logger: silentLogger,
  });
}

/** Writes the files, commits them, and builds the real index with the real language packs. */
export async function fixtureRepo(files: Record<string, string>): Promise<FixtureRepo> {
  const root = makeTempDir('agentgov-recon-');
  writeTree(root, files);
  gitInit(root);
  const host = await reconHost();
  const index = await openRepositoryIndex({
    root,
    languages: host.registries.languages.values(),
    logger: silentLogger,
  });
  await index.ready;
  return { root, index, host };
}
