import { defaultConfig, type LoadedConfig } from '@agentgov/core';
import { expect } from 'chai';
import { JSONL_SINK_PLUGIN, withJsonlOutput } from '../../src/pipeline/replay-config.js';

const loaded = (patch: Partial<LoadedConfig['config']>): LoadedConfig => ({
  config: { ...defaultConfig(), ...patch },
  file: null,
  source: 'defaults',
  baseDir: '/cfg',
  warnings: [],
});

describe('replay --output config', () => {
  it('with no plugins configured, keeps every bundled plugin and configures the jsonl sink to the file', () => {
    const out = withJsonlOutput(loaded({}), '/tmp/out.jsonl').config;
    expect(out.bundled_plugins).to.equal('all');
    expect(out.plugins).to.deep.equal([{ plugin: JSONL_SINK_PLUGIN, options: { path: '/tmp/out.jsonl' } }]);
  });

  it('with plugins configured, loads bundled ones only if the config did, and replaces a configured jsonl sink', () => {
    const out = withJsonlOutput(
      loaded({ plugins: ['./mine.js', { plugin: JSONL_SINK_PLUGIN, options: { path: 'elsewhere.jsonl' } }] }),
      '/o.jsonl',
    ).config;
    expect(out.bundled_plugins).to.equal('auto');
    expect(out.plugins).to.deep.equal(['./mine.js', { plugin: JSONL_SINK_PLUGIN, options: { path: '/o.jsonl' } }]);
    expect(
      withJsonlOutput(loaded({ plugins: ['./mine.js'], bundled_plugins: 'none' }), '/o').config.bundled_plugins,
    ).to.equal('none');
  });
});
