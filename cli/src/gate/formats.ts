/**
 * `gate --format NAME`: the hook protocols the gate speaks. `json` is built in (everything the
 * gate knows, for scripts and people); every agent's own format comes from a framework plugin,
 * which declares it in its package.json (`"agentgov": {"gateFormats": {"NAME": "./module.js"}}`).
 * Reading those few package.json files is what lets the gate client find a format without
 * loading the plugin host (the host alone costs more than the client's start-up budget).
 * Node built-ins only: gate start-up path.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { checkToolCallPayload, type GateHookFormat, type HookDecision } from '@agentgov/core/gate-hook';

/** Framework-neutral: the Score request shape (or any `tool_input` payload) in, the whole outcome out. */
export const jsonFormat: GateHookFormat = {
  name: 'json',
  parseInput(value) {
    const hook = typeof value === 'object' && value !== null && 'tool_input' in value;
    return checkToolCallPayload(value, { framework: 'gate', argsField: hook ? 'tool_input' : 'arguments' });
  },
  render(outcome) {
    return { stdout: `${JSON.stringify(outcome)}\n`, exitCode: 0 };
  },
  probePayload() {
    return { tool_name: 'Bash', arguments: { command: 'rm -rf /' }, session_id: 'agentgov-probe' };
  },
  readDecision(stdout, exitCode): HookDecision | undefined {
    if (exitCode !== 0) return undefined;
    try {
      const value = JSON.parse(stdout) as { verdict?: { decision?: unknown }; assessment?: { action?: unknown } };
      const decision = value.verdict?.decision;
      if (decision === 'allow' && value.assessment?.action === 'warn') return 'warn';
      return decision === 'allow' || decision === 'ask' || decision === 'deny' ? decision : undefined;
    } catch {
      return undefined;
    }
  },
};

interface PackageManifest {
  dependencies?: Record<string, string>;
  agentgov?: { gateFormats?: Record<string, string> };
}

const readManifest = (url: URL): PackageManifest => JSON.parse(readFileSync(url, 'utf8')) as PackageManifest;

/**
 * Where each format's module is: name → module URL, from the CLI's bundled framework plugins, in
 * their order (the first plugin to declare a name provides it). With `wanted`, stops at the
 * plugin that provides that format.
 */
export function gateFormatModules(wanted?: string): Map<string, URL> {
  const modules = new Map<string, URL>();
  const cli = readManifest(new URL('../../../package.json', import.meta.url));
  // CommonJS resolution: import.meta.resolve would wait on module hooks a host may have registered.
  const require = createRequire(import.meta.url);
  for (const name of Object.keys(cli.dependencies ?? {})) {
    if (!name.startsWith('@agentgov/plugin-framework-')) continue;
    let manifestUrl: URL;
    try {
      manifestUrl = pathToFileURL(require.resolve(`${name}/package.json`));
    } catch {
      continue; // not installed: its formats are unknown, and a hook asking for one fails closed
    }
    for (const [format, path] of Object.entries(readManifest(manifestUrl).agentgov?.gateFormats ?? {})) {
      if (!modules.has(format)) modules.set(format, new URL(path, manifestUrl));
    }
    if (wanted !== undefined && modules.has(wanted)) break;
  }
  return modules;
}

/** Every format name `--format` accepts. */
export function gateFormatNames(): string[] {
  return ['json', ...gateFormatModules().keys()].sort();
}

type FormatModule = { gateFormat?: GateHookFormat };

/**
 * The formats compiled into the gate bundle (scripts/bundle-gate.mjs), by name: the modules
 * gateFormatModules() found when the bundle was made. The bundle is used only while every file it
 * was made from, these plugins' package.json files included, is unchanged, so the answer is the
 * one gateFormatModules() would give. Empty when the gate runs from dist/src.
 */
const compiledFormats = new Map<string, () => Promise<FormatModule>>();

/** Called once by the gate bundle's entry. */
export function registerCompiledGateFormats(formats: Record<string, () => Promise<FormatModule>>): void {
  for (const [name, load] of Object.entries(formats)) compiledFormats.set(name, load);
}

/** The format called `name`, or undefined when no bundled plugin provides it. */
export async function loadGateFormat(name: string): Promise<GateHookFormat | undefined> {
  if (name === 'json') return jsonFormat;
  const compiled = compiledFormats.get(name);
  if (compiled) return (await compiled()).gateFormat;
  const url = gateFormatModules(name).get(name);
  if (!url) return undefined;
  const module = (await import(url.href)) as FormatModule;
  return module.gateFormat;
}
