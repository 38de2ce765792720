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
    attribution.applying('plugin-b', () =>
      hooks.gate.tapPromise({ name: 'plugin-b', stage: -5 }, async () => undefined),
    );
    expect(attribution.hooksOf('plugin-a')).to.deep.equal(['sinks', 'emit']);
    expect(attribution.hooksOf('plugin-b')).to.deep.equal(['gate']);
    expect(attribution.taps.find((t) => t.plugin === 'plugin-b')).to.include({
      hook: 'gate',
      type: 'promise',
      stage: -5,
    });
  });

  it('attributes taps made after an await in an async apply to the applying plugin', async () => {
    const hooks = createHooks();
    const attribution = new TapAttribution(hooks);
    // The tap names differ from the plugins' names: attribution must come from `applying`, not the tap.
    const first = attribution.applying('plugin-async', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      hooks.emit.tapPromise('late-tap', async () => undefined);
    });
    // A second apply overlapping the first keeps its own attribution.
    const second = attribution.applying('plugin-sync', async () => {
      hooks.gate.tapPromise('early-tap', async () => undefined);
      await Promise.resolve();
      hooks.sinks.tap('after-microtask', () => undefined);
    });
    await Promise.all([first, second]);
    expect(attribution.taps.map((t) => [t.plugin, t.tap])).to.deep.equal([
      ['plugin-sync', 'early-tap'],
      ['plugin-sync', 'after-microtask'],
      ['plugin-async', 'late-tap'],
    ]);
    // Outside any apply, a tap is attributed to its own name.
    hooks.emit.tapPromise('stray', async () => undefined);
    expect(attribution.taps.at(-1)).to.include({ plugin: 'stray', tap: 'stray' });
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
