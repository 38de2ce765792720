import { createRequire } from 'node:module';
import { expect } from 'chai';
import type Parser from 'tree-sitter';
import { SHELL_TREE_OPTIONS } from '../../src/risk/shell-parse.js';
import { shellTree, type ShellNode } from '../../src/risk/shell-tree.js';
import { BENCH_COMMANDS } from './bench-commands.js';

const require = createRequire(import.meta.url);
const ParserCtor = require('tree-sitter') as typeof Parser;
const bash = require('tree-sitter-bash') as Parser.Language;
const nodeTypes = (
  bash as unknown as { nodeTypeInfo: Array<{ type: string; named: boolean; fields?: Record<string, unknown> }> }
).nodeTypeInfo;

/** The copy the shell collector reads. */
const OPTIONS = SHELL_TREE_OPTIONS;

const fieldsOf = (type: string): string[] =>
  Object.keys(nodeTypes.find((t) => t.named && t.type === type)?.fields ?? {});

/** Compares a copied node with tree-sitter's own node, recursively; returns the first difference. */
function difference(plain: ShellNode, node: Parser.SyntaxNode, where: string): string | null {
  const own = {
    type: node.type,
    isNamed: node.isNamed,
    startIndex: node.startIndex,
    endIndex: node.endIndex,
    text: node.text,
  };
  const copy = {
    type: plain.type,
    isNamed: plain.isNamed,
    startIndex: plain.startIndex,
    endIndex: plain.endIndex,
    text: plain.text,
  };
  if (JSON.stringify(own) !== JSON.stringify(copy)) return `${where}: ${JSON.stringify(copy)} ≠ ${JSON.stringify(own)}`;
  if (!node.isNamed) return null;
  const expected = OPTIONS.keepAnonymousUnder.has(node.type) ? node.children : node.namedChildren;
  const children = OPTIONS.keepAnonymousUnder.has(node.type) ? plain.children : plain.namedChildren;
  if (children.length !== expected.length)
    return `${where} ${node.type}: ${children.length} children ≠ ${expected.length}`;
  if (OPTIONS.fieldsUnder.has(node.type)) {
    for (const field of fieldsOf(node.type)) {
      const one = node.childForFieldName(field);
      const index = one
        ? expected.findIndex(
            (c) => c.startIndex === one.startIndex && c.endIndex === one.endIndex && c.type === one.type,
          )
        : -1;
      const copied = plain.childForFieldName(field);
      if ((copied === null) !== (one === null) || (copied && children.indexOf(copied) !== index))
        return `${where} ${node.type}.${field}: field child differs`;
      const all = node.childrenForFieldName(field).map((c) => `${c.type}@${c.startIndex}`);
      if (
        JSON.stringify(plain.childrenForFieldName(field).map((c) => `${c.type}@${c.startIndex}`)) !==
        JSON.stringify(all)
      )
        return `${where} ${node.type}.${field}: field children differ`;
    }
  }
  for (const [i, child] of expected.entries()) {
    const found = difference(children[i] as ShellNode, child, `${where}/${i}`);
    if (found) return found;
  }
  return null;
}

describe('shell-tree: the one-walk copy of a tree-sitter tree', function () {
  const parser = new ParserCtor();
  parser.setLanguage(bash);
  const check = (text: string): string | null => {
    const tree = parser.parse(text);
    return difference(shellTree(tree.rootNode, text, OPTIONS), tree.rootNode, JSON.stringify(text));
  };

  it('equals tree-sitter’s node API (types, spans, text, children, fields) over every risk bench command', async function () {
    expect(BENCH_COMMANDS.length).to.be.greaterThan(400);
    const differences: string[] = [];
    for (const [i, command] of BENCH_COMMANDS.entries()) {
      // Unterminated quotes are parsed again with a closing suffix: check those trees too.
      for (const text of [command, `${command}'`, `${command}"`, `${command})`]) {
        const found = check(text);
        if (found) differences.push(found);
      }
      if (i % 50 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(differences).to.deep.equal([]);
  });

  it('keeps operators and quotes only where the collector reads them', function () {
    const text = 'echo "a"b >> out 2>&1 | grep -v x';
    const root = shellTree(parser.parse(text).rootNode, text, OPTIONS);
    const types = (node: ShellNode): string[] => [node.type, ...node.children.flatMap(types)];
    expect(types(root)).to.include.members(['>>', '>&', 'concatenation', 'string']);
    expect(types(root)).to.not.include('|');
    expect(root.namedChildren[0]?.type).to.equal('pipeline');
  });

  it('reads fields under the listed parents: assignment name and value, redirect destinations', function () {
    const text = 'A=1 cmd 2>/dev/null extra';
    const root = shellTree(parser.parse(text).rootNode, text, OPTIONS);
    const statement = root.namedChildren[0] as ShellNode;
    expect(statement.type).to.equal('redirected_statement');
    expect(statement.childForFieldName('body')?.type).to.equal('command');
    const assignment = statement.childForFieldName('body')?.namedChildren[0];
    expect(assignment?.childForFieldName('name')?.text).to.equal('A');
    expect(assignment?.childForFieldName('value')?.text).to.equal('1');
    const redirect = statement.namedChildren.find((c) => c.type === 'file_redirect');
    expect(redirect?.childrenForFieldName('destination').map((d) => d.text)).to.deep.equal(['/dev/null', 'extra']);
  });
});
