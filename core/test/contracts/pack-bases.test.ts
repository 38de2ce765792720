import { expect } from 'chai';
import { scanEntryPoints } from '../../src/contracts/entry-points.js';
import type { ExtractedReference } from '../../src/contracts/language.js';
import type { RefactorEdit, RefactorIndexDefinition, RefactorIndexReference } from '../../src/contracts/refactor.js';
import { distinctEdits, overloadedSymbols, RenameEdits } from '../../src/contracts/rename-planner.js';
import { LineIndex } from '../../src/contracts/source-span.js';
import { pushCodeMentions } from '../../src/contracts/syntax-walk.js';

const CODE = /[A-Za-z_]\w*(?=\()|[A-Za-z_]*[a-z][A-Z]\w*|`{1,2}[A-Za-z_]\w*`{1,2}|\{@link\s+[\w#]+/g;

describe('pushCodeMentions', () => {
  it('records code-shaped words of a comment with their spans, ticks left out, across lines', () => {
    const source = 'x = 1 # call run() on\n#  ``myThing`` and getValue\n';
    const refs: ExtractedReference[] = [];
    pushCodeMentions(refs, source, 6, source.length, new LineIndex(source), CODE, 'comment', 'mod.f');
    expect(refs.map((r) => [r.name, r.span.startLine, r.span.startCol, r.span.endCol])).to.deep.equal([
      ['run', 1, 13, 16],
      ['myThing', 2, 5, 12],
      ['getValue', 2, 19, 27],
    ]);
    expect(refs.every((r) => r.context === 'comment' && r.qualifier === null && r.enclosing === 'mod.f')).to.equal(
      true,
    );
  });

  it('lets a language split one match into several names', () => {
    const source = '/** see {@link Foo#bar} */';
    const refs: ExtractedReference[] = [];
    const split = (match: string): Array<[number, string]> | null =>
      match.startsWith('{@')
        ? [
            [7, 'Foo'],
            [11, 'bar'],
          ]
        : null;
    pushCodeMentions(refs, source, 0, source.length, new LineIndex(source), CODE, 'comment', null, split);
    expect(refs.map((r) => [r.name, r.span.startCol])).to.deep.equal([
      ['Foo', 15],
      ['bar', 19],
    ]);
  });

  it('skips a text without the clue every match contains, and finds the same names in one with it', () => {
    const clue = /[(`{]|[a-z][A-Z]/;
    const mentions = (source: string, mayMatch?: RegExp): string[] => {
      const refs: ExtractedReference[] = [];
      const lines = new LineIndex(source);
      pushCodeMentions(refs, source, 0, source.length, lines, CODE, 'comment', null, undefined, mayMatch);
      return refs.map((r) => `${r.name}@${r.span.startCol}`);
    };
    expect(mentions('plain prose, Capitalised words and numbers 123', clue)).to.deep.equal([]);
    for (const source of ['call run() on', 'a `tick` here', 'see {@link Foo#bar}', 'getValue and x'])
      expect(mentions(source, clue), source).to.deep.equal(mentions(source)).and.not.deep.equal([]);
  });
});

const def = (over: Partial<RefactorIndexDefinition>): RefactorIndexDefinition =>
  ({ path: 'a.go', name: 'Run', qualified_name: 'Run', kind: 'function', name_line: 1, name_col: 5, ...over }) as never;

describe('RenameEdits', () => {
  const files: Record<string, string> = { 'a.go': 'func Run() {}\nRun()\n', 'b.go': 'x := Run\n' };
  const workspace = {
    read: (path: string) => files[path],
    files: () => Object.keys(files).map((path) => ({ path, language: 'go' })),
    references: ({ toDefUid }: { toDefUid?: string }): RefactorIndexReference[] =>
      toDefUid === 'u1'
        ? ([
            { path: 'a.go', name: 'Run', context: 'call', start_line: 2, start_col: 0 },
            { path: 'b.go', name: 'Run', context: 'comment', start_line: 1, start_col: 5 },
            { path: 'b.go', name: 'Run', context: 'value', start_line: 1, start_col: 6 },
          ] as never)
        : [],
  };

  it('edits resolved code references high, skips mentions, and never edits a span that lost the name', () => {
    const plan = new RenameEdits({ name: 'Run' }, 'Go', workspace);
    plan.add('a.go', 1, 5, 'high');
    const resolved = plan.addResolved([def({ def_uid: 'u1' } as never)], workspace);
    expect(resolved).to.have.length(3);
    // b.go:1:6 is stale (the name is at column 5): dropped by default
    expect(plan.edits.map((e) => [e.path, e.span.startLine, e.span.startCol, e.newText, e.certainty])).to.deep.equal([
      ['a.go', 1, 5, 'Go', 'high'],
      ['a.go', 2, 0, 'Go', 'high'],
    ]);
    expect(plan.unedited).to.deep.equal([]);
    expect([...plan.filesMentioning(workspace, /\.go$/)].map((f) => f.path)).to.deep.equal(['a.go', 'b.go']);
  });

  it('lists a stale place as unedited when asked, and gives a place its own text', () => {
    const plan = new RenameEdits({ name: 'Run' }, 'Go', workspace, {
      stale: 'unedited',
      newTextAt: (text, col) => (text.startsWith('x :=') ? `Go /*${col}*/` : 'Go'),
    });
    plan.add('b.go', 1, 6, 'medium');
    plan.add('b.go', 1, 5, 'medium');
    expect(plan.unedited).to.deep.equal([
      { path: 'b.go', line: 1, column: 6, certainty: 'medium', reason: 'the file changed since it was indexed' },
    ]);
    expect(plan.edits[0]!.newText).to.equal('Go /*5*/');
  });

  it('keeps one edit per position: the first, or the surest', () => {
    const at = (certainty: RefactorEdit['certainty']): RefactorEdit => ({
      path: 'a.go',
      span: { startLine: 1, startCol: 5, endLine: 1, endCol: 8 },
      oldText: 'Run',
      newText: 'Go',
      certainty,
    });
    expect(distinctEdits([at('low'), at('high')]).map((e) => e.certainty)).to.deep.equal(['low']);
    expect(distinctEdits([at('low'), at('high')], 'surest').map((e) => e.certainty)).to.deep.equal(['high']);
  });

  it('merges overloads into one symbol', () => {
    const symbols = overloadedSymbols([def({ name_line: 1 }), def({ name_line: 4 }), def({ qualified_name: 'X.Run' })]);
    expect(symbols.map((s) => [s.qualifiedName, s.line, s.moreLines])).to.deep.equal([
      ['Run', 1, [4]],
      ['X.Run', 1, undefined],
    ]);
  });
});

describe('scanEntryPoints', () => {
  it('keeps mains with and without a name, sorted by path', () => {
    const texts: Record<string, string> = {
      'b/main.go': 'main b',
      'a/main.go': 'main',
      'c/lib.go': 'lib',
      'x.rs': 'main',
    };
    const context = { root: '/r', files: new Set(Object.keys(texts)), readText: (path: string) => texts[path] ?? null };
    const found = scanEntryPoints(context, '.go', (_path, text) =>
      text.startsWith('main') ? (text.split(' ')[1] ?? null) : false,
    );
    expect(found).to.deep.equal([
      { path: 'a/main.go', kind: 'main', name: null, declared_in: 'a/main.go' },
      { path: 'b/main.go', kind: 'main', name: 'b', declared_in: 'b/main.go' },
    ]);
  });
});
