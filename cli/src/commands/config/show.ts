import { Command } from 'clipanion';
import { stringify } from 'yaml';
import { startCliHost } from '../../host.js';
import { renderTable } from '../../table.js';
import { AgentgovCommand, EXIT, configOption, jsonOption } from '../base.js';

export class ConfigShowCommand extends AgentgovCommand {
  static override paths = [['config', 'show']];
  static override usage = Command.Usage({
    category: 'Configuration',
    description: 'Print the effective merged configuration and the loaded plugins',
    details:
      'Merges your own config file (--config, else $AGENTGOV_CONFIG, else $AGENTGOV_HOME/config.yaml) ' +
      "over the built-in defaults, then the project's ./agentgov.yaml over that " +
      'where it only tightens (a loosening is ignored and said so), loads every ' +
      'plugin and prints the result as YAML, a table saying where each value came ' +
      'from (default, user file, project file), and a table of plugins: name, version, ' +
      'where it was resolved from, and the hooks it tapped.',
    examples: [
      ['Show the effective configuration', '$0 config show'],
      ['Show a specific file merged over the defaults', '$0 config show --config ./agentgov.yaml'],
      ['Machine-readable', '$0 config show --json'],
    ],
  });

  config = configOption();
  override json = jsonOption('one JSON object');

  async run(): Promise<number> {
    const { loaded, host, ignored } = await startCliHost({ configPath: this.config }, this.logger('ERROR'));
    const plugins = host.plugins.map((p) => ({
      name: p.name,
      version: p.version,
      origin: p.origin,
      resolved_from: p.resolvedFrom,
      hooks: p.hooks,
      provides: p.provides,
    }));
    if (this.json) {
      const layers = loaded.layers ?? [];
      const shown = {
        source: loaded.source,
        file: loaded.file,
        layers,
        config: loaded.config,
        sources: loaded.origins ?? {},
        plugins,
        warnings: loaded.warnings,
        ignored,
      };
      this.context.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
      return EXIT.OK;
    }
    const layers = loaded.layers ?? [];
    const from = layers.length
      ? layers
          .map(
            (layer) =>
              `${layer.file} ` +
              `(${layer.role === 'user' ? `your config, ${layer.source}` : 'project config, merged over it'})`,
          )
          .join(' + ')
      : 'built-in defaults';
    this.context.stdout.write(
      `# effective configuration, from ${from}\n` +
        `${ignored.map((note) => `# ${note}\n`).join('')}` +
        `${stringify(loaded.config)}\n`,
    );
    const origins = Object.entries(loaded.origins ?? {}).sort(([a], [b]) => a.localeCompare(b));
    const sourceRows = origins.map(([key, origin]) => [
      key,
      origin.from === 'default'
        ? 'default'
        : `${origin.from === 'user' ? 'user file' : 'project file'} ${origin.file ?? ''}`,
    ]);
    this.context.stdout.write(`# where each value came from\n${renderTable(['KEY', 'FROM'], sourceRows)}\n`);
    const rows = plugins.map((p) => [
      p.name,
      p.version ?? '-',
      p.origin === 'bundled' ? `bundled: ${p.resolved_from}` : p.resolved_from,
      p.hooks.join(', ') || '-',
    ]);
    this.context.stdout.write(
      `# plugins (${plugins.length})\n${renderTable(['NAME', 'VERSION', 'RESOLVED FROM', 'HOOKS'], rows)}`,
    );
    return EXIT.OK;
  }
}
