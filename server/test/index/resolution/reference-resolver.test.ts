import type { ExtractedReference, ReferenceContext } from '@agentgov/core';
import { expect } from 'chai';
import { CompactReferences, packReferences, StringPool } from '../../../src/index/compact-references.js';
import {
  ReferenceResolver,
  type ModuleFacts,
  type ResolvedReferences,
} from '../../../src/index/resolution/reference-resolver.js';
import type { Definition, ImportEdge } from '../../../src/index/types.js';

function definition(path: string, qualifiedName: string, exported = true): Definition {
  const name = qualifiedName.split('.').pop()!;
  return {
    def_uid: `${path}#${qualifiedName}`,
    path,
    kind: 'function',
    name,
    qualified_name: qualifiedName,
    start_line: 1,
    start_col: 0,
    end_line: 1,
    end_col: 1,
    name_line: 1,
    name_col: 0,
    signature: name,
    docstring: null,
    body_hash: '0',
    exported,
  };
}

function reference(
  name: string,
  enclosing: string | null,
  context: ReferenceContext = 'value',
  qualifier: string | null = null,
  line = 1,
): ExtractedReference {
  return { name, context, qualifier, enclosing, span: { startLine: line, startCol: 0, endLine: line, endCol: 1 } };
}

const MODULES: Record<string, ModuleFacts> = {
  'a.ts': {
    path: 'a.ts',
    python: false,
    definitions: [
      definition('a.ts', 'helper'),
      definition('a.ts', 'outer'),
      definition('a.ts', 'outer.helper'),
      definition('a.ts', 'other'),
    ],
    exports: { localExports: [], defaultExports: [] },
    imports: [],
  },
  'lib.js': {
    path: 'lib.js',
    python: false,
    definitions: [definition('lib.js', 'main')],
    exports: { localExports: [], defaultExports: ['lib.js#main'] },
    imports: [],
  },
  'm.js': {
    path: 'm.js',
    python: false,
    definitions: [definition('m.js', 'run')],
    exports: { localExports: [], defaultExports: [] },
    imports: [
      {
        from_path: 'm.js',
        specifier: './lib',
        kind: 'require',
        to_path: 'lib.js',
        names: ['*'],
        bindings: [{ imported: '*', local: 'lib' }],
        star: false,
        line: 1,
      } as ImportEdge,
    ],
  },
};

const known = new Set(['helper', 'outer', 'other', 'main', 'run', 'lib', 'elsewhere']);
const resolver = () =>
  new ReferenceResolver(
    (path) => MODULES[path],
    (name) => known.has(name),
  );
const compact = (references: ExtractedReference[]) =>
  new CompactReferences(packReferences(references), new StringPool());
/** Each reference's (from, to), or null when dropped. */
const targets = ({ resolutionOf, resolutions }: ResolvedReferences) =>
  [...resolutionOf].map((at) => (at < 0 ? null : resolutions[at]!));

describe('reference resolver: one file at a time', () => {
  it('resolves a name by its enclosing definition, each occurrence in its own scope', () => {
    const resolved = resolver().resolveFile(
      'a.ts',
      compact([
        reference('helper', 'outer', 'call', null, 1),
        reference('helper', 'other', 'call', null, 2),
        reference('helper', 'outer', 'call', null, 3),
        reference('helper', null, 'value', null, 4),
        reference('unknownName', 'outer', 'call', null, 5),
        reference('elsewhere', 'outer', 'value', null, 6),
      ]),
    );
    expect(targets(resolved)).to.deep.equal([
      { from: 'a.ts#outer', to: 'a.ts#outer.helper' },
      { from: 'a.ts#other', to: 'a.ts#helper' },
      { from: 'a.ts#outer', to: 'a.ts#outer.helper' },
      { from: null, to: 'a.ts#helper' },
      null, // unresolved and no definition has the name: dropped
      { from: 'a.ts#outer', to: null }, // unresolved, kept: some definition has the name
    ]);
    // alike references share one resolution
    expect(resolved.resolutions).to.have.length(4);
    expect(resolved.resolutionOf[0]).to.equal(resolved.resolutionOf[2]);
  });

  it('tells a call of a required module from the same name as a value', () => {
    const resolved = resolver().resolveFile(
      'm.js',
      compact([reference('lib', 'run', 'call'), reference('lib', 'run', 'value'), reference('lib', 'run', 'call')]),
    );
    expect(targets(resolved)).to.deep.equal([
      { from: 'm.js#run', to: 'lib.js#main' },
      { from: 'm.js#run', to: null },
      { from: 'm.js#run', to: 'lib.js#main' },
    ]);
  });

  it('tells a qualified reference from a bare one of the same name', () => {
    const resolved = resolver().resolveFile(
      'm.js',
      compact([reference('main', 'run', 'call', 'lib'), reference('main', 'run', 'call')]),
    );
    // `lib.main` through the required module; a bare `main` is not in m.js's scope
    expect(targets(resolved).map((target) => target?.to)).to.deep.equal(['lib.js#main', null]);
    const viaA = resolver().resolveFile(
      'a.ts',
      compact([reference('helper', 'outer', 'call', 'this'), reference('helper', 'outer', 'call')]),
    );
    expect(targets(viaA).map((target) => target?.to)).to.deep.equal([null, 'a.ts#outer.helper']);
  });

  it('resolves each of many distinct references as it resolves it alone', () => {
    const references: ExtractedReference[] = [];
    for (let i = 0; i < 3000; i++) {
      const name = i % 3 === 0 ? 'helper' : i % 3 === 1 ? `name${i % 700}` : 'elsewhere';
      const enclosing = i % 5 === 0 ? null : i % 5 === 1 ? 'outer' : `scope${i % 11}`;
      references.push(reference(name, enclosing, i % 7 === 0 ? 'call' : 'value', i % 13 === 0 ? 'this' : null, i + 1));
    }
    known.add('name7');
    try {
      const together = targets(resolver().resolveFile('a.ts', compact(references)));
      const alone = references.map((ref) => targets(resolver().resolveFile('a.ts', compact([ref])))[0]);
      expect(together).to.deep.equal(alone);
      expect(together.filter((target) => target?.to === 'a.ts#outer.helper').length).to.be.greaterThan(100);
      expect(together.filter((target) => target === null).length).to.be.greaterThan(100);
    } finally {
      known.delete('name7');
    }
  });

  it('keys a file with a very large string table by text, with the same answers', () => {
    const packed = packReferences([
      reference('helper', 'outer', 'call', null, 1),
      reference('helper', 'other', 'call', null, 2),
      reference('helper', 'outer', 'call', null, 3),
    ]);
    // strings no reference uses, past the numeric key's span
    for (let i = 0; i < 100_001; i++) packed.strings.push(`filler${i}`);
    const resolved = resolver().resolveFile('a.ts', new CompactReferences(packed, new StringPool()));
    expect(targets(resolved).map((target) => target?.to)).to.deep.equal([
      'a.ts#outer.helper',
      'a.ts#helper',
      'a.ts#outer.helper',
    ]);
    expect(resolved.resolutions).to.have.length(2);
  });
});
