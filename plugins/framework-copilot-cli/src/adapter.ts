import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { findCaptureFiles, isDirectory, type DetectedFramework, type FrameworkAdapter } from '@agentgov/core';
import { FRAMEWORK, parseSessionEvents } from './events.js';

const INGESTION_MODE = 'tail';

/** Copilot CLI's home: `$COPILOT_HOME`, default `~/.copilot` (config, hooks/, session-state/). */
export function copilotHome(env: NodeJS.ProcessEnv): string {
  const override = env['COPILOT_HOME'];
  return override ? resolve(override) : join(env['HOME'] ?? homedir(), '.copilot');
}

/** GitHub Copilot CLI: installed when its home exists; each session appends to `session-state/<id>/events.jsonl`. */
export const copilotCliAdapter: FrameworkAdapter = {
  name: FRAMEWORK,
  adapter: FRAMEWORK,
  ingestionMode: INGESTION_MODE,
  async detect(env): Promise<DetectedFramework | null> {
    const home = copilotHome(env);
    return isDirectory(home) ? { name: FRAMEWORK, path: home, adapter: FRAMEWORK, ingestion_mode: INGESTION_MODE } : null;
  },
  captureRoots: (env) => [join(copilotHome(env), 'session-state')],
  listCaptures: async (env) => findCaptureFiles(join(copilotHome(env), 'session-state'), (name) => name === 'events.jsonl'),
  parse: parseSessionEvents,
};
