import { expect } from 'chai';
import { join } from 'node:path';
import {
  AgentgovError,
  createPluginHost,
  defaultConfig,
  loadConfig,
  pluginRequests,
  silentLogger,
  type LoadedConfig,
} from '../../src/index.js';
import { makeTempDir, writeTree } from '../../src/testing/index.js';

const sinkPlugin = (name: string) => `
export default {
  name: '${name}',
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: { path: { type: 'string' }, limit: { type: 'integer', minimum: 1, default: 5 } },
  },
  apply(hooks, context) {
    hooks.sinks.tap('${name}', (registry) => registry.add({ name: 'memory-' + context.options.limit, write: async () => {} }));
    hooks.emit.tapPromise('${name}', async () => {});
  },
};
`;

async function hostFor(yaml: string, files: Record<string, string>, bundled: string[] = []) {
  const dir = makeTempDir('agentgov-plugins-');
  writeTree(dir, { 'agentgov.yaml': yaml, ...files });
  const loaded = loadConfig({ cwd: dir, env: { HOME: dir, AGENTGOV_HOME: join(dir, '.agentgov') } });
  const host = await createPluginHost({ loaded, bundled, resolveFrom: [dir], host: 'cli', logger: silentLogger });
  return { dir, loaded, host };
}

async function loadFailure(yaml: string, files: Record<string, string>): Promise<AgentgovError> {
  try {
    await hostFor(yaml, files);
  } catch (error) {
    expect(error).to.be.instanceOf(AgentgovError);
    return error as AgentgovError;
  }
  throw new Error('expected the plugin host to fail');
}

describe('plugin loading', () => {
  it('loads a plugin from a path relative to the config file, with validated options and defaults', async () => {
    const { dir, host } = await hostFor('plugins:\n  - plugin: ./plugins/memory\n    options: { path: out.jsonl }\n', {
      'plugins/memory/package.json': JSON.stringify({
        name: 'memory-sink',
        version: '1.2.3',
        type: 'module',
        main: 'index.js',
      }),
      'plugins/memory/index.js': sinkPlugin('memory-sink'),
    });
    expect(host.plugins).to.deep.equal([
      {
        name: 'memory-sink',
        version: '1.2.3',
        specifier: './plugins/memory',
        resolvedFrom: join(dir, 'plugins/memory/index.js'),
        origin: 'config',
        hooks: ['sinks', 'emit'],
        provides: ['sinks:memory-5'],
      },
    ]);
    expect(host.registries.sinks.names()).to.deep.equal(['memory-5']);
  });

  it('resolves a package name from the config directory', async () => {
    const { host } = await hostFor('plugins:\n  - "@acme/agentgov-plugin"\n', {
      'node_modules/@acme/agentgov-plugin/package.json': JSON.stringify({
        name: '@acme/agentgov-plugin',
        version: '0.9.0',
        type: 'module',
        main: 'main.js',
      }),
      'node_modules/@acme/agentgov-plugin/main.js': sinkPlugin('acme'),
    });
    expect(host.plugins.map((p) => [p.name, p.version, p.origin])).to.deep.equal([['acme', '0.9.0', 'config']]);
  });

  it('stops with one message naming the plugin, the config file and the key when it cannot be resolved', async () => {
    const error = await loadFailure('log_level: INFO\nplugins:\n  - ./nowhere\n', {});
    expect(error.code).to.equal('E_PLUGIN_LOAD');
    expect(error.message).to.match(
      /^plugin '\.\/nowhere' \(config .*agentgov\.yaml:3:5, key plugins\[0\]\): cannot be resolved: path .*nowhere does not exist$/,
    );
  });

  it('names the offending option key, with its position, when options fail the schema', async () => {
    const error = await loadFailure(
      'plugins:\n  - plugin: ./p.mjs\n    options:\n      limit: 0\n      colour: red\n',
      { 'p.mjs': sinkPlugin('picky') },
    );
    expect(error.code).to.equal('E_PLUGIN_LOAD');
    expect(error.message).to.contain("plugin './p.mjs'");
    expect(error.message).to.contain('key plugins[0]');
    expect(error.message).to.match(/agentgov\.yaml:5:7 error at plugins\[0\]\.options\.colour: unknown key 'colour'/);
    expect(error.message).to.match(/agentgov\.yaml:4:14 error at plugins\[0\]\.options\.limit: must be >= 1/);
  });

  it('stops when apply throws, naming the plugin and the error', async () => {
    const error = await loadFailure('plugins:\n  - ./bad.mjs\n', {
      'bad.mjs': "export default { name: 'bad', apply() { throw new Error('cannot open socket'); } };",
    });
    expect(error.code).to.equal('E_PLUGIN_LOAD');
    expect(error.message).to.match(
      /^plugin '\.\/bad\.mjs' \(config .*agentgov\.yaml:2:5, key plugins\[0\]\): apply\(\) threw: cannot open socket$/,
    );
  });

  it('refuses a module that does not export a plugin', async () => {
    const error = await loadFailure('plugins:\n  - ./notaplugin.mjs\n', {
      'notaplugin.mjs': 'export const answer = 42;',
    });
    expect(error.message).to.contain('does not export a plugin (expected a default export { name, apply })');
  });

  it('refuses two plugins with the same name', async () => {
    const error = await loadFailure('plugins:\n  - ./a.mjs\n  - ./b.mjs\n', {
      'a.mjs': sinkPlugin('twin'),
      'b.mjs': sinkPlugin('twin'),
    });
    expect(error.message).to.contain("key plugins[1]): a plugin named 'twin' is already loaded (from ./a.mjs)");
  });

  it('stops when a registration tap registers a duplicate provider', async () => {
    const dup = (name: string) =>
      `export default { name: '${name}', apply(h) { h.sinks.tap('${name}', (r) => r.add({ name: 'same', write: async () => {} })); } };`;
    const error = await loadFailure('plugins:\n  - ./a.mjs\n  - ./b.mjs\n', { 'a.mjs': dup('a'), 'b.mjs': dup('b') });
    expect(error.code).to.equal('E_PLUGIN_LOAD');
    expect(error.message).to.equal(
      "registration hook 'sinks' failed in plugin 'b': sink 'same' is registered twice (by a and by b)",
    );
  });

  describe('which plugins load', () => {
    const loaded = (plugins: unknown[], bundled_plugins: 'auto' | 'all' | 'none' = 'auto'): LoadedConfig =>
      ({
        config: { ...defaultConfig(), plugins, bundled_plugins },
        file: null,
        source: 'defaults',
        baseDir: '/',
        warnings: [],
      }) as LoadedConfig;
    const bundled = ['@agentgov/plugin-sink-jsonl', '@agentgov/plugin-sink-console'];

    it('loads every bundled plugin when the config names none', () => {
      expect(pluginRequests(loaded([]), bundled).map((r) => [r.specifier, r.origin])).to.deep.equal([
        ['@agentgov/plugin-sink-jsonl', 'bundled'],
        ['@agentgov/plugin-sink-console', 'bundled'],
      ]);
    });

    it('loads only the named plugins otherwise', () => {
      expect(pluginRequests(loaded(['./mine']), bundled).map((r) => r.specifier)).to.deep.equal(['./mine']);
    });

    it('with bundled_plugins: all, loads both and configures a bundled one named in plugins once', () => {
      const requests = pluginRequests(
        loaded(['./mine', { plugin: '@agentgov/plugin-sink-jsonl', options: { path: 'x' } }], 'all'),
        bundled,
      );
      expect(requests.map((r) => [r.specifier, r.origin, r.options])).to.deep.equal([
        ['@agentgov/plugin-sink-console', 'bundled', undefined],
        ['./mine', 'config', undefined],
        ['@agentgov/plugin-sink-jsonl', 'config', { path: 'x' }],
      ]);
    });

    it('with bundled_plugins: none, loads nothing but the named plugins', () => {
      expect(pluginRequests(loaded([], 'none'), bundled)).to.deep.equal([]);
    });
  });
});
