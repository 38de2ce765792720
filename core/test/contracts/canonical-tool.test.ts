import { expect } from 'chai';
import { canonicalToolOf } from '../../src/index.js';

describe('canonicalToolOf', () => {
  const table: [string, string][] = [
    ['Bash', 'shell'],
    ['Read', 'read'],
    ['Write', 'write'],
    ['Edit', 'edit'],
    ['MultiEdit', 'edit'],
    ['NotebookEdit', 'edit'],
    ['Grep', 'search'],
    ['Glob', 'search'],
    ['LS', 'search'],
    ['WebFetch', 'fetch'],
    ['WebSearch', 'fetch'],
    ['mcp__github__create_issue', 'mcp'],
    ['shell', 'shell'],
    ['bash', 'shell'],
    ['fetch', 'fetch'],
    ['Task', 'other'],
    ['', 'other'],
    ['toString', 'other'],
    ['__proto__', 'other'],
  ];
  for (const [name, kind] of table) it(`${JSON.stringify(name)} → ${kind}`, () => expect(canonicalToolOf(name)).to.equal(kind));
});
