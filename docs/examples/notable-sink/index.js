// @ts-check
import { appendFile } from 'node:fs/promises';
import { resolve } from 'node:path';

const NAME = 'notable-sink';
const LEVELS = ['low', 'medium', 'high', 'critical'];

/**
 * @type {import('@agentgov/core').AgentgovPlugin<{ file: string; min_level: 'low' | 'medium' | 'high' | 'critical' }>}
 */
export default {
  name: NAME,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    required: ['file'],
    properties: {
      file: {
        type: 'string',
        minLength: 1,
        description: 'File (relative to the config file) that receives one line per notable call',
      },
      min_level: { type: 'string', enum: LEVELS, default: 'high' },
    },
  },
  apply(hooks, { options, baseDir, logger }) {
    const target = resolve(baseDir, options.file);
    const threshold = LEVELS.indexOf(options.min_level);
    hooks.sinks.tap(NAME, (registry) => {
      registry.add({
        name: NAME,
        async write({ event, assessment }) {
          if (LEVELS.indexOf(assessment.level) < threshold) return;
          await appendFile(
            target,
            `${event.timestamp} ${assessment.level} ` +
              `${assessment.reason_code} ${event.tool_name} ` +
              `${JSON.stringify(event.arguments)}\n`,
          );
        },
      });
      logger.debug(`writing ${options.min_level}+ calls to ${target}`);
    });
  },
};
