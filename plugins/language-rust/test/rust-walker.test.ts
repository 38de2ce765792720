import { expect } from 'chai';
import type { ExtractedFacts, PackModulesContext } from '@agentgov/core/contracts';
import Parser from 'tree-sitter';
import Rust from 'tree-sitter-rust';
import { RustModules } from '../src/rust-modules.js';
import { memberOperandBefore, pathStartBefore, walkRust } from '../src/rust-walker.js';

const parser = new Parser();
parser.setLanguage(Rust);
const facts = (source: string): ExtractedFacts => walkRust(parser.parse(source), source);
const refs = (source: string) =>
  facts(source)
    .references.filter((r) => r.context !== 'comment' && r.context !== 'string')
    .map((r) => `${r.context} ${r.qualifier ? `${r.qualifier}.` : ''}${r.name}`);

describe('Rust walker', () => {
  it('qualifies impl members by their type, trait impls included, and reads doc comments and visibility', () => {
    const { definitions } = facts(`/// A stack.
/// Of numbers.
pub struct Stack<T> { items: Vec<T> }
impl<T> Stack<T> {
    /// Pushes one.
    pub fn push(&mut self, item: T) { self.items.push(item); }
    fn len(&self) -> usize { self.items.len() }
    const LIMIT: usize = 8;
}
impl<T> Default for Stack<T> { fn default() -> Self { Stack { items: Vec::new() } } }
#[macro_export]
macro_rules! stack { () => { Stack::default() }; }
pub(crate) mod inner { pub fn helper() {} }
`);
    expect(definitions.map((d) => `${d.kind} ${d.qualifiedName} ${d.exported}`)).to.deep.equal([
      'struct Stack true',
      'field Stack.items false',
      'method Stack.push true',
      'method Stack.len false',
      'constant Stack.LIMIT false',
      'method Stack.default true',
      'macro stack true',
      'module inner true',
      'function inner.helper true',
    ]);
    expect(definitions[0]!.docstring).to.equal('A stack.\nOf numbers.');
    expect(definitions[2]!.signature).to.equal('pub fn push(&mut self, item: T)');
  });

  it('takes the attributes and doc comments right above an item, up to any other sibling or a plain comment', () => {
    const { definitions } = facts(`/// Not a's: a plain comment follows.
// plain
/// First line.
#[derive(Debug)]
/** Second line. */
#[cfg(test)]
mod a { fn one() {} }
/// Not b's either: the item a stands between.
fn b() {}
//// Four slashes: no doc.
fn c() {}
`);
    const doc = (name: string) => definitions.find((d) => d.name === name)!.docstring;
    expect([doc('a'), doc('b'), doc('c')]).to.deep.equal([
      'First line.\nSecond line.',
      "Not b's either: the item a stands between.",
      null,
    ]);
    // `#[cfg(test)]` two attributes up still marks the module as test code (no search words)
    expect(definitions.find((d) => d.name === 'a')!.bodyIdentifiers).to.deep.equal([]);
    expect(definitions.find((d) => d.name === 'b')!.bodyIdentifiers).to.include('b');
  });

  it('keeps parameters, let and match bindings and closure parameters out of the references', () => {
    expect(
      refs(`fn run(limit: u32, items: &[Item]) -> u32 {
    let total = items.len() as u32;
    let Item { weight, .. } = items[0];
    for item in items { check(item); }
    match total { Some(found) => found, None => limit };
    items.iter().map(|x| x.weight).sum::<u32>() + weight
}`),
    ).to.deep.equal([
      'type Item',
      'call items.len',
      'type Item',
      'member Item.weight',
      'call check',
      'value Some',
      'value None',
      'call items.iter',
      'call items.iter().map',
      'member x.weight',
      'call items.iter().map(|x| x.weight).sum',
    ]);
  });

  it('reads paths as dotted qualifiers: Self:: is the impl type, self:: is dropped, macro arguments count', () => {
    expect(
      refs(`impl Parser {
    fn make() -> Self { Self::new(crate::lexer::tokens(), self::limit()) }
    fn show(&self) { println!("{}", util::format(self.depth)); }
}`),
    ).to.deep.equal([
      'type Parser',
      'call Parser.new',
      'value crate.lexer',
      'call crate.lexer.tokens',
      'call limit',
      'call println',
      'value util',
      'call util.format',
      'member self.depth',
    ]);
  });

  it('gives each use item both readings, a glob a star import, pub use a re-export, and imports module paths', () => {
    const { imports } = facts(`use crate::shapes::{circle, Square as Sq};
pub use self::inner::*;
mod inner;
fn f() { inner::run(); crate::util::log(); }
#[cfg(test)]
mod tests { use super::*; }
`);
    expect(imports.map((i) => `${i.kind} ${i.specifier} ${i.star ? '*' : JSON.stringify(i.bindings)}`)).to.deep.equal([
      'import crate::shapes [{"imported":"circle","local":"circle"}]',
      'import crate::shapes::circle [{"imported":"*","local":"circle"}]',
      'import crate::shapes [{"imported":"Square","local":"Sq"}]',
      'reexport self::inner *',
      'import self::inner [{"imported":"*","local":"inner"}]',
      'import crate::util [{"imported":"*","local":"crate.util"}]',
      // `super` inside an inline module is this file's own module
      'import self *',
    ]);
  });
});

/** A context over an in-memory repository. */
function context(files: Record<string, string>): PackModulesContext {
  return {
    root: '/repo',
    files: new Set(Object.keys(files).filter((path) => path.endsWith('.rs'))),
    readText: (path) => files[path] ?? null,
  };
}

describe('Rust macro-argument scanners', () => {
  it('read the path and member operand before a token exactly as the anchored regular expressions do', () => {
    const PATH = /((?:(?:[A-Za-z_]\w*|\$crate)\s*::\s*)+)$/;
    const MEMBER = /([A-Za-z_]\w*|[)\]?])\s*\.\s*$/;
    const pieces = [
      'a',
      'Zb',
      '_',
      '9',
      '12x',
      '$',
      'crate',
      '$crate',
      ':',
      '::',
      '.',
      ' ',
      '\n',
      '\u00a0',
      '(',
      ')',
      ']',
      '?',
      '-',
    ];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let paths = 0;
    let members = 0;
    for (let i = 0; i < 20000; i++) {
      let text = '';
      for (let k = next(9); k >= 0; k--) text += pieces[next(pieces.length)];
      text += ['::', ' ::\n', '.', ' . ', ''][next(5)];
      const low = next(3) === 0 ? Math.min(text.length, next(4)) : 0;
      const before = text.slice(low);
      const path = PATH.exec(before);
      expect(pathStartBefore(text, text.length, low), JSON.stringify([text, low])).to.equal(
        path ? text.length - path[1]!.length : -1,
      );
      expect(memberOperandBefore(text, text.length, low), JSON.stringify([text, low])).to.equal(
        MEMBER.exec(before)?.[1] ?? null,
      );
      if (path) paths++;
      if (MEMBER.exec(before)) members++;
    }
    // the generated texts exercise both
    expect(paths).to.be.greaterThan(1000);
    expect(members).to.be.greaterThan(1000);
  });
});

describe('Rust module resolution', () => {
  const repo = {
    'Cargo.toml': '[workspace]\nmembers = ["engine", "cli"]\n',
    'engine/Cargo.toml': '[package]\nname = "my-engine"\n',
    'engine/src/lib.rs': '',
    'engine/src/parse.rs': '',
    'engine/src/parse/lexer.rs': '',
    'engine/src/eval/mod.rs': '',
    'engine/src/eval/scope.rs': '',
    'engine/tests/common/mod.rs': '',
    'engine/tests/smoke.rs': '',
    'cli/Cargo.toml': '[package]\nname = "cli"\n\n[[bin]]\nname = "tool"\npath = "src/tool.rs"\n',
    'cli/src/main.rs': '',
    'cli/src/tool.rs': '',
    'cli/src/args.rs': '',
    'cli/src/bin/extra.rs': '',
    'cli/examples/demo.rs': 'fn main() {}\n',
  };
  const modules = new RustModules(context(repo));

  it('maps crate::, self::, super:: and child-module paths to a.rs, a/mod.rs and non-mod.rs children', () => {
    expect(modules.resolve('engine/src/lib.rs', 'crate::parse')).to.deep.equal(['engine/src/parse.rs']);
    expect(modules.resolve('engine/src/parse.rs', 'self::lexer')).to.deep.equal(['engine/src/parse/lexer.rs']);
    expect(modules.resolve('engine/src/parse/lexer.rs', 'super')).to.deep.equal(['engine/src/parse.rs']);
    expect(modules.resolve('engine/src/parse/lexer.rs', 'super::super::eval')).to.deep.equal([
      'engine/src/eval/mod.rs',
    ]);
    expect(modules.resolve('engine/src/eval/scope.rs', 'crate')).to.deep.equal(['engine/src/lib.rs']);
    expect(modules.resolve('engine/src/lib.rs', 'eval::scope')).to.deep.equal(['engine/src/eval/scope.rs']);
    expect(modules.resolve('engine/tests/smoke.rs', 'crate::common')).to.deep.equal(['engine/tests/common/mod.rs']);
  });

  it('resolves workspace crates by name (dashes as underscores) and nothing for external crates or std', () => {
    expect(modules.crateNames()).to.deep.equal(['my_engine']);
    expect(modules.resolve('cli/src/main.rs', 'my_engine::eval')).to.deep.equal(['engine/src/eval/mod.rs']);
    expect(modules.resolve('engine/tests/smoke.rs', 'my_engine')).to.deep.equal(['engine/src/lib.rs']);
    expect(modules.resolve('cli/src/main.rs', 'std::collections')).to.deep.equal([]);
    expect(modules.resolve('cli/src/main.rs', 'serde')).to.deep.equal([]);
    expect(modules.resolve('cli/src/main.rs', 'self::args')).to.deep.equal(['cli/src/args.rs']);
  });

  it('lists Cargo binaries ([[bin]], src/main.rs, src/bin/) and examples with a main as entry points', () => {
    expect(modules.entryPoints().map((e) => `${e.kind} ${e.path} ${e.name} ${e.declared_in}`)).to.deep.equal([
      'bin cli/src/tool.rs tool cli/Cargo.toml',
      'bin cli/src/main.rs cli cli/Cargo.toml',
      'bin cli/src/bin/extra.rs extra cli/Cargo.toml',
      'main cli/examples/demo.rs null cli/examples/demo.rs',
    ]);
  });
});
