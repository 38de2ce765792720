import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { CONFIG_SCHEMA, defaultConfig } from '@agentgov/core';
import { stringify } from 'yaml';

/** Absolute path of the published JSON Schema (docs/config.schema.json of the agentgov checkout). */
export function configSchemaPath(): string {
  const corePackage = createRequire(import.meta.url).resolve('@agentgov/core/package.json');
  return join(dirname(corePackage), '..', 'docs', 'config.schema.json');
}

/** The default configuration as YAML, each section preceded by its schema description. */
export function renderDefaultConfig(): string {
  const defaults = defaultConfig() as unknown as Record<string, unknown>;
  const properties = CONFIG_SCHEMA.properties as Record<string, { description?: string }>;
  const lines = [
    `# yaml-language-server: $schema=${configSchemaPath()}`,
    '# agentgov configuration. Check it with `agentgov config validate`; see docs/config.md.',
    '',
  ];
  for (const [key, value] of Object.entries(defaults)) {
    const description = properties[key]?.description;
    if (description) lines.push(`# ${description}`);
    lines.push(stringify({ [key]: value }).trimEnd(), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
