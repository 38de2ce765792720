import { AgentgovError, type DetectedFramework, type PluginHost } from '@agentgov/core';

/** `--frameworks a,b` → names; empty or absent → undefined (all). */
export function parseFrameworkList(value: string | undefined): string[] | undefined {
  const names = (value ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  return names.length ? [...new Set(names)] : undefined;
}

/** Runs `detect()` of every (or each named) framework adapter; unknown names list the known ones. */
export async function detectFrameworks(
  host: PluginHost,
  names: string[] | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ detected: DetectedFramework[]; checked: string[] }> {
  const adapters = host.registries.frameworks.values();
  const known = adapters.map((a) => a.name).sort();
  const unknown = (names ?? []).filter((n) => !known.includes(n));
  if (unknown.length)
    throw new AgentgovError(
      'E_INVALID_ARGUMENT',
      `unknown framework(s): ${unknown.join(', ')}; known frameworks: ${known.join(', ') || '(none loaded)'}`,
      { unknown, known },
    );
  const chosen = adapters.filter((a) => !names || names.includes(a.name)).sort((a, b) => a.name.localeCompare(b.name));
  const detected: DetectedFramework[] = [];
  for (const adapter of chosen) {
    const found = await adapter.detect(env);
    if (found) detected.push(found);
  }
  return { detected, checked: chosen.map((a) => a.name) };
}
