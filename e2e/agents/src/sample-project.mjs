/** A small TypeScript project for agentgov's MCP tools to index and answer about. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const RECON_TASK = 'make the retry delay of fetchWithRetry configurable';

export function writeSampleProject(project) {
  mkdirSync(join(project, 'src'), { recursive: true });
  writeFileSync(
    join(project, 'src', 'retry.ts'),
    [
      'export async function fetchWithRetry(url: string, tries = 3): Promise<Response> {',
      '  for (let attempt = 0; ; attempt++) {',
      '    try {',
      '      return await fetch(url);',
      '    } catch (error) {',
      '      if (attempt >= tries) throw error;',
      '      await new Promise((resolve) => setTimeout(resolve, 500));',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  writeFileSync(join(project, 'package.json'), '{ "name": "app", "private": true, "type": "module" }\n');
}
