import { definePlugin } from '@agentgov/core';
import { createJsonlSink } from './jsonl-sink.js';

export const NAME = 'sink-jsonl';

export interface JsonlSinkOptions {
  /** File path template; `{session_id}` and `{framework}` are expanded per record. */
  path?: string;
}

/**
 * Registers the `jsonl` sink when a `path` is configured: one JSON record per event with its
 * assessment. Without a path it registers nothing (bundled, but off until configured).
 */
export default definePlugin<JsonlSinkOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      path: {
        type: 'string',
        minLength: 1,
        description: 'Output file; {session_id} and {framework} are expanded per record',
      },
    },
  },
  apply(hooks, context) {
    const path = context.options.path;
    if (!path) return;
    hooks.sinks.tap(NAME, (registry) => registry.add(createJsonlSink({ path, baseDir: context.baseDir })));
  },
});

export { createJsonlSink, expandPathTemplate, toJsonlRecord, RECORD_VERSION } from './jsonl-sink.js';
