import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, makeTempDir, writeTree } from '@agentgov/core/testing';
import { runCli } from '../../support/cli-process.js';

/** A plugin in a local folder: its registration tap writes a marker file, proving the tap ran. */
const markerPlugin = `
import { writeFileSync } from 'node:fs';
export default {
  name: 'marker',
  optionsSchema: { type: 'object', additionalProperties: false, required: ['marker'], properties: { marker: { type: 'string' } } },
  apply(hooks, context) {
    hooks.sinks.tap('marker', (registry) => {
      writeFileSync(context.options.marker, 'tapped');
      registry.add({ name: 'marker-sink', write: async () => {} });
    });
    hooks.gate.tapPromise({ name: 'marker', stage: -10 }, async () => undefined);
  },
};
`;

describe('agentgov config show', () => {
  it('lists a plugin loaded from a path with the hooks it tapped, and its tap runs', async () => {
    const home = makeTempDir('agentgov-home-');
    const project = makeTempDir('agentgov-project-');
    const marker = join(project, 'tap-ran.txt');
    writeTree(project, {
      'agentgov.yaml': `plugins:\n  - plugin: ./local-plugins/marker\n    options:\n      marker: ${marker}\n`,
      'local-plugins/marker/package.json': JSON.stringify({
        name: 'marker',
        version: '2.0.1',
        type: 'module',
        main: 'index.js',
      }),
      'local-plugins/marker/index.js': markerPlugin,
    });
    // A project's own config names code to load: ignored (and said so) until the user trusts it.
    const untrusted = await runCli(['config', 'show'], { cwd: project, env: isolatedEnv(home) });
    expect(untrusted.stdout).to.contain(
      '# ignored plugin ./local-plugins/marker named by the untrusted project config',
    );
    expect(existsSync(marker)).to.equal(false);
    expect((await runCli(['trust'], { cwd: project, env: isolatedEnv(home) })).code).to.equal(0);
    const result = await runCli(['config', 'show'], { cwd: project, env: isolatedEnv(home) });
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.contain(
      `# effective configuration, from ${join(project, 'agentgov.yaml')} (project config, merged over it)`,
    );
    const row = result.stdout.split('\n').find((line) => line.startsWith('marker '));
    expect(row).to.match(
      new RegExp(
        `^marker +2\\.0\\.1 +${join(project, 'local-plugins/marker/index.js').replace(/\//g, '\\/')} +sinks, gate$`,
      ),
    );
    expect(existsSync(marker)).to.equal(true);
    expect(readFileSync(marker, 'utf8')).to.equal('tapped');
  });

  it('prints machine-readable JSON with --json', async () => {
    const home = makeTempDir('agentgov-home-');
    const project = makeTempDir('agentgov-project-');
    writeTree(project, {
      'custom.yaml': `bundled_plugins: none\nplugins:\n  - plugin: ./marker.mjs\n    options: { marker: ${join(project, 'm')} }\ngate:\n  on_unavailable: deny\n`,
      'marker.mjs': markerPlugin,
    });
    const result = await runCli(['config', 'show', '--json', '--config', 'custom.yaml'], {
      cwd: project,
      env: isolatedEnv(home),
    });
    expect(result.code).to.equal(0);
    const shown = JSON.parse(result.stdout) as {
      source: string;
      config: { gate: unknown; score: { listen: string } };
      plugins: { name: string; hooks: string[]; provides: string[] }[];
    };
    expect(shown.source).to.equal('flag');
    expect(shown.config.gate).to.deep.equal({ on_unavailable: 'deny', timeout_ms: 3000, deadline_ms: 30000 });
    expect(shown.config.score.listen).to.equal('localhost:7331');
    expect(shown.plugins.map((p) => [p.name, p.hooks, p.provides])).to.deep.equal([
      ['marker', ['sinks', 'gate'], ['sinks:marker-sink']],
    ]);
  });

  describe('stops start-up with one clear message (exit 3) when a plugin', () => {
    const cases: [string, string, Record<string, string>, RegExp][] = [
      [
        'cannot be resolved',
        'plugins:\n  - ./missing-plugin\n',
        {},
        /^error \[E_PLUGIN_LOAD\]: plugin '\.\/missing-plugin' \(config .*agentgov\.yaml:2:5, key plugins\[0\]\): cannot be resolved: path .*missing-plugin does not exist$/m,
      ],
      [
        'gets options that fail its schema',
        'plugins:\n  - plugin: ./marker.mjs\n    options:\n      marker: 42\n',
        { 'marker.mjs': markerPlugin },
        /^error \[E_PLUGIN_LOAD\]: plugin '\.\/marker\.mjs' \(config .*agentgov\.yaml:2:5, key plugins\[0\]\): invalid options:\n {2}.*agentgov\.yaml:4:15 error at plugins\[0\]\.options\.marker: must be string$/m,
      ],
      [
        'throws in apply',
        'plugins:\n  - ./thrower.mjs\n',
        { 'thrower.mjs': "export default { name: 'thrower', apply() { throw new Error('database is locked'); } };" },
        /^error \[E_PLUGIN_LOAD\]: plugin '\.\/thrower\.mjs' \(config .*agentgov\.yaml:2:5, key plugins\[0\]\): apply\(\) threw: database is locked$/m,
      ],
    ];
    for (const [what, yaml, files, expected] of cases) {
      it(what, async () => {
        const home = makeTempDir('agentgov-home-');
        const project = makeTempDir('agentgov-project-');
        writeTree(project, { 'agentgov.yaml': yaml, ...files });
        expect((await runCli(['trust'], { cwd: project, env: isolatedEnv(home) })).code).to.equal(0);
        const result = await runCli(['config', 'show'], { cwd: project, env: isolatedEnv(home) });
        expect(result.code).to.equal(3);
        expect(result.stdout).to.equal('');
        expect(result.stderr).to.match(expected);
        expect(result.stderr).not.to.match(/\n\s+at /); // a message, never a bare stack trace
      });
    }
  });

  it('exits 3 with every located issue when the resolved config is invalid', async () => {
    const home = makeTempDir('agentgov-home-');
    const project = makeTempDir('agentgov-project-');
    writeTree(project, { 'agentgov.yaml': 'score:\n  listen: [1, 2]\n' });
    const result = await runCli(['config', 'show'], { cwd: project, env: isolatedEnv(home) });
    expect(result.code).to.equal(3);
    expect(result.stderr).to.match(
      /^error \[E_CONFIG_INVALID\]: invalid configuration in .*agentgov\.yaml:\n {2}.*agentgov\.yaml:2:11 error at score\.listen: must be string$/m,
    );
  });
});
