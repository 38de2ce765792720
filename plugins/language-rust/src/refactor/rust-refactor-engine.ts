import { distinctEdits, indexSymbol, RenameEdits } from '@agentgov/core/contracts';
import type {
  MovePlan,
  MoveRequest,
  RefactorEdit,
  RefactorEngine,
  RefactorIndexDefinition,
  RefactorSymbol,
  RefactorWorkspace,
  RenameCollision,
  RenamePlan,
  RenameRequest,
  UneditedReference,
} from '@agentgov/core/contracts';
import { createRequire } from 'node:module';
import { sharedTreeSitter } from '@agentgov/core/tree-sitter-runtime';
import type Parser from 'tree-sitter';
import Rust from 'tree-sitter-rust';

/** The thread's one tree-sitter runtime: a second copy's trees would not work with the indexer's. */
const TreeSitter = sharedTreeSitter(() => createRequire(import.meta.url)('tree-sitter') as typeof Parser);

const RUST = /\.rs$/;
/** Strict and reserved keywords (an identifier cannot be one without `r#`). */
const KEYWORDS = new Set(
  (
    'as break const continue crate else enum extern false fn for if impl in let loop match mod move mut pub ref ' +
    'return self Self static struct super trait true type unsafe use where while async await dyn abstract become ' +
    'box do final macro override priv typeof unsized virtual yield try gen'
  ).split(' '),
);

/**
 * Rename for Rust from the index's own resolution: references the index resolved to the definition
 * (through `use` items, module paths, `Type::member`, `Self::` and `self.`) are `high`; a member
 * access of the same name on a value the index cannot type (`x.name`) is `medium`; mentions in
 * comments and strings are `low`. Moves are previewed with what they would need (the `mod`
 * declarations and paths to rewrite) but not planned: see `move`.
 */
export class RustRefactorEngine implements RefactorEngine {
  readonly name = 'rust-index-resolution';
  readonly #parser = new TreeSitter();

  constructor() {
    this.#parser.setLanguage(Rust);
  }

  checkIdentifier(name: string): string | null {
    if (!/^[\p{L}_][\p{L}\p{N}_]*$/u.test(name) || name === '_') return `'${name}' is not a valid Rust identifier`;
    if (KEYWORDS.has(name)) return `'${name}' is a Rust keyword`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const dotted = name.replaceAll('::', '.');
    const rust = (defs: RefactorIndexDefinition[]) => defs.filter((d) => RUST.test(d.path));
    const defs = dotted.includes('.')
      ? rust(workspace.definitions({ qualifiedName: dotted }))
      : rust(workspace.definitions({ name: dotted }));
    return defs.map(indexSymbol);
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const { symbol, newName } = request;
    const declared = workspace.definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName });
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    // a field named by shorthand (`S { name }`) keeps its value: `S { new_name: name }`
    const plan = new RenameEdits(symbol, newName, workspace, {
      newTextAt: (text, col) => (this.#shorthandField(text, col, symbol.name) ? `${newName}: ${symbol.name}` : newName),
    });
    const add = plan.add.bind(plan);
    const unedited: UneditedReference[] = [];
    add(symbol.path, symbol.line, symbol.col, 'high');
    const resolved = plan.addResolved(declared, workspace);
    const isMember =
      definition?.kind === 'method' || definition?.kind === 'field' || symbol.qualifiedName.includes('.');
    for (const ref of workspace.references({ name: symbol.name })) {
      if (!RUST.test(ref.path) || ref.to_def_uid !== null || ref.context === 'comment' || ref.context === 'string')
        continue;
      // `x.name` / `x.name()` on a value of unknown type: the same member name, maybe another type's
      if (isMember && ref.qualifier !== null && (ref.context === 'member' || ref.context === 'call'))
        add(ref.path, ref.start_line, ref.start_col, 'medium');
      else if (!isMember && ref.qualifier === null && ref.context !== 'import')
        unedited.push({
          path: ref.path,
          line: ref.start_line,
          column: ref.start_col,
          text: plan.lineOf(ref.path, ref.start_line)?.trim(),
          certainty: 'medium',
          reason:
            'the same name, not resolved to this definition (another item, or one reached through a glob or macro)',
        });
    }
    if (request.includeComments) {
      for (const file of plan.filesMentioning(workspace, RUST))
        for (const [line, col] of this.#mentions(file.text, symbol.name)) add(file.path, line, col, 'low');
    }
    const collisions = definition
      ? this.#collisions(
          definition,
          newName,
          resolved.map((r) => r.path),
          workspace,
        )
      : [];
    const warnings: string[] = [];
    const owner = symbol.qualifiedName.includes('.')
      ? symbol.qualifiedName.slice(0, symbol.qualifiedName.lastIndexOf('.'))
      : null;
    const ownerKind = owner
      ? workspace.definitions({ qualifiedName: owner }).find((d) => RUST.test(d.path))?.kind
      : null;
    if (definition?.kind === 'method' && ownerKind === 'trait') {
      // the trait's implementations define the method again: same name in other types, unproven which impl it is
      for (const other of workspace.definitions({ name: symbol.name }))
        if (other.kind === 'method' && RUST.test(other.path) && other.qualified_name !== symbol.qualifiedName)
          add(other.path, other.name_line, other.name_col, 'medium');
      warnings.push(
        `${symbol.qualifiedName} is a trait method: methods named ` +
          `${symbol.name} of other types are offered as medium (the index does not ` +
          `record which impl implements which trait).`,
      );
    } else if (definition?.kind === 'method' && this.#traitMethodNamed(symbol.name, workspace))
      warnings.push(
        `A trait declares a method ${symbol.name}: if ` +
          `${symbol.qualifiedName} implements it, rename the trait's method instead ` +
          `(the trait and its other implementations keep the old name).`,
      );
    if (definition?.kind === 'macro')
      warnings.push(
        `${symbol.name}! is a macro: its uses are matched by name, and code it generates is not in the index.`,
      );
    return { edits: distinctEdits(plan.edits), collisions, unedited, warnings };
  }

  /** Whether some trait of the repository declares a method of this name. */
  #traitMethodNamed(name: string, workspace: RefactorWorkspace): boolean {
    return workspace.definitions({ name }).some((d) => {
      if (d.kind !== 'method' || !RUST.test(d.path) || !d.qualified_name.includes('.')) return false;
      const owner = d.qualified_name.slice(0, d.qualified_name.lastIndexOf('.'));
      return workspace.definitions({ path: d.path, qualifiedName: owner }).some((o) => o.kind === 'trait');
    });
  }

  /** Whether the name at `col` is a struct-literal shorthand field (`S { name }` / `S { a, name, b }`). */
  #shorthandField(line: string, col: number, name: string): boolean {
    const before = line.slice(0, col).trimEnd();
    const after = line.slice(col + name.length).trimStart();
    return /[{,]$/.test(before) && /^[},]/.test(after) && /[A-Z]\w*\s*\{[^{}]*$/.test(before);
  }

  /** Whole-word mentions of `name` in comments and string literals: [line, column]. */
  #mentions(text: string, name: string): Array<[number, number]> {
    const found: Array<[number, number]> = [];
    const word = new RegExp(`(?<![\\w])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?!\\w)`, 'g');
    const visit = (node: Parser.SyntaxNode): void => {
      if (node.type === 'line_comment' || node.type === 'block_comment' || node.type === 'string_content') {
        const slice = node.text;
        const lines = slice.split('\n');
        lines.forEach((lineText, i) => {
          for (const match of lineText.matchAll(word))
            found.push([node.startPosition.row + 1 + i, (i === 0 ? node.startPosition.column : 0) + match.index]);
        });
        return;
      }
      for (let child = node.firstChild; child; child = child.nextSibling) visit(child);
    };
    visit(this.#parser.parse(text).rootNode);
    return found;
  }

  /** The new name already defined beside the renamed one (same module or same type), or bound where it is used. */
  #collisions(
    definition: RefactorIndexDefinition,
    newName: string,
    usedIn: string[],
    workspace: RefactorWorkspace,
  ): RenameCollision[] {
    const collisions: RenameCollision[] = [];
    const owner = definition.qualified_name.includes('.')
      ? definition.qualified_name.slice(0, definition.qualified_name.lastIndexOf('.'))
      : null;
    const sibling = owner ? `${owner}.${newName}` : newName;
    // an impl block may sit in another file than its type: every file's `Owner.newName` counts
    const candidates = owner
      ? workspace.definitions({ qualifiedName: sibling }).filter((d) => RUST.test(d.path))
      : workspace.definitions({ path: definition.path, qualifiedName: sibling });
    for (const taken of candidates)
      collisions.push({
        path: taken.path,
        line: taken.name_line,
        existing: owner ? `member ${newName} of ${owner}` : `${taken.kind} ${newName}`,
      });
    if (owner) return collisions;
    for (const path of new Set(usedIn)) {
      if (path === definition.path) continue;
      const local = workspace.definitions({ path, qualifiedName: newName })[0];
      const imported = workspace
        .imports(path)
        .find((edge) => edge.to_path !== null && edge.bindings.some((b) => b.local === newName));
      if (local) collisions.push({ path, line: local.name_line, existing: `${local.kind} ${newName}` });
      else if (imported) collisions.push({ path, line: imported.line, existing: `use ${newName}` });
    }
    return collisions;
  }

  /**
   * Moving a Rust file changes its module path. Within its crate's `src/` tree the engine rewrites
   * what names the module by path: `crate::old` in the crate, `<crate name>::old` anywhere,
   * `super::old` in sibling modules, `old::` in the parent module and where a `use …::old;` binds
   * it, and (beside its siblings) the parent's `mod old;` declaration. A move to another parent
   * module lists the `mod` declarations to move as unedited: the preview never claims more.
   */
  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const edits: RefactorEdit[] = [];
    const unedited: UneditedReference[] = [];
    const warnings: string[] = [];
    const rustFiles = workspace
      .files()
      .map((f) => f.path)
      .filter((path) => RUST.test(path));
    for (const file of request.files) {
      const from = modulePathOf(file.from);
      const to = modulePathOf(file.to);
      if (!from || !to || from.root !== to.root) {
        warnings.push(
          `${file.from} → ${file.to} is not a move inside one crate's src/ tree: its ` +
            `\`mod\` declaration and the paths to it are not rewritten.`,
        );
        continue;
      }
      const oldName = from.path[from.path.length - 1]!;
      const newName = to.path[to.path.length - 1]!;
      const oldParent = from.path.slice(0, -1).join('::');
      const sameParent = oldParent === to.path.slice(0, -1).join('::');
      const crateName = this.#crateName(from.root, workspace);
      // spelled paths: [pattern, replacement, files it applies to]
      const rewrites: Rewrite[] = [
        {
          old: `crate::${from.path.join('::')}`,
          next: `crate::${to.path.join('::')}`,
          files: (path) => path.startsWith(from.root),
        },
      ];
      if (crateName)
        rewrites.push({
          old: `${crateName}::${from.path.join('::')}`,
          next: `${crateName}::${to.path.join('::')}`,
          files: () => true,
        });
      const parents = parentFiles(from.root, from.path, workspace);
      if (sameParent) {
        // siblings say `super::old`, the parent says `old::` (it declares the module)
        const siblings = (path: string) =>
          path.startsWith(from.root) &&
          path !== file.from &&
          (modulePathOf(path)?.path.slice(0, -1).join('::') ?? '\0') === oldParent;
        rewrites.push({ old: `super::${oldName}`, next: `super::${newName}`, files: siblings });
        rewrites.push({
          old: `${oldName}::`,
          next: `${newName}::`,
          files: (path) => parents.includes(path),
          bare: true,
        });
      }
      for (const path of rustFiles) {
        const text = workspace.read(path);
        if (!text?.includes(oldName)) continue;
        const lines = text.split('\n');
        // a `use …::old;` binding the module by its name: its `old::x` uses follow the new name
        const rebinds = rewrites.some(
          (r) =>
            r.files(path) &&
            new RegExp(`\\buse\\s+[^;]*${escape(r.old)}\\s*;`).test(text) &&
            r.old.endsWith(`::${oldName}`),
        );
        const applied = [...rewrites];
        if (rebinds && !(sameParent && parents.includes(path)))
          applied.push({ old: `${oldName}::`, next: `${newName}::`, files: () => true, bare: true });
        lines.forEach((line, i) => {
          if (/^\s*\/\//.test(line)) return;
          for (const rewrite of applied) {
            if (!rewrite.files(path)) continue;
            // a bare `old::` must start a path (not `x::old::`), a full path must not continue a longer name
            const pattern = new RegExp(
              `${rewrite.bare ? '(?<![\\w:])' : '(?<![\\w])'}${escape(rewrite.old)}${rewrite.bare ? '' : '(?![\\w])'}`,
              'g',
            );
            for (const match of line.matchAll(pattern))
              edits.push({
                path,
                span: {
                  startLine: i + 1,
                  startCol: match.index,
                  endLine: i + 1,
                  endCol: match.index + rewrite.old.length,
                },
                oldText: rewrite.old,
                newText: rewrite.next,
                certainty: 'high',
              });
          }
        });
      }
      // the parent module's `mod old;` declaration
      for (const parent of parents) {
        const text = workspace.read(parent);
        if (!text) continue;
        text.split('\n').forEach((line, i) => {
          const match = new RegExp(`^(\\s*(?:pub(?:\\([^)]*\\))?\\s+)?mod\\s+)(${escape(oldName)})\\s*;`).exec(line);
          if (!match) return;
          if (sameParent)
            edits.push({
              path: parent,
              span: {
                startLine: i + 1,
                startCol: match[1]!.length,
                endLine: i + 1,
                endCol: match[1]!.length + oldName.length,
              },
              oldText: oldName,
              newText: newName,
              certainty: 'high',
            });
          else
            unedited.push({
              path: parent,
              line: i + 1,
              text: line.trim(),
              certainty: 'high',
              reason:
                `the module moves to another parent module: declare it there (\`mod ` +
                `${newName};\`) and remove this line`,
            });
        });
      }
      if (!sameParent)
        for (const edge of workspace.importers(file.from))
          if (!edge.specifier.startsWith('crate::') && !edge.specifier.startsWith(`${crateName}::`))
            unedited.push({
              path: edge.from_path,
              line: edge.line,
              certainty: 'high',
              reason:
                `names the module by a relative path (` +
                `${edge.specifier}): rewrite it for crate::` +
                `${to.path.join('::')}`,
            });
    }
    return { edits: distinctEdits(edits), unedited, warnings };
  }

  /** The library crate name of the package whose `src/` tree is `root` (`geo-core` → `geo_core`). */
  #crateName(root: string, workspace: RefactorWorkspace): string | null {
    const manifest = workspace.read(`${root.slice(0, -4)}Cargo.toml`);
    if (!manifest) return null;
    const lib = /\[lib\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(manifest);
    const pkg = /\[package\][^[]*?\bname\s*=\s*"([^"]+)"/.exec(manifest);
    return (lib?.[1] ?? pkg?.[1])?.replaceAll('-', '_') ?? null;
  }
}

/** A path spelling to rewrite in the files `files` accepts; a `bare` one must start a path (`old::x`). */
interface Rewrite {
  old: string;
  next: string;
  files: (path: string) => boolean;
  bare?: boolean;
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `core/src/a/b.rs` → root `core/src/`, path [a, b]; null outside a `src/` tree or for a crate root. */
function modulePathOf(file: string): { root: string; path: string[] } | null {
  const at = file.lastIndexOf('src/');
  if (at < 0 || (at > 0 && file[at - 1] !== '/')) return null;
  const parts = file
    .slice(at + 4)
    .replace(/\.rs$/, '')
    .split('/');
  if (parts[parts.length - 1] === 'mod') parts.pop();
  if (parts.length === 0 || (parts.length === 1 && (parts[0] === 'lib' || parts[0] === 'main'))) return null;
  if (parts[0] === 'bin') return null;
  return { root: file.slice(0, at + 4), path: parts };
}

/** The files that may declare module `path` (`mod name;`): its parent module's file. */
function parentFiles(root: string, path: string[], workspace: RefactorWorkspace): string[] {
  const files = new Set(workspace.files().map((f) => f.path));
  const parent = path.slice(0, -1);
  const candidates =
    parent.length === 0
      ? [`${root}lib.rs`, `${root}main.rs`]
      : [`${root}${parent.join('/')}.rs`, `${root}${parent.join('/')}/mod.rs`];
  return candidates.filter((candidate) => files.has(candidate));
}
