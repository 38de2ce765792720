/**
 * The gate cache: what a full start (config stack, plugin host, YAML rules validated by ajv) found,
 * kept so that the next `gate --stdin` without `watch` can assess with the same config, rules and
 * plugins without paying for that start again (its start-up is a budget; see bench/gate).
 *
 * One file per configuration, `$AGENTGOV_HOME/cache/gate/<key>.json` (0600, in 0700 directories).
 * The key is a SHA-256 over everything that decides what a full start would load: the cache
 * format, the CLI's package.json (version, bundled plugins), the rule schema's and rule reader's
 * build, the config files that resolution merges (the user's and the project's: path, content)
 * and, with a project's config, the trust store (which decides what the project may add). The
 * entry then records what cannot be keyed before reading it: every rule file's SHA-256 and every
 * loaded plugin's entry file (size, mtime). Any difference, a file that is not ours or not
 * private, or one that does not parse, and the cache is not used: the gate takes the full start,
 * which writes a fresh entry. So an edited rule file, a newly configured plugin or a rebuilt one is
 * never missed, and a corrupt entry is rebuilt, never trusted.
 *
 * Only plugins whose code can change a verdict (they tap `assess` or `gate`, or provide
 * `riskRules`) are listed as `riskPlugins`; the lean path loads those and no other.
 * Node built-ins and this package's lean modules only: gate path.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentgovConfig } from '@agentgov/core';
import {
  agentgovHome,
  ensurePrivateHome,
  makeDirectories,
  PRIVATE_DIR_MODE,
  PRIVATE_FILE_MODE,
} from '@agentgov/core/paths';
import {
  DEFAULT_RULE_FILES,
  defaultRulesDir,
  needlesFromList,
  ruleSetFromSpecs,
  type RuleSet,
  type RuleSourceSpec,
} from '../risk/rule-compile.js';
import { resolveConfigLayersCheaply } from './config-file.js';

/** Bump when the entry's shape or the meaning of a cached spec changes. */
const CACHE_FORMAT = 4;
/** How an entry's stamp follows its body: `<body without its closing brace>,"stamp":"<hex>"}`. */
const STAMP_FIELD = ',"stamp":"';
/** Entries kept; the oldest beyond this are removed when one is written. */
const MAX_ENTRIES = 32;

export interface CachedPlugin {
  name: string;
  specifier: string;
  origin: 'config' | 'bundled';
  /** Absolute entry file, with its size and mtime when the entry was written. */
  file: string;
  size: number;
  mtimeMs: number;
  /** Whether it taps `assess`/`gate` or provides `riskRules`: loaded by the lean path. */
  risk: boolean;
  /** Whether it provides `riskRules` (then its rules are read live, not from the cache). */
  riskRules: boolean;
}

export interface GateCacheEntry {
  format: number;
  key: string;
  written_at: string;
  /** The effective config after the project policy, and what the policy ignored. */
  config: { file: string | null; source: string; baseDir: string; config: AgentgovConfig };
  ignored: string[];
  plugins: CachedPlugin[];
  /** The validated rule specs in compile order; files carry the SHA-256 of the bytes validated. */
  rules: RuleSourceSpec[];
  /**
   * The gate formats the loaded plugins' frameworks bring that can be loaded alone: name → the URL
   * of the module exporting it as `gateFormat` (its `module`). A hook call in one of them outside
   * the gate bundle imports that module instead of starting the plugin host.
   */
  formats: Record<string, string>;
  /**
   * The needles of the rules' regular expressions (risk/needles.ts), in the order of `ruleRegexSources` over the
   * rules' specs; null where an expression has none.
   */
  needles: Array<string[] | null>;
}

/** The entry's rules compiled as a full start compiles them, with the needles it found. */
export function cachedRuleSet(entry: GateCacheEntry): RuleSet {
  return ruleSetFromSpecs(entry.rules, needlesFromList(entry.rules, entry.needles));
}

export const gateCacheDir = (env: NodeJS.ProcessEnv): string => join(agentgovHome(env), 'cache', 'gate');

const sha256 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');

function fileDigest(file: string | null): string {
  if (!file) return 'none';
  try {
    return sha256(readFileSync(file));
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

function statStamp(url: URL): string {
  try {
    const stat = statSync(url);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** The key of the configuration a gate call in `cwd` would load, computed without loading it. */
export function gateCacheKey(cwd: string, env: NodeJS.ProcessEnv): string {
  const { user, userSource, project } = resolveConfigLayersCheaply(cwd, env);
  const parts = [
    `format ${CACHE_FORMAT}`,
    `cli ${fileDigest(fileURLToPath(new URL('../../../package.json', import.meta.url)))}`,
    `schema ${statStamp(new URL('../risk/rule-schema.js', import.meta.url))} ` +
      `${statStamp(new URL('../risk/rules.js', import.meta.url))} ` +
      `${statStamp(new URL('../config-trust.js', import.meta.url))}`,
    `user ${userSource ?? 'none'} ${user ?? ''} ${fileDigest(user)}`,
    `project ${project ?? ''} ${fileDigest(project)}`,
  ];
  // What a project's config may do depends on the trust store.
  if (project) parts.push(`trust ${fileDigest(join(agentgovHome(env), 'trust.json'))}`);
  return sha256(parts.join('\n'));
}

/** `tampered`: the entry was there but not what we wrote (say so, not only in a trace). */
export type GateCacheRead = { entry: GateCacheEntry } | { stale: string; tampered?: boolean };

/** The entry for `key` when it exists, is private and ours, parses and still matches every file it names. */
export function readGateCache(key: string, env: NodeJS.ProcessEnv): GateCacheRead {
  const file = join(gateCacheDir(env), `${key}.json`);
  let text: string;
  try {
    const stat = lstatSync(file);
    if (!stat.isFile()) return { stale: `${file} is not a regular file` };
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid())
      return { stale: `${file} is not owned by this user` };
    if ((stat.mode & 0o077) !== 0) return { stale: `${file} is readable or writable by others` };
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return {
      stale:
        (error as NodeJS.ErrnoException).code === 'ENOENT'
          ? 'no cache entry for this configuration'
          : `${file} cannot be read: ${(error as Error).message}`,
    };
  }
  let entry: GateCacheEntry;
  try {
    entry = JSON.parse(text) as GateCacheEntry;
  } catch {
    return { stale: `${file} is corrupt (not JSON)` };
  }
  if (!isEntry(entry) || entry.format !== CACHE_FORMAT || entry.key !== key)
    return { stale: `${file} is corrupt or of another format` };
  // Self-verifying: the stamp, last in the file, is an HMAC with a private per-user key over the bytes before it (as
  // written), and the entry must hold every shipped rule file and every configured one. An edited entry (`"rules": []`)
  // is refused and rebuilt, and said so: it never silently turns rules off.
  const at = text.lastIndexOf(STAMP_FIELD);
  const secret = at < 0 || !text.endsWith('"}') ? undefined : stampKey(env, false);
  const expected = secret && stampOf(`${text.slice(0, at)}}`, secret);
  const stamp = (entry as GateCacheEntry & { stamp?: unknown }).stamp;
  if (typeof stamp !== 'string' || expected === undefined || !safeEqual(stamp, expected)) {
    return {
      stale:
        `${file} does not match its stamp (edited, or written with another key): ` +
        `not used, rebuilt from the rule files`,
      tampered: true,
    };
  }
  const missing = requiredRuleFiles(entry).find((required) => !entry.rules.some((source) => source.file === required));
  if (missing)
    return { stale: `${file} lacks the rule file ${missing}: not used, rebuilt from the rule files`, tampered: true };
  for (const source of entry.rules) {
    if (!source.file) continue;
    if (fileDigest(source.file) !== source.sha256) return { stale: `rule file ${source.file} changed` };
  }
  for (const plugin of entry.plugins) {
    try {
      const stat = statSync(plugin.file);
      if (stat.size !== plugin.size || stat.mtimeMs !== plugin.mtimeMs)
        return { stale: `plugin ${plugin.name} (${plugin.file}) changed` };
    } catch {
      return { stale: `plugin ${plugin.name} (${plugin.file}) is gone` };
    }
  }
  return { entry };
}

function isEntry(value: unknown): value is GateCacheEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<GateCacheEntry>;
  return (
    typeof entry.key === 'string' &&
    typeof entry.config?.config === 'object' &&
    entry.config.config !== null &&
    Array.isArray(entry.ignored) &&
    entry.ignored.every((note) => typeof note === 'string') &&
    Array.isArray(entry.plugins) &&
    entry.plugins.every(
      (p) =>
        typeof p?.file === 'string' &&
        typeof p.name === 'string' &&
        typeof p.specifier === 'string' &&
        typeof p.size === 'number' &&
        typeof p.mtimeMs === 'number',
    ) &&
    typeof entry.formats === 'object' &&
    entry.formats !== null &&
    Object.values(entry.formats).every((module) => typeof module === 'string') &&
    Array.isArray(entry.needles) &&
    entry.needles.every(
      (needles) =>
        needles === null ||
        (Array.isArray(needles) && needles.every((needle) => typeof needle === 'string' && needle !== '')),
    ) &&
    Array.isArray(entry.rules) &&
    entry.rules.every(
      (r) =>
        typeof r?.origin === 'string' &&
        typeof r.spec === 'object' &&
        r.spec !== null &&
        (r.file === undefined || typeof r.sha256 === 'string'),
    )
  );
}

/** Writes an entry (temp file + rename, 0600 in 0700) and removes the oldest beyond MAX_ENTRIES. */
export function writeGateCache(entry: Omit<GateCacheEntry, 'format' | 'written_at'>, env: NodeJS.ProcessEnv): string {
  const home = ensurePrivateHome(env);
  const dir = gateCacheDir(env);
  makeDirectories(dir, PRIVATE_DIR_MODE);
  chmodSync(join(home, 'cache'), PRIVATE_DIR_MODE);
  chmodSync(dir, PRIVATE_DIR_MODE);
  const file = join(dir, `${entry.key}.json`);
  const temp = join(dir, `.${process.pid}.${Date.now()}.tmp`);
  const body = JSON.stringify({ format: CACHE_FORMAT, written_at: new Date().toISOString(), ...entry });
  const secret = stampKey(env, true);
  if (!secret) throw new Error('the gate cache stamp key is not private or not ours');
  const stamp = stampOf(body, secret);
  writeFileSync(temp, `${body.slice(0, -1)}${STAMP_FIELD}${stamp}"}`, { mode: PRIVATE_FILE_MODE });
  renameSync(temp, file);
  prune(dir);
  return file;
}

/**
 * The per-user key the entries are stamped with: `$AGENTGOV_HOME/cache/gate/.stamp-key` (0600, ours), made on first
 * write.
 */
function stampKey(env: NodeJS.ProcessEnv, create: boolean): Buffer | undefined {
  const file = join(gateCacheDir(env), '.stamp-key');
  try {
    const stat = lstatSync(file);
    if (
      !stat.isFile() ||
      (typeof process.getuid === 'function' && stat.uid !== process.getuid()) ||
      (stat.mode & 0o077) !== 0
    )
      return undefined;
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !create) return undefined;
  }
  try {
    writeFileSync(file, randomBytes(32), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
  } catch (error) {
    // Another gate made it first: use that one (checked as above).
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return stampKey(env, false);
  }
  return readFileSync(file);
}

const stampOf = (body: string, key: Buffer): string => createHmac('sha256', key).update(body).digest('hex');

const safeEqual = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The rule files a full start reads: every shipped one and the config's own. */
function requiredRuleFiles(entry: GateCacheEntry): string[] {
  const shipped = DEFAULT_RULE_FILES.map((name) => join(defaultRulesDir(), name));
  const base = entry.config.baseDir;
  return [...shipped, ...entry.config.config.risk.rules.map((rule) => resolvePath(base, rule))];
}

function prune(dir: string): void {
  try {
    const entries = readdirSync(dir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => ({ file: join(dir, name), mtime: statSync(join(dir, name)).mtimeMs }))
      .sort((a, b) => b.mtime - a.mtime);
    for (const old of entries.slice(MAX_ENTRIES)) rmSync(old.file, { force: true });
  } catch {
    // Pruning is housekeeping: a failure leaves an extra entry, nothing else.
  }
}
