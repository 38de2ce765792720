import { createHooks, createRegistries, type ExtractedFacts, type LanguagePack } from '@agentgov/core';
import { expect } from 'chai';
import Parser from 'tree-sitter';
import plugin, { LANGUAGE_PACKS } from '../src/index.js';

function facts(packName: string, source: string): ExtractedFacts {
  const pack = LANGUAGE_PACKS.find((candidate) => candidate.name === packName)!;
  const parser = new Parser();
  parser.setLanguage(pack.grammar as Parser.Language);
  return pack.extract(parser.parse(source), source);
}

describe('language-typescript', () => {
  it('registers TypeScript, TSX and JavaScript packs through the languages hook', () => {
    const hooks = createHooks();
    const registries = createRegistries();
    plugin.apply(hooks, {} as never);
    hooks.languages.call(registries.languages);
    const packs: LanguagePack[] = registries.languages.values();
    expect(packs.map((pack) => [pack.name, pack.extensions, pack.moduleSystem])).to.deep.equal([
      ['typescript', ['.ts', '.mts', '.cts'], 'ecmascript'],
      ['tsx', ['.tsx'], 'ecmascript'],
      ['javascript', ['.js', '.mjs', '.cjs', '.jsx'], 'ecmascript'],
    ]);
  });

  it('TSX: arrow-function components, default exports, class fields holding functions, namespaces', () => {
    const result = facts(
      'tsx',
      `/** A button. */
export const Button = (props: { label: string }) => <button onClick={props.onClick}>{props.label}</button>;
export default function App() { return <Button label="hi" />; }
class Store { count = 0; increment = () => { this.count++; }; }
namespace Shapes { export function area() { return 1; } }
`,
    );
    expect(
      result.definitions.map((def) => [def.kind, def.qualifiedName, def.exported, def.isDefault, def.docstring]),
    ).to.deep.equal([
      ['function', 'Button', true, false, 'A button.'],
      ['function', 'App', true, true, null],
      ['class', 'Store', false, false, null],
      ['method', 'Store.increment', false, false, null],
      ['function', 'Shapes.area', true, false, null],
    ]);
    expect(
      result.references
        .filter((ref) => ref.name === 'Button')
        .map((ref) => [ref.context, ref.span.startLine, ref.enclosing]),
    ).to.deep.equal([['value', 3, 'App']]);
  });

  it('parameters and function-local variables are not references; module-level names used inside are', () => {
    const result = facts(
      'typescript',
      `const offset = 1;
export function shift(values: number[]) {
  const scale = 2;
  return values.map((n) => n * scale + offset);
}
`,
    );
    expect(
      result.references.filter((ref) => ref.context === 'value').map((ref) => [ref.name, ref.enclosing]),
    ).to.deep.equal([['offset', 'shift']]);
    expect(result.definitions.map((def) => def.qualifiedName)).to.deep.equal(['offset', 'shift']);
  });

  it('TypeScript: every import form, with its bindings, kind and line', () => {
    const result = facts(
      'typescript',
      `import Vue, * as all from 'vue';
import { ref, computed as c, type Ref } from './reactivity';
import type { Options } from "../options";
import './side-effect.css';
import { 'quoted-name' as quoted } from './strings';
import legacy = require('legacy');
import {} from './empty';
import json from './data.json' with { type: 'json' };
export function use() { return ref(c(Vue)); }
`,
    );
    expect(result.imports.map((entry) => [entry.specifier, entry.kind, entry.line, entry.bindings])).to.deep.equal([
      [
        'vue',
        'import',
        1,
        [
          { imported: 'default', local: 'Vue' },
          { imported: '*', local: 'all' },
        ],
      ],
      [
        './reactivity',
        'import',
        2,
        [
          { imported: 'ref', local: 'ref' },
          { imported: 'computed', local: 'c' },
          { imported: 'Ref', local: 'Ref' },
        ],
      ],
      ['../options', 'import', 3, [{ imported: 'Options', local: 'Options' }]],
      ['./side-effect.css', 'import', 4, []],
      ['./strings', 'import', 5, [{ imported: "'quoted-name'", local: 'quoted' }]],
      ['./empty', 'import', 7, []],
      ['./data.json', 'import', 8, [{ imported: 'default', local: 'json' }]],
    ]);
    // The bound names are references in the import context, and the source strings are not mentions.
    expect(result.references.filter((ref) => ref.context === 'import').map((ref) => ref.name)).to.include.members([
      'Vue',
      'all',
      'ref',
      'computed',
      'c',
      'Options',
      'json',
    ]);
    expect(result.references.filter((ref) => ref.context === 'string').map((ref) => ref.name)).to.deep.equal([]);
  });

  it('JavaScript: CommonJS require, dynamic import, re-exports and local export lists', () => {
    const result = facts(
      'javascript',
      `const fs = require('fs');
const { join, resolve: res } = require('path');
export * as utils from './utils.js';
export { a as b } from './a.js';
const lazy = () => import('./lazy.js');
function local() {}
export { local as publicName };
// see parseConfigFile() in loader
`,
    );
    expect(result.imports.map((entry) => [entry.specifier, entry.kind, entry.star, entry.bindings])).to.deep.equal([
      ['fs', 'require', false, [{ imported: '*', local: 'fs' }]],
      [
        'path',
        'require',
        false,
        [
          { imported: 'join', local: 'join' },
          { imported: 'resolve', local: 'res' },
        ],
      ],
      ['./utils.js', 'reexport', false, [{ imported: '*', local: 'utils' }]],
      ['./a.js', 'reexport', false, [{ imported: 'a', local: 'b' }]],
      ['./lazy.js', 'dynamic', false, []],
    ]);
    expect(result.localExports).to.deep.equal([{ exported: 'publicName', local: 'local' }]);
    const mention = result.references.find((ref) => ref.context === 'comment')!;
    expect(mention).to.deep.include({
      name: 'parseConfigFile',
      span: { startLine: 8, startCol: 7, endLine: 8, endCol: 22 },
    });
  });
});
