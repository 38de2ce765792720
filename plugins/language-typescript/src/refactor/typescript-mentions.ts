import type * as TS from 'typescript';
import type { TypeScriptModule } from './typescript-projects.js';

/**
 * Offsets of the comments and string literals of a file, module specifiers left out (renaming a
 * word of an import path would break the import). Found from the syntax tree: string-like nodes,
 * and the comments leading each node.
 */
export function commentAndStringRanges(ts: TypeScriptModule, source: TS.SourceFile): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  const text = source.text;
  const seen = new Set<number>();
  const visit = (node: TS.Node): void => {
    if (!seen.has(node.pos)) {
      seen.add(node.pos);
      for (const comment of ts.getLeadingCommentRanges(text, node.pos) ?? []) ranges.push([comment.pos, comment.end]);
    }
    if ((ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) && !isModuleSpecifier(ts, node))
      ranges.push([node.getStart(source), node.end]);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return ranges;
}

function isModuleSpecifier(ts: TypeScriptModule, node: TS.Node): boolean {
  const parent = node.parent;
  return (
    ts.isImportDeclaration(parent) ||
    ts.isExportDeclaration(parent) ||
    ts.isExternalModuleReference(parent) ||
    (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent)) ||
    (ts.isCallExpression(parent) &&
      (parent.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(parent.expression) && parent.expression.text === 'require')))
  );
}

/** Whole-word offsets of `name` inside the ranges. */
export function mentionOffsets(text: string, ranges: Array<[number, number]>, name: string): number[] {
  const word = new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  const out: number[] = [];
  for (const [start, end] of ranges) {
    const slice = text.slice(start, end);
    if (!slice.includes(name)) continue;
    for (const match of slice.matchAll(word)) out.push(start + match.index);
  }
  return out;
}
