import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import Parser from 'tree-sitter';
import { FlatTreeParser, type FlatCursor, type FlatNode, type FlatTree } from '../src/index.js';

const require = createRequire(import.meta.url);
const PYTHON = require('tree-sitter-python') as Parser.Language;
const TYPESCRIPT = (require('tree-sitter-typescript') as { typescript: Parser.Language }).typescript;
const JAVASCRIPT = require('tree-sitter-javascript') as Parser.Language;
const GO = require('tree-sitter-go') as Parser.Language;
const RUST = require('tree-sitter-rust') as Parser.Language;
const JAVA = require('tree-sitter-java') as Parser.Language;
const REPO = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');

function loaded(): FlatTreeParser {
  const parser = FlatTreeParser.load();
  if (parser instanceof Error)
    throw new Error(`the addon did not load (npm rebuild @agentgov/flat-tree): ${parser.message}`);
  return parser;
}

/** What a walker can read of a node, from either API; `fields` are the grammar's field names. */
function reading(node: Parser.SyntaxNode | FlatNode, fields: string[], siblings: boolean): unknown {
  const brief = (other: Parser.SyntaxNode | FlatNode | null) =>
    other ? `${other.type}@${other.startIndex}-${other.endIndex}` : null;
  return {
    type: node.type,
    typeId: node.typeId,
    flags: [node.isNamed, node.isMissing, node.isExtra, node.hasError, node.isError],
    span: [node.startIndex, node.endIndex, node.startPosition, node.endPosition],
    text: node.text,
    counts: [node.childCount, node.namedChildCount],
    parent: brief(node.parent),
    // In a tree with errors, tree-sitter's `ts_node_next_sibling` can step over a zero-width node (an empty `block`
    // after a broken `class A(:`) that its own `children` and cursor list; ours are the cursor's siblings.
    siblings: siblings
      ? [node.nextSibling, node.previousSibling, node.nextNamedSibling, node.previousNamedSibling].map(brief)
      : null,
    children: node.children.map(brief),
    named: node.namedChildren.map(brief),
    ends: [node.firstChild, node.lastChild, node.firstNamedChild, node.lastNamedChild].map(brief),
    indexed: [node.child(0), node.child(1), node.namedChild(0), node.namedChild(1), node.child(99)].map(brief),
    byField: fields.map((field) => [brief(node.childForFieldName(field)), node.childrenForFieldName(field).map(brief)]),
  };
}

/** Walks both trees with their cursors in step, comparing every node; returns how many were compared. */
function compareTrees(grammar: Parser.Language, source: string, flat: FlatTreeParser): number {
  const parser = new Parser();
  parser.setLanguage(grammar);
  const tree = parser.parse(source, undefined, { bufferSize: source.length * 2 + 1024 });
  const ours: FlatTree = flat.parse(grammar, source);
  expect(ours.language).to.equal(grammar);
  const fields = [
    ...new Set(
      Object.values((grammar as { nodeTypeInfo: Array<{ fields?: object }> }).nodeTypeInfo).flatMap((info) =>
        Object.keys(info.fields ?? {}),
      ),
    ),
  ].concat(['no_such_field']);
  const theirs = tree.walk();
  const mine: FlatCursor = ours.walk();
  let compared = 0;
  const step = (): void => {
    expect([mine.nodeType, mine.nodeTypeId, mine.nodeIsNamed, mine.nodeIsMissing, mine.currentFieldName]).to.deep.equal(
      [theirs.nodeType, theirs.nodeTypeId, theirs.nodeIsNamed, theirs.nodeIsMissing, theirs.currentFieldName],
    );
    expect([mine.startIndex, mine.endIndex, mine.startPosition, mine.endPosition]).to.deep.equal([
      theirs.startIndex,
      theirs.endIndex,
      theirs.startPosition,
      theirs.endPosition,
    ]);
    const clean = !tree.rootNode.hasError;
    expect(reading(mine.currentNode, fields, clean)).to.deep.equal(reading(theirs.currentNode, fields, clean));
    compared += 1;
    const down = theirs.gotoFirstChild();
    expect(mine.gotoFirstChild()).to.equal(down);
    if (!down) return;
    for (;;) {
      step();
      const next = theirs.gotoNextSibling();
      expect(mine.gotoNextSibling()).to.equal(next);
      if (!next) break;
    }
    expect(mine.gotoParent()).to.equal(theirs.gotoParent());
  };
  step();
  expect(mine.gotoParent(), 'a cursor does not leave its start node').to.equal(false);
  expect(mine.gotoNextSibling()).to.equal(false);
  expect(compared).to.equal(ours.nodeCount);
  return compared;
}

function sourceFiles(dir: string, extension: string, into: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) sourceFiles(path, extension, into);
    else if (entry.endsWith(extension)) into.push(path);
  }
  return into;
}

describe('FlatTree: the native parse read through node-tree-sitter’s API', function () {
  it('answers every node question as node-tree-sitter does, on Python with non-ASCII text', function () {
    const source = [
      'def f(x, *, y=2):',
      '    """doc ünï 🎉 — ü"""',
      '    return x.y(z) + "é🎉" # comment ß',
      'class A(B, metaclass=M):',
      '  @decorated',
      '  def g(self): pass',
      'import a.b as c',
      'from .d import (e, f as g)',
    ].join('\n');
    expect(compareTrees(PYTHON, source, loaded())).to.be.greaterThan(80);
  });

  it('matches on broken sources: ERROR and MISSING nodes, hasError up the tree', function () {
    const flat = loaded();
    const loneSurrogates = ['\uD800x = 1\n', 'x = "\uDC00"\ny = 2\n', 'def f():\n    return "\uD83D"\n'];
    for (const source of [
      'def (:\n  x = ',
      'class A(:\n',
      'x = [1, 2\nprint(',
      '',
      '\n\n',
      '🎉🎉 = (',
      ...loneSurrogates,
    ]) {
      compareTrees(PYTHON, source, flat);
    }
    const broken = flat.parse(PYTHON, 'def (:\n  x = ');
    expect(broken.rootNode.hasError).to.equal(true);
    compareTrees(JAVASCRIPT, 'function (a, { if (', flat);
    compareTrees(TYPESCRIPT, 'let x: = ;\nclass { m( }', flat);
  });

  it('matches on JavaScript with templates and JSX, and on this repository’s own TypeScript', function () {
    const flat = loaded();
    compareTrees(JAVASCRIPT, 'const a = `x${b}🎉`;\nconst el = <div a="1">{c}</div>;', flat);
    const files = sourceFiles(join(REPO, 'core', 'src'), '.ts').slice(0, 25);
    expect(files.length).to.be.greaterThan(10);
    let nodes = 0;
    for (const file of files) nodes += compareTrees(TYPESCRIPT, readFileSync(file, 'utf8'), flat);
    expect(nodes).to.be.greaterThan(10_000);
  });

  it('matches on Go, Rust and Java: aliased nodes, fields reached through hidden nodes, extras, errors', function () {
    const flat = loaded();
    const go = [
      'package main',
      'import (f "fmt"; . "os")',
      'type T[K comparable, V any] struct{ a, b int `tag:"x"`; *Embedded }',
      'func (t *T[K, V]) M(x ...int) (r int, err error) { /* c */ for i := range x { r += i }; return }',
      'var _ = func() { select { case v := <-ch: _ = v; default: } }',
      'func broken( { x := ',
    ].join('\n');
    const rust = [
      "#[derive(Debug)] pub struct S<'a, T: Clone> { pub a: &'a T, b: Vec<u8> }",
      "impl<T> Tr for S<'_, T> where T: Clone {",
      '  fn m(&self) -> Option<i32> { let Some(x) = y else { return None }; x? }',
      '}',
      'macro_rules! m { ($e:expr) => { $e + 1 }; }',
      'fn g() { m!(2); let c = |a: i32| a * 2; match v { A::B(x) | A::C { x, .. } if x > 1 => {}, _ => () } }',
      '/// doc ü 🎉',
      'fn broken( -> { let = ; }',
    ].join('\n');
    const java = [
      'package a.b; import static java.util.Map.*;',
      '@interface Ann { int v() default 1; }',
      'public sealed class C<T extends Comparable<T>> permits D { // c ü',
      '  record R(int x, String... ys) {}',
      '  <U> U m(T t) throws E { var l = (Runnable & Serializable) () -> {};',
      '    return switch (k) { case 1 -> a; default -> { yield b; } }; }',
      '  enum E { A("x") { void f() {} }, B; }',
      '  void broken( { int = ; ',
    ].join('\n');
    expect(compareTrees(GO, go, flat)).to.be.greaterThan(150);
    expect(compareTrees(RUST, rust, flat)).to.be.greaterThan(200);
    expect(compareTrees(JAVA, java, flat)).to.be.greaterThan(150);
    // the sources reach what the direct walk must get right: a field on a node of a hidden rule (Go's `result`),
    // a node shown under an alias (Rust's `field_identifier`, an aliased `identifier`)
    const parser = new Parser();
    parser.setLanguage(GO);
    const method = parser.parse(go).rootNode.descendantsOfType('method_declaration')[0]!;
    expect(method.childForFieldName('result')?.type).to.equal('parameter_list');
    parser.setLanguage(RUST);
    expect(parser.parse(rust).rootNode.descendantsOfType('field_identifier').length).to.be.greaterThan(1);
    for (const source of ['', 'package', 'fn', 'class', '\uD800']) {
      compareTrees(GO, source, flat);
      compareTrees(RUST, source, flat);
      compareTrees(JAVA, source, flat);
    }
  });

  it('keeps one node object per node and a cursor within its start node', function () {
    const tree = loaded().parse(PYTHON, 'def f():\n  return 1\ndef g():\n  pass\n');
    const first = tree.rootNode.firstNamedChild!;
    expect(first.type).to.equal('function_definition');
    expect(tree.rootNode.namedChildren[0]).to.equal(first);
    expect(first.parent).to.equal(tree.rootNode);
    const cursor = first.walk();
    expect(cursor.gotoNextSibling(), 'not to the next function').to.equal(false);
    expect(cursor.gotoFirstChild()).to.equal(true);
    expect(cursor.nodeType).to.equal('def');
    expect(cursor.gotoParent()).to.equal(true);
    expect(cursor.gotoParent()).to.equal(false);
    cursor.reset(tree.rootNode);
    expect(cursor.currentNode).to.equal(tree.rootNode);
  });

  it('frees a tree on dispose(): it reads no more, and a second dispose is harmless', function () {
    const tree = loaded().parse(PYTHON, 'x = 1\n');
    expect(tree.rootNode.type).to.equal('module');
    tree.dispose();
    tree.dispose();
    expect(() => tree.rootNode).to.throw(/after dispose/);
    expect(() => tree.walk()).to.throw(/after dispose/);
  });

  it('reuses a disposed tree’s memory for the next tree, never a live tree’s', function () {
    const flat = loaded();
    const small = 'x = 1\n';
    const large = Array.from({ length: 400 }, (_, i) => `def f${i}(a, b):\n    return a + b * ${i}\n`).join('');
    const first = flat.parse(PYTHON, large);
    const types = (tree: FlatTree) => {
      const out: string[] = [];
      const cursor = tree.walk();
      const visit = (): void => {
        out.push(`${cursor.nodeType}@${cursor.startIndex}`);
        if (cursor.gotoFirstChild()) {
          do visit();
          while (cursor.gotoNextSibling());
          cursor.gotoParent();
        }
      };
      visit();
      return out.join(' ');
    };
    const expected = types(first);
    // while `first` is live, other trees do not write over it
    const second = flat.parse(PYTHON, small);
    expect(types(first)).to.equal(expected);
    first.dispose();
    // the next trees use what `first` gave back, and read right
    const third = flat.parse(PYTHON, small);
    const fourth = flat.parse(PYTHON, large);
    expect(types(third)).to.equal(types(second));
    expect(types(fourth)).to.equal(expected);
    third.dispose();
    fourth.dispose();
    second.dispose();
    expect(compareTrees(PYTHON, large, flat)).to.be.greaterThan(4000);
  });

  it('says what is wrong with bad arguments, and does not crash', function () {
    const flat = loaded();
    expect(() => flat.parse({}, 'x')).to.throw(/no `language` external/);
    expect(() => flat.parse(PYTHON, 42 as unknown as string)).to.throw(/must be a string/);
  });
});
