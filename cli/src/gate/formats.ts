/**
 * `gate --format NAME`: the hook protocols the gate speaks. `json` is built in (everything the
 * gate knows, for scripts and people); every agent's own format is the `gateFormat` of a
 * framework adapter that a plugin registers on the `frameworks` hook (docs/plugins.md, "Gate
 * formats"), found as every command finds a provider: in the plugin host (plugin-formats.ts).
 *
 * The host alone costs more than a hook call's start-up budget, so the gate bundle
 * (scripts/bundle-gate.mjs) compiles in the formats the bundled plugins register, read from that
 * host when the bundle is built: a hook call for one of them starts no host. Node built-ins only:
 * gate start-up path.
 */
import { checkToolCallPayload, type GateHookFormat, type HookDecision } from '@agentgov/core/gate-hook';
import { agentgovHome, untrustedReason } from '@agentgov/core/paths';

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

type FormatModule = { gateFormat?: GateHookFormat };

/**
 * The formats compiled into the gate bundle, by name: the `module` of each format the bundled
 * plugins' frameworks register (scripts/bundle-gate.mjs). The bundle is used only while every file
 * it was made from, those plugins' entry files included, is unchanged, so these are the formats
 * the host of the bundled plugins would give. Empty when the gate runs from dist/src.
 */
const compiledFormats = new Map<string, () => Promise<FormatModule>>();

/** Called once by the gate bundle's entry. */
export function registerCompiledGateFormats(formats: Record<string, () => Promise<FormatModule>>): void {
  for (const [name, load] of Object.entries(formats)) compiledFormats.set(name, load);
}

/** Where the gate runs: the configuration of `cwd` decides which plugins (and so which formats) there are. */
export interface GateFormatScope {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * The format called `name`, or undefined when no plugin registers it: compiled into the bundle,
 * else from the gate cache, else from the bundled plugins' host, else from the host of the plugins
 * the configuration loads.
 * Throws when that configuration cannot be loaded.
 */
export async function loadGateFormat(name: string, scope: GateFormatScope): Promise<GateHookFormat | undefined> {
  if (name === 'json') return jsonFormat;
  const compiled = compiledFormats.get(name);
  if (compiled) {
    const format = (await compiled()).gateFormat;
    if (format?.name === name) return format;
  }
  const cached = await cachedGateFormat(name, scope);
  if (cached) return cached;
  const { pluginGateFormat } = await import('./plugin-formats.js');
  return pluginGateFormat(name, scope);
}

/**
 * The format from the gate cache of this configuration (gate-cache.ts; the full start records the
 * modules of its host's formats): its module imported alone, no host started. Undefined when the
 * home is not safe to read, there is no valid entry, or the entry does not name the format.
 */
async function cachedGateFormat(name: string, scope: GateFormatScope): Promise<GateHookFormat | undefined> {
  try {
    if (untrustedReason(agentgovHome(scope.env), 'AGENTGOV_HOME')) return undefined;
    const { gateCacheKey, readGateCache } = await import('./gate-cache.js');
    const read = readGateCache(gateCacheKey(scope.cwd, scope.env), scope.env);
    const module = 'entry' in read ? read.entry.formats[name] : undefined;
    if (!module) return undefined;
    const url = new URL(module);
    const format = ((await import(url.href)) as FormatModule).gateFormat;
    if (format?.name !== name) return undefined;
    if (scope.env['AGENTGOV_GATE_TRACE']) process.stderr.write(`agentgov gate: format '${name}' from the gate cache\n`);
    return format;
  } catch {
    return undefined;
  }
}
