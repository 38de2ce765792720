import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LanguagePack } from '@agentgov/core';
import { FlatTree, FlatTreeParser } from '@agentgov/flat-tree';
import { LANGUAGE_PACKS as GO } from '@agentgov/plugin-language-go';
import { LANGUAGE_PACKS as RUST } from '@agentgov/plugin-language-rust';
import { expect } from 'chai';
import Parser from 'tree-sitter';
import { languageFor, parseErrorsOf, parseForExtraction } from '../../src/index/extract-file.js';
import { GO_SHOP } from '../languages/go-pack.test.js';
import { SHOP_JAVA } from '../tools/java-pack.test.js';
import { RUST_REPO } from '../tools/rust-fixture.js';
import { LANGUAGES as FIXTURE_LANGUAGES, PYTHON_REPO, TYPESCRIPT_REPO } from './fixture-repos.js';

const LANGUAGES: readonly LanguagePack[] = [...FIXTURE_LANGUAGES, ...GO, ...RUST];
const SERVER_SRC = fileURLToPath(new URL('../../../src/', import.meta.url));

/** node-tree-sitter's own tree of a source: what every pack's walker was written against. */
function nodeTree(pack: LanguagePack, source: string): Parser.Tree {
  const parser = new Parser();
  parser.setLanguage(pack.grammar as Parser.Language);
  return parser.parse(source, undefined, { bufferSize: source.length * 2 + 1024 });
}

function typescriptSources(dir: string, into: Record<string, string> = {}): Record<string, string> {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) typescriptSources(path, into);
    else if (entry.endsWith('.ts')) into[path] = readFileSync(path, 'utf8');
  }
  return into;
}

/** Each pack's facts from both trees; returns how many files were compared. */
function compareFacts(files: Record<string, string>): number {
  let compared = 0;
  for (const [path, source] of Object.entries(files)) {
    const pack = languageFor(path, LANGUAGES);
    if (!pack) continue;
    const flat = parseForExtraction(pack, source);
    expect(flat, 'the index parses with the native addon').to.be.instanceOf(FlatTree);
    const theirs = nodeTree(pack, source);
    expect(pack.extract(flat as Parser.Tree, source), path).to.deep.equal(pack.extract(theirs, source));
    expect(parseErrorsOf(flat as Parser.Tree), path).to.deep.equal(parseErrorsOf(theirs));
    compared += 1;
  }
  return compared;
}

describe('extraction from the native parse (@agentgov/flat-tree)', () => {
  it('the addon is built and loads (npm ci builds it with node-gyp)', () => {
    const parser = FlatTreeParser.load();
    expect(parser instanceof Error ? parser.message : 'loaded').to.equal('loaded');
  });

  it('gives every language pack the facts node-tree-sitter’s tree gives, on each pack’s fixture repository', () => {
    expect(compareFacts(TYPESCRIPT_REPO)).to.be.greaterThan(3);
    expect(compareFacts(PYTHON_REPO)).to.be.greaterThan(3);
    expect(compareFacts(SHOP_JAVA)).to.be.greaterThan(3);
    expect(compareFacts(GO_SHOP)).to.be.greaterThan(3);
    expect(compareFacts(RUST_REPO)).to.be.greaterThan(3);
  });

  it('a pack that does not say it reads a FlatTree (`flatTree`) gets node-tree-sitter’s tree', () => {
    const python = languageFor('a.py', LANGUAGES)!;
    expect(python.flatTree).to.equal(true);
    const tree = parseForExtraction({ ...python, flatTree: undefined }, 'def f():\n    return 1\n');
    expect(tree).to.not.be.instanceOf(FlatTree);
    expect((tree as Parser.Tree).rootNode.firstNamedChild!.type).to.equal('function_definition');
  });

  it('AGENTGOV_NATIVE_PARSE=0 turns it off: node-tree-sitter parses', () => {
    const extractFile = new URL('../../src/index/extract-file.js', import.meta.url).href;
    const script =
      `import { nativeParseState, parseForExtraction } from '${extractFile}';` +
      `import { LANGUAGE_PACKS } from '@agentgov/plugin-language-python';` +
      `const tree = parseForExtraction(LANGUAGE_PACKS[0], 'x = 1\\n');` +
      `console.log(JSON.stringify([nativeParseState(), tree.constructor.name, tree.rootNode.type]));`;
    const run = (value: string | undefined) => {
      const env = { ...process.env, AGENTGOV_NATIVE_PARSE: value };
      if (value === undefined) delete env['AGENTGOV_NATIVE_PARSE'];
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        cwd: fileURLToPath(new URL('../../../', import.meta.url)),
        env,
        encoding: 'utf8',
      });
      expect(child.status, child.stderr).to.equal(0);
      return JSON.parse(child.stdout) as unknown;
    };
    expect(run('0')).to.deep.equal([{ state: 'off' }, 'Tree', 'module']);
    expect(run(undefined)).to.deep.equal([{ state: 'on' }, 'FlatTree', 'module']);
  });

  it('and on this server’s own TypeScript sources and on broken files', function () {
    this.timeout(120_000);
    expect(compareFacts(typescriptSources(SERVER_SRC))).to.be.greaterThan(100);
    const broken = {
      'a.py': 'def f(x:\n    return lost(x)\nclass A(:\n  pass\n',
      'b.ts': 'export function f(a: { b: ) {\n  return a.\n}\nclass C { m( }\n',
      'c.go': 'package p\nfunc F( {\n  x :=\n}\n',
      'd.rs': 'fn f( -> { let x = ; }\nimpl A for {\n',
      'E.java': 'class E { void m( { int x = ; } }\n',
      'é.py': 'def f(é, :\n    """🎉 doc"""\n    return g(é)\n',
    };
    expect(compareFacts(broken)).to.equal(6);
  });
});
