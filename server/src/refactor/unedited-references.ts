import type {
  Certainty,
  FileMove,
  RefactorEdit,
  RefactorIndexReference,
  RefactorSymbol,
  UneditedReference,
} from '@agentgov/core';
import type { IndexWorkspace } from './index-workspace.js';

/** True when an edit's range overlaps the reference's. */
function overlaps(edit: RefactorEdit, ref: RefactorIndexReference): boolean {
  const { span } = edit;
  if (span.endLine < ref.start_line || span.startLine > ref.end_line) return false;
  const oneLine =
    span.startLine === span.endLine && ref.start_line === ref.end_line && span.startLine === ref.start_line;
  return !oneLine || (span.startCol < ref.end_col && span.endCol > ref.start_col);
}

class EditIndex {
  readonly #byPath = new Map<string, RefactorEdit[]>();
  constructor(edits: readonly RefactorEdit[]) {
    for (const edit of edits) this.#byPath.set(edit.path, [...(this.#byPath.get(edit.path) ?? []), edit]);
  }
  in(path: string): RefactorEdit[] {
    return this.#byPath.get(path) ?? [];
  }
}

function lineText(workspace: IndexWorkspace, path: string, line: number): string | undefined {
  const text = workspace.read(path);
  return text === undefined ? undefined : (text.split('\n')[line - 1] ?? '').trim().slice(0, 200);
}

/** The list without repeats (first wins), one per path, line and column. */
function distinct(list: readonly UneditedReference[]): UneditedReference[] {
  const seen = new Map<string, UneditedReference>();
  for (const item of list) {
    const key = `${item.path}:${item.line}:${item.column ?? ''}`;
    if (!seen.has(key)) seen.set(key, item);
  }
  return [...seen.values()];
}

export interface RenameComparison {
  workspace: IndexWorkspace;
  symbol: RefactorSymbol;
  engine: string;
  /** The edits the preview keeps. */
  edits: readonly RefactorEdit[];
  /** Edits the engine found that `contexts` left out. */
  outsideContexts: readonly RefactorEdit[];
  includeComments: boolean;
  /** What the engine itself reported as unedited. */
  fromEngine: readonly UneditedReference[];
}

/**
 * Every reference to a renamed symbol the preview does not edit, with why: what the engine
 * reported, edits `contexts` left out, and the index's references to the symbol (resolved ones,
 * unresolved uses of the name, mentions in comments and strings) that no edit covers.
 */
export function uneditedForRename(c: RenameComparison): UneditedReference[] {
  const out: UneditedReference[] = [...c.fromEngine];
  for (const edit of c.outsideContexts) {
    const line = edit.span.startLine;
    const text = lineText(c.workspace, edit.path, line);
    const reason = 'outside the `contexts` the rename was limited to';
    out.push({ path: edit.path, line, column: edit.span.startCol, text, certainty: edit.certainty, reason });
  }
  const definitions = c.workspace.definitions({ path: c.symbol.path, name: c.symbol.name });
  const definition = definitions.find((d) => d.name_line === c.symbol.line) ?? null;
  const resolved = definition ? c.workspace.references({ toDefUid: definition.def_uid }) : [];
  const unresolved = c.workspace.references({ name: c.symbol.name }).filter((ref) => ref.to_def_uid === null);
  const refs: Array<{ ref: RefactorIndexReference; resolved: boolean }> = [
    ...resolved.map((ref) => ({ ref, resolved: true })),
    ...unresolved.map((ref) => ({ ref, resolved: false })),
  ];
  const edits = new EditIndex(c.edits);
  const dropped = new EditIndex(c.outsideContexts);
  for (const { ref, resolved } of refs) {
    if (ref.path === c.symbol.path && ref.start_line === c.symbol.line && ref.start_col === c.symbol.col) continue;
    const covers = (edit: RefactorEdit) => overlaps(edit, ref);
    if (edits.in(ref.path).some(covers) || dropped.in(ref.path).some(covers)) continue;
    const mention = ref.context === 'comment' || ref.context === 'string';
    const certainty: Certainty = mention ? 'low' : resolved ? 'high' : 'medium';
    const name = c.symbol.qualifiedName;
    const reason = mention
      ? c.includeComments
        ? `a mention in a ${ref.context} the ${c.engine} did not offer`
        : `a mention in a ${ref.context}; include_comments is false`
      : resolved
        ? `the index resolves this use to ${name}, but the ${c.engine} did not rename it: check it by hand`
        : `the same name, not resolved to ${name} (the ${c.engine} left it as another symbol or an unknown one)`;
    const text = lineText(c.workspace, ref.path, ref.start_line);
    out.push({ path: ref.path, line: ref.start_line, column: ref.start_col, text, certainty, reason });
  }
  return distinct(out);
}

/** Lines after an import statement's first line where its specifier may still be (a multi-line import list). */
const IMPORT_SPAN_LINES = 30;

/**
 * Every importer of a moved file the preview does not rewrite, with why: what the engines reported,
 * then each import edge of the index whose statement no edit touches (an importer moving along
 * with a relative specifier needs none).
 */
export function uneditedForMove(
  workspace: IndexWorkspace,
  files: readonly FileMove[],
  edits: readonly RefactorEdit[],
  fromEngines: readonly UneditedReference[],
): UneditedReference[] {
  const out: UneditedReference[] = [...fromEngines];
  const moving = new Set(files.map((f) => f.from));
  const byPath = new EditIndex(edits);
  const listed = new Set(fromEngines.map((u) => `${u.path}:${u.line}`));
  for (const file of files) {
    for (const edge of workspace.importers(file.from)) {
      if (moving.has(edge.from_path) && edge.specifier.startsWith('.')) continue;
      if (listed.has(`${edge.from_path}:${edge.line}`)) continue;
      const rewritten = byPath.in(edge.from_path).some((edit) => {
        if (edit.span.startLine < edge.line || edit.span.startLine > edge.line + IMPORT_SPAN_LINES) return false;
        const sameSpecifier = edge.specifier.includes(edit.oldText) || edit.oldText.includes(edge.specifier);
        return edit.span.startLine === edge.line || sameSpecifier;
      });
      if (rewritten) continue;
      out.push({
        path: edge.from_path,
        line: edge.line,
        text: lineText(workspace, edge.from_path, edge.line),
        certainty: 'high',
        reason: `imports ${file.from} ('${edge.specifier}'), and no edit of the preview rewrites it`,
      });
    }
  }
  return distinct(out);
}
