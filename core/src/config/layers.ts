/**
 * The user's own configuration is the floor; a project's `./agentgov.yaml` merges over it and may
 * only tighten. This module merges a project layer over the user's effective configuration key by
 * key, refusing (and saying so, naming the key and the file) every value that would loosen it, and
 * records where each effective value came from (`config show`).
 *
 * What "tighter" means, per key (keys not listed are free: a project may set them):
 *  - `gate.on_unavailable`: allow < ask < deny; only an equal or stricter value is taken;
 *  - `gate.timeout_ms`, `gate.deadline_ms`: only a shorter wait (the answer comes sooner, fail-closed);
 *  - `risk.rules`, `plugins`: the project's entries are added after the user's; a user's entry is
 *    never removed, and a project entry naming a plugin the user configured is ignored (its
 *    options could switch that plugin's policy off);
 *  - `bundled_plugins`: a project may not stop bundled plugins that the floor loads; when its own
 *    plugins would turn `auto` off, `all` keeps them;
 *  - `governance.db`, `score.listen`, `score.token`: the user's only (where records go, what the
 *    Score API exposes and to whom);
 *  - `score.enabled`: a project may switch it off, never on.
 */
import { isPathSpecifier } from '../plugins/resolve.js';
import type { AgentgovConfig, PluginConfigEntry } from './types.js';
import { isAbsolute, resolve } from 'node:path';

export type ConfigOriginKind = 'default' | 'user' | 'project';

export interface ConfigOrigin {
  from: ConfigOriginKind;
  /** The file the value was read from (null for the built-in defaults). */
  file: string | null;
}

const STRICTNESS: Record<string, number> = { allow: 0, ask: 1, deny: 2 };

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const specifierOf = (entry: PluginConfigEntry): string => (typeof entry === 'string' ? entry : entry.plugin);

/** Every leaf key path of a value (arrays are leaves), dotted. */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (!isPlainObject(value)) return prefix ? [prefix] : [];
  const out: string[] = [];
  for (const [key, child] of Object.entries(value)) out.push(...leafPaths(child, prefix ? `${prefix}.${key}` : key));
  return out;
}

/** Marks every leaf of `layer` as coming from `origin`. */
export function markOrigins(origins: Record<string, ConfigOrigin>, layer: unknown, origin: ConfigOrigin): void {
  for (const path of leafPaths(layer)) origins[path] = origin;
}

/** Rule files and path plugins of a layer made absolute against its own directory. */
export function absolutizeLayer(value: Record<string, unknown>, baseDir: string): Record<string, unknown> {
  const out = { ...value };
  const risk = out['risk'];
  if (isPlainObject(risk) && Array.isArray(risk['rules'])) {
    out['risk'] = {
      ...risk,
      rules: (risk['rules'] as unknown[]).map((r) =>
        typeof r === 'string' && !isAbsolute(r) ? resolve(baseDir, r) : r,
      ),
    };
  }
  if (Array.isArray(out['plugins'])) {
    out['plugins'] = (out['plugins'] as PluginConfigEntry[]).map((entry) => {
      const specifier = specifierOf(entry);
      if (!isPathSpecifier(specifier) || isAbsolute(specifier)) return entry;
      return typeof entry === 'string'
        ? resolve(baseDir, specifier)
        : { ...entry, plugin: resolve(baseDir, specifier) };
    });
  }
  return out;
}

export interface ProjectLayerResult {
  config: AgentgovConfig;
  /** One message per refused value, naming the key and the file. */
  ignored: string[];
  /** The plugins and rule files the project added (they load only once the project is trusted). */
  added: { plugins: PluginConfigEntry[]; rules: string[] };
}

/**
 * Merges a project's config value over the user's effective config (`floor`): what the project
 * may change is taken (and its origin recorded), a loosening is ignored with a message.
 */
export function mergeProjectLayer(
  floor: AgentgovConfig,
  project: Record<string, unknown>,
  file: string,
  origins: Record<string, ConfigOrigin>,
): ProjectLayerResult {
  const ignored: string[] = [];
  const added: ProjectLayerResult['added'] = { plugins: [], rules: [] };
  const here: ConfigOrigin = { from: 'project', file };
  const refuse = (key: string, value: unknown, why: string): void => {
    ignored.push(`ignored ${key}: ${JSON.stringify(value)} from the project config ${file}: ${why}`);
  };
  const floorFrom = (key: string): string => {
    const origin = origins[key];
    return origin?.from === 'user' ? `your config ${origin.file}` : 'the default';
  };
  const config = structuredClone(floor) as AgentgovConfig & Record<string, unknown>;

  const setLeaf = (path: string[], value: unknown): void => {
    const key = path.join('.');
    const current = path.reduce<unknown>((node, part) => (isPlainObject(node) ? node[part] : undefined), floor);
    const write = () => {
      let node: Record<string, unknown> = config;
      for (const part of path.slice(0, -1)) {
        if (!isPlainObject(node[part])) node[part] = {};
        node = node[part] as Record<string, unknown>;
      }
      node[path[path.length - 1]!] = value;
      origins[key] = here;
    };
    switch (key) {
      case 'gate.on_unavailable':
        if ((STRICTNESS[String(value)] ?? -1) >= (STRICTNESS[String(current)] ?? 0)) return write();
        return refuse(
          key,
          value,
          `a project may only tighten it, and ${floorFrom(key)} says '${String(current)}'; using '${String(current)}'`,
        );
      case 'gate.timeout_ms':
      case 'gate.deadline_ms':
        if (typeof value === 'number' && typeof current === 'number' && value <= current) return write();
        return refuse(
          key,
          value,
          `a project may only shorten it, and ${floorFrom(key)} says ${String(current)}; using ${String(current)}`,
        );
      case 'score.enabled':
        if (value === false || value === current) return write();
        return refuse(key, value, `a project may switch the Score API off, never on; using ${String(current)}`);
      case 'governance.db':
      case 'score.listen':
      case 'score.token':
        if (value === current) return;
        return refuse(
          key,
          key === 'score.token' ? '***' : value,
          `only your own config decides it; using ${floorFrom(key)}`,
        );
      case 'bundled_plugins':
        return; // decided below, with the plugins
      default:
        return write();
    }
  };

  const walk = (value: unknown, path: string[]): void => {
    if (
      isPlainObject(value) &&
      (path.length === 0 || isPlainObject(path.reduce<unknown>((n, p) => (isPlainObject(n) ? n[p] : undefined), floor)))
    ) {
      for (const [key, child] of Object.entries(value)) walk(child, [...path, key]);
      return;
    }
    const key = path.join('.');
    if (key === 'plugins' || key === 'risk.rules') return; // added below
    setLeaf(path, value);
  };
  walk(project, []);

  // Rule files: the user's stay, the project's are added.
  const projectRisk = project['risk'];
  const projectRules =
    isPlainObject(projectRisk) && Array.isArray(projectRisk['rules']) ? (projectRisk['rules'] as string[]) : [];
  for (const rule of projectRules) {
    if (config.risk.rules.includes(rule)) continue;
    config.risk.rules.push(rule);
    added.rules.push(rule);
  }
  if (added.rules.length)
    origins['risk.rules'] = {
      from: origins['risk.rules']?.from === 'user' ? 'user' : 'project',
      file: origins['risk.rules']?.from === 'user' ? `${origins['risk.rules'].file} + ${file}` : file,
    };

  // Plugins: the user's stay (with the user's options); the project's are added.
  const floorLoadsBundled =
    floor.bundled_plugins === 'all' || (floor.bundled_plugins === 'auto' && floor.plugins.length === 0);
  const userSpecifiers = new Set(floor.plugins.map(specifierOf));
  const projectPlugins = Array.isArray(project['plugins']) ? (project['plugins'] as PluginConfigEntry[]) : [];
  for (const entry of projectPlugins) {
    if (userSpecifiers.has(specifierOf(entry))) {
      if (JSON.stringify(entry) !== JSON.stringify(floor.plugins.find((p) => specifierOf(p) === specifierOf(entry)))) {
        refuse(
          'plugins',
          specifierOf(entry),
          'your own config configures that plugin; its entry (and options) stays yours',
        );
      }
      continue;
    }
    config.plugins.push(entry);
    added.plugins.push(entry);
    userSpecifiers.add(specifierOf(entry));
  }
  if (added.plugins.length)
    origins['plugins'] = {
      from: origins['plugins']?.from === 'user' ? 'user' : 'project',
      file: origins['plugins']?.from === 'user' ? `${origins['plugins'].file} + ${file}` : file,
    };
  const wanted = project['bundled_plugins'];
  if (wanted !== undefined) {
    const projectLoadsBundled = wanted === 'all' || (wanted === 'auto' && config.plugins.length === 0);
    if (floorLoadsBundled && !projectLoadsBundled) {
      refuse('bundled_plugins', wanted, `your configuration loads the bundled plugins; a project may not stop them`);
    } else if (wanted !== floor.bundled_plugins) {
      config.bundled_plugins = wanted as AgentgovConfig['bundled_plugins'];
      origins['bundled_plugins'] = here;
    }
  }
  // The project's own plugins would turn `auto` off: keep the bundled plugins the floor loads.
  if (floorLoadsBundled && config.bundled_plugins === 'auto' && config.plugins.length > 0)
    config.bundled_plugins = 'all';
  return { config, ignored, added };
}
