import { expect } from 'chai';
import { childlessNodeTypes } from '../../src/contracts/index.js';

describe('childlessNodeTypes', () => {
  it('lists the named types node-types.json gives no fields, children or subtypes', () => {
    const grammar = {
      nodeTypeInfo: [
        { type: 'number', named: true },
        { type: 'identifier', named: true, fields: {} },
        { type: 'call', named: true, fields: { function: { multiple: false } } },
        { type: 'arguments', named: true, fields: {}, children: { multiple: true } },
        { type: 'expression', named: true, subtypes: [{ type: 'number', named: true }] },
        { type: '(', named: false },
      ],
    };
    expect([...childlessNodeTypes(grammar)]).to.deep.equal(['number', 'identifier']);
  });

  it('is empty for a grammar without node-types information', () => {
    expect(childlessNodeTypes({}).size).to.equal(0);
  });
});
