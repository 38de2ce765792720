import { expect } from 'chai';
import Parser from 'tree-sitter';
import { JavaModules } from '../src/java-modules.js';
import { JAVA_MAIN, JAVA_TEST_PATH, LANGUAGE_PACKS } from '../src/language-packs.js';

const pack = LANGUAGE_PACKS[0]!;
const parser = new Parser();
parser.setLanguage(pack.grammar as Parser.Language);
const extract = (source: string) => pack.extract(parser.parse(source), source);

const TEXT = `package com.acme.util;

import java.util.List;
import static com.acme.core.Strings.trim;
import com.acme.core.*;

/** Helpers for text. */
public class Text<T> extends Base implements Api {
  /** The max. */
  public static final int MAX = 3;
  private int count, other;
  Text(int c) { this.count = c; }
  /** Joins the parts. */
  public String join(List<Item> items) {
    int total = 0;
    for (Item it : items) { total += it.size(); helper(); count++; }
    Outer.Inner x = new Outer.Inner();
    return trim(Other.format("x", MAX));
  }
  private void helper() {}
  public static void main(String[] args) { new Text<String>(1).join(null); }
  enum Mode { ON, OFF; boolean on() { return this == ON; } }
  record Pair(int a, int b) {}
  interface Api2 { int LIMIT = 1; void run(); }
}
`;

describe('java walker', () => {
  const facts = extract(TEXT);

  it('defines the package, types, members, constructors, record components and enum constants, qualified by their owners', () => {
    const defs = facts.definitions.map((d) => `${d.kind} ${d.qualifiedName}${d.exported ? '' : ' (private)'}`);
    expect(defs).to.deep.equal([
      'module com.acme.util',
      'class Text',
      'constant Text.MAX',
      'field Text.count (private)',
      'field Text.other (private)',
      'constructor Text.Text',
      'method Text.join',
      'method Text.helper (private)',
      'method Text.main',
      'enum Text.Mode',
      'constant Text.Mode.ON',
      'constant Text.Mode.OFF',
      'method Text.Mode.on',
      'class Text.Pair',
      'field Text.Pair.a',
      'field Text.Pair.b',
      'interface Text.Api2',
      'constant Text.Api2.LIMIT',
      'method Text.Api2.run',
    ]);
    const join = facts.definitions.find((d) => d.qualifiedName === 'Text.join')!;
    expect(join.signature).to.equal('public String join(List<Item> items)');
    expect(join.docstring).to.equal('Joins the parts.');
    expect(facts.definitions.find((d) => d.name === 'Text')!.signature).to.equal(
      'public class Text<T> extends Base implements Api',
    );
    expect(facts.definitions.find((d) => d.name === 'other')!.signature).to.equal('private int other');
  });

  it('imports: single-type, static (a member by qualified name), on-demand, and implicit same-package ones', () => {
    const imports = facts.imports.map((i) => ({ s: i.specifier, b: i.bindings, star: i.star, implicit: i.implicit }));
    expect(imports.slice(0, 3)).to.deep.equal([
      { s: 'java.util.List', b: [{ imported: 'List', local: 'List' }], star: false, implicit: undefined },
      {
        s: 'com.acme.core.Strings.trim',
        b: [
          { imported: 'Strings.trim', local: 'trim' },
          { imported: 'Strings', local: null },
        ],
        star: false,
        implicit: undefined,
      },
      { s: 'com.acme.core.*', b: [], star: true, implicit: undefined },
    ]);
    // every capitalised name neither declared nor imported here may be a type of com.acme.util
    expect(facts.imports.filter((i) => i.implicit).map((i) => i.specifier)).to.deep.equal([
      'com.acme.util.Base',
      'com.acme.util.Api',
      'com.acme.util.String',
      'com.acme.util.Item',
      'com.acme.util.Outer',
      'com.acme.util.Other',
    ]);
  });

  it('references carry contexts and qualifiers; bare members of the class are this-qualified, locals are not references', () => {
    const refs = facts.references
      .filter((r) => r.context !== 'comment' && r.context !== 'string')
      .map((r) => `${r.span.startLine} ${r.context} ${r.qualifier ? `${r.qualifier}.` : ''}${r.name}`);
    expect(refs).to.include.members([
      '3 import List',
      '4 import Strings',
      '4 import trim',
      '8 type Base',
      '12 member this.count',
      '16 call it.size',
      '16 call this.helper',
      '16 value this.count',
      '17 type Outer.Inner',
      '18 call trim',
      '18 value Other',
      '18 call Other.format',
      '18 value this.MAX',
      '21 call Text',
      '21 call new Text<String>(1).join',
      '22 value this.ON',
    ]);
    expect(refs.some((r) => / (total|it|items|args|c)$/.test(r) && !r.includes('.'))).to.equal(false);
  });

  it('a local is in scope from its own declarator on; modifiers and Javadoc are read past comments', () => {
    const source = `class Box {
  /** Not this field's: a comment follows. */
  // between
  private int size;
  /** The limit. */
  @Deprecated /* kept */ static final int LIMIT = 1;
  /** Counts. */
  private static int count() {
    int first = size(), size = 2;
    return first + size;
  }
  int size() { return 0; }
}
`;
    const { definitions, references } = extract(source);
    const def = (name: string) => definitions.find((d) => d.name === name)!;
    expect(def('size').docstring).to.equal(null);
    expect(def('size').exported).to.equal(false);
    expect([def('LIMIT').kind, def('LIMIT').docstring, def('LIMIT').exported]).to.deep.equal([
      'constant',
      'The limit.',
      true,
    ]);
    expect([def('count').docstring, def('count').exported]).to.deep.equal(['Counts.', false]);
    const calls = references.filter((r) => r.context === 'call').map((r) => `${r.span.startLine} ${r.name}`);
    // `size()` before `size` is declared calls the method; the `size` after it is the local
    expect(calls).to.include('9 size');
    expect(references.some((r) => r.span.startLine === 10 && r.name === 'size')).to.equal(false);
  });
  it('recognises tests and mains by convention', () => {
    for (const path of ['src/test/java/a/BTest.java', 'core/src/test/java/X.java', 'lib/FooTests.java', 'a/FooIT.java'])
      expect(JAVA_TEST_PATH.test(path), path).to.equal(true);
    for (const path of ['src/main/java/a/Testing.java', 'src/main/java/a/Contest.java'])
      expect(JAVA_TEST_PATH.test(path), path).to.equal(false);
    expect(JAVA_MAIN.test('public static void main(String[] args) {')).to.equal(true);
    expect(JAVA_MAIN.test('static public void main(final String... argv)')).to.equal(true);
    expect(JAVA_MAIN.test('public void main(String[] args)')).to.equal(false);
  });
});

describe('java modules', () => {
  const files: Record<string, string> = {
    'app/src/main/java/com/acme/Util.java': 'package com.acme;\npublic class Util {}\n',
    'app/src/main/java/com/acme/Outer.java': 'package com.acme;\npublic class Outer { public static class Inner {} }\n',
    'app/src/test/java/com/acme/UtilTest.java': '/* header */\npackage com.acme;\nclass UtilTest {}\n',
    'lib/src/main/java/com/acme/Util.java': 'package com.acme;\npublic class Util {}\n',
    'tools/gen/Gen.java': 'package gen;\nclass Gen {}\n',
    'Plain.java': 'class Plain {}\n',
  };
  const modules = new JavaModules({
    root: '/nowhere',
    files: new Set(Object.keys(files)),
    readText: (path) => files[path] ?? null,
  });

  it('resolves types through Maven roots, plain roots from the package line, and the default package', () => {
    expect(modules.resolve('app/src/main/java/com/acme/Outer.java', 'com.acme.Util')).to.deep.equal([
      'app/src/main/java/com/acme/Util.java',
    ]);
    expect(modules.resolve('lib/src/main/java/com/acme/Util.java', 'com.acme.Outer.Inner')).to.deep.equal([
      'app/src/main/java/com/acme/Outer.java',
    ]);
    expect(modules.resolve('Plain.java', 'gen.Gen')).to.deep.equal(['tools/gen/Gen.java']);
    expect(modules.resolve('tools/gen/Gen.java', 'Plain')).to.deep.equal(['Plain.java']);
    expect(modules.resolve('Plain.java', 'java.util.List')).to.deep.equal([]);
  });

  it('an on-demand import reaches every file of the package across source roots; a static star its class', () => {
    expect(modules.resolve('Plain.java', 'com.acme.*')).to.have.members([
      'app/src/main/java/com/acme/Outer.java',
      'app/src/main/java/com/acme/Util.java',
      'app/src/test/java/com/acme/UtilTest.java',
      'lib/src/main/java/com/acme/Util.java',
    ]);
    expect(modules.resolve('Plain.java', 'com.acme.Outer.*')).to.deep.equal(['app/src/main/java/com/acme/Outer.java']);
    expect(modules.packageOf('app/src/test/java/com/acme/UtilTest.java')).to.equal('com.acme');
  });
});
