import { expect } from 'chai';
import { AgentgovError } from '@agentgov/core';
import { MAX_TASK_CHARS, normaliseList, parseQuery } from '../../src/recon/query.js';

describe('recon/query', () => {
  it('splits a task into identifiers, paths, quoted text and plain terms', () => {
    const q = parseQuery(
      'Fix parseHeaders in src/http/client.ts so that `max_retries` is honoured by res.send()',
      'Client',
      ['a.ts', 'b.ts'],
    );
    expect(q.identifiers).to.include.members(['parseHeaders', 'max_retries', 'res.send']);
    expect(q.paths).to.deep.equal(['src/http/client.ts']);
    expect(q.quoted).to.deep.equal(['max_retries']);
    expect(q.terms).to.include.members(['honoured', 'parseheaders', 'headers', 'retries']);
    expect(q.terms).to.not.include.members(['fix', 'that', 'the', 'so']);
    expect(q.seeds).to.deep.equal(['Client']);
    expect(q.pins).to.deep.equal(['a.ts', 'b.ts']);
  });

  it('keeps task words the repository knows when the task has nothing else ("hello" on a repository defining hello)', () => {
    const knows = (names: string[]) => ({ isKnownName: (name: string) => names.includes(name) });
    expect(parseQuery('hello', [], [], knows(['hello'])).terms).to.deep.equal(['hello']);
    expect(parseQuery('hello', [], [], knows([])).terms).to.deep.equal([]);
    expect(parseQuery('hello').terms).to.deep.equal([]);
    expect(parseQuery('update the version', [], [], knows(['version'])).terms).to.deep.equal(['version']);
    expect(parseQuery('hello from the blueprint', [], [], knows(['hello'])).terms).to.deep.equal(['blueprint']);
  });

  it('drops closing keywords before issue references ("Closes #2662"), keeping the words themselves elsewhere', () => {
    const q = parseQuery(
      'doc: fix typo that was preventing interpolation\n\nCloses #2662, fixes owner/repo#7, ' +
        'resolves https://github.com/o/r/issues/3',
    );
    expect(q.terms).to.include.members(['typo', 'preventing', 'interpolation']);
    expect(q.terms).to.not.include.members(['closes', 'resolves']);
    expect(parseQuery('the reader closes its child process too early').terms).to.include('closes');
  });

  it("does not make a written path's file name a term: `a/__init__.py` names one file, not every __init__", () => {
    const q = parseQuery('importing from a/__init__.py breaks utils.py of the requests session');
    expect(q.paths).to.deep.equal(['a/__init__.py', 'utils.py']);
    expect(q.terms).to.not.include.members(['__init__', 'utils']);
    expect(q.terms).to.include.members(['importing', 'requests', 'session']);
  });

  it('reads `-c/--count` as a flag, not a path', () => {
    const q = parseQuery(
      'make -c/--count print zero counts, like --files/--files-with-matches in crates/core/flags.rs',
    );
    expect(q.paths).to.deep.equal(['crates/core/flags.rs']);
    expect(q.terms).to.include.members(['count', 'files', 'matches']);
  });

  it('reads traceback paths with line numbers and drops URLs', () => {
    const q = parseQuery('File "lib/site-packages/seaborn/_core.py:144" see https://example.com/a/b.py');
    expect(q.paths).to.deep.equal(['lib/site-packages/seaborn/_core.py']);
  });

  const bad: [string, unknown, unknown, unknown][] = [
    ['empty task', '', [], []],
    ['blank task', '   \n', [], []],
    ['task of wrong type', 42, [], []],
    ['huge task', 'x '.repeat(MAX_TASK_CHARS), [], []],
    ['seeds of wrong type', 'find it', 7, []],
    ['seeds array with a number', 'find it', ['a', 1], []],
    ['pins of wrong type', 'find it', [], { path: 'a' }],
  ];
  for (const [name, task, seeds, pins] of bad) {
    it(`rejects ${name} with E_INVALID_ARGUMENT`, () => {
      expect(() => parseQuery(task, seeds, pins))
        .to.throw(AgentgovError)
        .with.property('code', 'E_INVALID_ARGUMENT');
    });
  }

  it('accepts a single string or an array for seeds and pins, trimmed and deduplicated', () => {
    expect(normaliseList(' a ', 'seeds')).to.deep.equal(['a']);
    expect(normaliseList(['a', 'a', ' b'], 'seeds')).to.deep.equal(['a', 'b']);
    expect(normaliseList(undefined, 'pins')).to.deep.equal([]);
  });
});
