import { definePlugin } from '@agentgov/core';
import { createConsoleSink } from './console-sink.js';

export const NAME = 'sink-console';

export interface ConsoleSinkOptions {
  /** Print every record, not only the notable ones (action other than allow). */
  all?: boolean;
  /** Which stream to print to. */
  stream?: 'stdout' | 'stderr';
}

/** Registers the `console` sink: a readable line per notable event, coloured only on a TTY. */
export default definePlugin<ConsoleSinkOptions>({
  name: NAME,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      all: {
        type: 'boolean',
        default: false,
        description: 'Print every record, not only those whose action is not allow',
      },
      stream: { enum: ['stdout', 'stderr'], default: 'stdout', description: 'Output stream' },
    },
  },
  apply(hooks, context) {
    const stream = context.options.stream === 'stderr' ? process.stderr : process.stdout;
    hooks.sinks.tap(NAME, (registry) => registry.add(createConsoleSink({ stream, all: context.options.all === true })));
  },
});

export { createConsoleSink, formatLine, isNotable, subjectOf } from './console-sink.js';
