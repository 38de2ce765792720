import { AgentgovError, type FrameworkAdapter } from '@agentgov/core';

/**
 * Which frameworks `watch` follows: the names given (`--frameworks`, else config
 * `governance.frameworks`), or every registered framework that detects itself installed.
 * A name nobody registered is a usage error that lists the registered ones.
 */
export async function selectFrameworks(
  registered: FrameworkAdapter[],
  requested: string[],
  env: NodeJS.ProcessEnv,
): Promise<FrameworkAdapter[]> {
  if (requested.length) {
    const unknown = requested.filter((name) => !registered.some((f) => f.name === name));
    if (unknown.length) {
      throw new AgentgovError(
        'E_INVALID_ARGUMENT',
        `unknown framework(s): ${unknown.join(', ')}; registered frameworks: ` +
          `${registered.map((f) => f.name).join(', ') || '(none)'}`,
        { unknown },
      );
    }
    return registered.filter((f) => requested.includes(f.name));
  }
  const detected = await Promise.all(registered.map(async (f) => ((await f.detect(env)) ? f : undefined)));
  return detected.filter((f): f is FrameworkAdapter => f !== undefined);
}
