import type { RefactorSymbol } from '@agentgov/core/contracts';
import type * as TS from 'typescript';
import type { TypeScriptModule } from './typescript-projects.js';

/**
 * Named declarations of one file found by syntax alone (no program): what a rename can start
 * from. Qualified names chain the named declarations around them (`Meter.read`, `compile.state`).
 */
export function declarationsIn(
  ts: TypeScriptModule,
  source: TS.SourceFile,
  path: string,
  wanted: (name: string, qualified: string) => boolean,
): RefactorSymbol[] {
  const found: RefactorSymbol[] = [];
  const visit = (node: TS.Node, container: string) => {
    const named = declarationName(ts, node);
    let next = container;
    if (named) {
      const qualified = container ? `${container}.${named.text}` : named.text;
      if (wanted(named.text, qualified)) {
        const { line, character } = source.getLineAndCharacterOfPosition(named.getStart(source));
        found.push({
          path,
          name: named.text,
          qualifiedName: qualified,
          kind: kindOf(ts, node),
          line: line + 1,
          col: character,
        });
      }
      next = qualified;
    }
    ts.forEachChild(node, (child) => visit(child, next));
  };
  visit(source, '');
  return found;
}

function declarationName(ts: TypeScriptModule, node: TS.Node): TS.Identifier | TS.PrivateIdentifier | undefined {
  if (
    ts.isVariableDeclaration(node) ||
    ts.isFunctionDeclaration(node) ||
    ts.isClassDeclaration(node) ||
    ts.isClassExpression(node) ||
    ts.isInterfaceDeclaration(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isEnumDeclaration(node) ||
    ts.isEnumMember(node) ||
    ts.isModuleDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node) ||
    ts.isPropertyDeclaration(node) ||
    ts.isPropertySignature(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  ) {
    const name = node.name;
    if (name && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name))) return name;
  }
  return undefined;
}

function kindOf(ts: TypeScriptModule, node: TS.Node): string {
  if (ts.isFunctionDeclaration(node)) return 'function';
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return 'class';
  if (ts.isInterfaceDeclaration(node)) return 'interface';
  if (ts.isTypeAliasDeclaration(node)) return 'type';
  if (ts.isEnumDeclaration(node)) return 'enum';
  if (
    ts.isMethodDeclaration(node) ||
    ts.isMethodSignature(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  )
    return 'method';
  if (ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isEnumMember(node)) return 'property';
  if (ts.isModuleDeclaration(node)) return 'namespace';
  if (
    ts.isVariableDeclaration(node) &&
    ts.isVariableDeclarationList(node.parent) &&
    node.parent.flags & ts.NodeFlags.Const
  )
    return 'constant';
  return 'variable';
}
