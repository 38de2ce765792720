import { expect } from 'chai';
import { AgentgovError, ProviderRegistry } from '../../src/index.js';

describe('ProviderRegistry', () => {
  it('keeps providers by name in registration order', () => {
    const registry = new ProviderRegistry<{ name: string }>('retriever');
    registry.withPlugin('p1', () => registry.add({ name: 'lexical' }));
    registry.withPlugin('p2', () => registry.add({ name: 'term' }));
    expect(registry.names()).to.deep.equal(['lexical', 'term']);
    expect(registry.get('term')).to.deep.equal({ name: 'term' });
    expect(registry.size).to.equal(2);
  });

  it('refuses a second provider with the same name, naming both plugins', () => {
    const registry = new ProviderRegistry<{ name: string }>('sink');
    registry.withPlugin('first', () => registry.add({ name: 'jsonl' }));
    expect(() => registry.withPlugin('second', () => registry.add({ name: 'jsonl' })))
      .to.throw(AgentgovError, "sink 'jsonl' is registered twice (by first and by second)")
      .with.property('code', 'E_PLUGIN_CONFLICT');
  });
});
