import { expect } from 'chai';
import { AgentgovError, createHooks, createRegistries, TapAttribution, type Sink } from '../../src/index.js';

describe('TapAttribution', () => {
  it('records which plugin tapped which hook', () => {
    const hooks = createHooks();
    const attribution = new TapAttribution(hooks);
    attribution.applying('plugin-a', () => {
      hooks.sinks.tap('plugin-a', () => undefined);
      hooks.emit.tapPromise('plugin-a', async () => undefined);
    });
    attribution.applying('plugin-b', () => hooks.gate.tapPromise({ name: 'plugin-b', stage: -5 }, async () => undefined));
    expect(attribution.hooksOf('plugin-a')).to.deep.equal(['sinks', 'emit']);
    expect(attribution.hooksOf('plugin-b')).to.deep.equal(['gate']);
    expect(attribution.taps.find((t) => t.plugin === 'plugin-b')).to.include({ hook: 'gate', type: 'promise', stage: -5 });
  });

  it('attributes providers added during a registration tap to the tapping plugin', () => {
    const hooks = createHooks();
    const attribution = new TapAttribution(hooks);
    const sink: Sink = { name: 'memory', write: async () => undefined };
    attribution.applying('plugin-sinks', () => hooks.sinks.tap('plugin-sinks', (registry) => registry.add(sink)));
    const registries = createRegistries();
    hooks.sinks.call(registries.sinks);
    expect(registries.sinks.entries()).to.deep.equal([{ provider: sink, plugin: 'plugin-sinks' }]);
  });

  it('names the plugin and hook when a sync tap throws', () => {
    const hooks = createHooks();
    const attribution = new TapAttribution(hooks);
    attribution.applying('faulty', () =>
      hooks.sinks.tap('faulty', () => {
        throw new Error('boom');
      }),
    );
    expect(() => hooks.sinks.call(createRegistries().sinks))
      .to.throw(AgentgovError, "plugin 'faulty' failed in hook 'sinks': boom")
      .with.property('code', 'E_PLUGIN_FAILED');
  });

  it('names the plugin and hook when a promise tap rejects', async () => {
    const hooks = createHooks();
    const attribution = new TapAttribution(hooks);
    attribution.applying('faulty-async', () =>
      hooks.gate.tapPromise('faulty-async', async () => {
        throw new Error('no socket');
      }),
    );
    const error = await hooks.gate.promise({} as never, {} as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(AgentgovError);
    expect((error as AgentgovError).message).to.equal("plugin 'faulty-async' failed in hook 'gate': no socket");
  });
});
