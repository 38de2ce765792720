import { overloadedSymbols, RenameEdits } from '@agentgov/core/contracts';
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

const JAVA = /\.java$/;
const KEYWORDS = new Set(
  (
    'abstract assert boolean break byte case catch char class const continue default do double else enum extends ' +
    'final finally float for goto if implements import instanceof int interface long native new package private ' +
    'protected public return short static strictfp super switch synchronized this throw throws transient try void ' +
    'volatile while true false null _ var record yield sealed permits non-sealed'
  ).split(' '),
);
/** Keywords that are contextual (`var`, `record`, …): legal names of members, not of types. */
const CONTEXTUAL = new Set(['var', 'record', 'yield', 'sealed', 'permits']);
const PACKAGE_LINE = /^(\s*(?:(?:\/\/[^\n]*|\/\*[\s\S]*?\*\/)\s*|@[\w.]+(?:\([^)]*\))?\s*)*)package\s+([\w$.\s]+?)\s*;/;
const IMPORT_LINE = /^\s*import\s+(static\s+)?([\w$.\s]+?)(\s*\.\s*\*)?\s*;/;
const CONVENTIONAL_ROOT = /^(?:.*\/)?src\/[\w-]+\/(?:java|kotlin)(?=\/)/;

/** The package line of a file: the name and where it is (line 1-based, columns). Null without one. */
export function packageLine(text: string): { name: string; line: number; col: number; length: number } | null {
  const match = PACKAGE_LINE.exec(text);
  if (!match) return null;
  const before = text.slice(0, match.index + match[0].indexOf('package', match[1]!.length));
  const nameOffset = match.index + match[0].lastIndexOf(match[2]!);
  const line = before.split('\n').length;
  const lineStart = text.lastIndexOf('\n', nameOffset - 1) + 1;
  return { name: match[2]!.replace(/\s+/g, ''), line, col: nameOffset - lineStart, length: match[2]!.length };
}

function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(JAVA, '');
}

/**
 * Rename and move for Java from the index's own resolution. A rename edits the declaration (every
 * overload; a class's constructors with it) and every reference the index resolved to it (`high`):
 * through scope, single-type, static and same-package imports, `this.`/`Class.` access. A member
 * access of the same name on a value the index cannot type is `medium`; mentions in comments and
 * strings are `low`. A move rewrites the moved file's `package` line, every import of the moved
 * type (`import`, `import static`), fully qualified uses (`medium`), and adds the imports that
 * same-package visibility no longer gives (the moved file's uses of its old package, and the old
 * package's and on-demand importers' uses of the moved type).
 */
export class JavaRefactorEngine implements RefactorEngine {
  readonly name = 'java-index-resolution';

  checkIdentifier(name: string): string | null {
    if (!/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(name)) return `'${name}' is not a valid Java identifier`;
    if (KEYWORDS.has(name) && !CONTEXTUAL.has(name)) return `'${name}' is a Java keyword`;
    return null;
  }

  async declarations(name: string, workspace: RefactorWorkspace): Promise<RefactorSymbol[]> {
    const java = (defs: RefactorIndexDefinition[]) => defs.filter((d) => JAVA.test(d.path) && d.kind !== 'module');
    let defs = name.includes('.')
      ? java(workspace.definitions({ qualifiedName: name }))
      : java(workspace.definitions({ name }));
    if (defs.length === 0 && name.includes('.')) {
      // `com.acme.Util.helper`: a package, then the qualified name inside its files
      const parts = name.split('.');
      for (let split = 1; split < parts.length && defs.length === 0; split += 1) {
        const pkg = parts.slice(0, split).join('.');
        defs = java(workspace.definitions({ qualifiedName: parts.slice(split).join('.') })).filter(
          (d) => packageLine(workspace.read(d.path) ?? '')?.name === pkg,
        );
      }
    }
    // overloads are one symbol
    return overloadedSymbols(defs);
  }

  async rename(request: RenameRequest, workspace: RefactorWorkspace): Promise<RenamePlan> {
    const { symbol, newName } = request;
    let declared = workspace.definitions({ path: symbol.path, qualifiedName: symbol.qualifiedName });
    const definition = declared.find((d) => d.name_line === symbol.line) ?? declared[0];
    const isType = definition !== undefined && ['class', 'interface', 'enum'].includes(definition.kind);
    // A constructor is named by its class: renaming either renames the class and every constructor.
    if (definition?.kind === 'constructor') {
      const owner = symbol.qualifiedName.slice(0, symbol.qualifiedName.lastIndexOf('.'));
      declared = workspace.definitions({ path: symbol.path, qualifiedName: owner });
    }
    const typeName = definition?.kind === 'constructor' || isType;
    const typeQualified = typeName ? (declared[0]?.qualified_name ?? symbol.qualifiedName) : null;
    if (typeQualified)
      declared = [
        ...declared,
        ...workspace.definitions({ path: symbol.path, qualifiedName: `${typeQualified}.${symbol.name}` }),
      ];
    const plan = new RenameEdits(symbol, newName, workspace, { stale: 'unedited' });
    const add = plan.add.bind(plan);
    for (const d of declared) add(d.path, d.name_line, d.name_col, 'high');
    plan.addResolved(declared, workspace);
    for (const ref of workspace.references({ name: symbol.name })) {
      if (!JAVA.test(ref.path) || ref.to_def_uid !== null) continue;
      if (ref.context === 'comment' || ref.context === 'string') {
        if (request.includeComments) add(ref.path, ref.start_line, ref.start_col, 'low');
        continue;
      }
      // a member of a value the index cannot type, an inherited call, a package-qualified name
      add(ref.path, ref.start_line, ref.start_col, 'medium');
    }
    const warnings: string[] = [];
    if (typeName && typeQualified && !typeQualified.includes('.') && baseOf(symbol.path) === symbol.name) {
      warnings.push(
        `${symbol.name} is the top-level type of ` +
          `${symbol.path}: Java wants a public top-level type in a file of its name, ` +
          (`so move the file to ${dirOf(symbol.path) ? `${dirOf(symbol.path)}/` : ''}` +
            `${newName}.java (refactor_move) after this rename.`),
      );
    }
    return {
      edits: distinct(plan.edits),
      collisions: definition ? this.#collisions(definition, newName, workspace) : [],
      unedited: plan.unedited,
      warnings,
    };
  }

  /** The new name is already a member of the same type, or a top-level type of the same package. */
  #collisions(definition: RefactorIndexDefinition, newName: string, workspace: RefactorWorkspace): RenameCollision[] {
    const dot = definition.qualified_name.lastIndexOf('.');
    const collisions: RenameCollision[] = [];
    if (dot >= 0) {
      const owner = definition.qualified_name.slice(0, dot);
      for (const other of workspace.definitions({ path: definition.path, qualifiedName: `${owner}.${newName}` })) {
        // overloading a method by a new name is legal Java; a field or type of that name is not the same thing
        if (definition.kind === 'method' && other.kind === 'method') continue;
        collisions.push({ path: other.path, line: other.name_line, existing: `${other.kind} of ${owner}` });
      }
      return collisions;
    }
    const pkg = packageLine(workspace.read(definition.path) ?? '')?.name ?? '';
    for (const other of workspace.definitions({ qualifiedName: newName })) {
      if (!JAVA.test(other.path) || other.kind === 'module') continue;
      if ((packageLine(workspace.read(other.path) ?? '')?.name ?? '') === pkg)
        collisions.push({
          path: other.path,
          line: other.name_line,
          existing: `${other.kind} of package ${pkg || '(default)'}`,
        });
    }
    return collisions;
  }

  async move(request: MoveRequest, workspace: RefactorWorkspace): Promise<MovePlan> {
    const edits: RefactorEdit[] = [];
    const warnings: string[] = [];
    const unedited: UneditedReference[] = [];
    const moving = new Map(request.files.filter((f) => JAVA.test(f.from)).map((f) => [f.from, f.to]));
    /** Imports to insert, per file: the lines, in order. */
    const inserts = new Map<string, Set<string>>();
    const insert = (path: string, line: string) => {
      const set = inserts.get(path) ?? new Set<string>();
      set.add(line);
      inserts.set(path, set);
    };
    const packages = new Map<string, string>();
    const packageOf = (path: string): string => {
      if (!packages.has(path)) packages.set(path, packageLine(workspace.read(path) ?? '')?.name ?? '');
      return packages.get(path)!;
    };
    for (const [from, to] of moving) {
      const text = workspace.read(from);
      if (text === undefined) throw new Error(`cannot read ${from}`);
      const declared = packageLine(text);
      const oldPkg = declared?.name ?? '';
      const newPkg = newPackageOf(from, to, oldPkg);
      if (baseOf(from) !== baseOf(to))
        warnings.push(
          `${from} → ${to} changes the file name: Java wants its public top-level type ` +
            `${baseOf(from)} renamed to ${baseOf(to)} too (refactor_rename).`,
        );
      packages.set(`\0new:${from}`, newPkg);
      if (oldPkg === newPkg) continue;
      if (declared && newPkg) {
        const line = text.split('\n')[declared.line - 1]!;
        edits.push({
          path: from,
          span: {
            startLine: declared.line,
            startCol: declared.col,
            endLine: declared.line,
            endCol: declared.col + declared.length,
          },
          oldText: line.slice(declared.col, declared.col + declared.length),
          newText: newPkg,
          certainty: 'high',
        });
      } else if (declared && !newPkg) {
        warnings.push(`${to} lands in the default package: remove its package line (${oldPkg}) by hand.`);
      } else if (!declared && newPkg) {
        edits.push({
          path: from,
          span: { startLine: 1, startCol: 0, endLine: 1, endCol: 0 },
          oldText: '',
          newText: `package ${newPkg};\n\n`,
          certainty: 'high',
        });
      }
      // The moved file's own uses of its old package's types now need imports (unless they move along).
      for (const edge of workspace.imports(from)) {
        if (!edge.to_path || !isImplicit(edge.specifier, workspace.read(from) ?? '', edge.line)) continue;
        const targetPkg = moving.has(edge.to_path)
          ? newPackageOf(edge.to_path, moving.get(edge.to_path)!, oldPkg)
          : oldPkg;
        if (targetPkg === newPkg || targetPkg === '') continue;
        insert(from, `import ${targetPkg}.${baseOf(edge.to_path)};`);
      }
    }
    // Importers of each moved file.
    for (const [from] of moving) {
      const oldPkg = packageOf(from);
      const newPkg = packages.get(`\0new:${from}`)!;
      if (oldPkg === newPkg) continue;
      const type = baseOf(from);
      const oldName = oldPkg ? `${oldPkg}.${type}` : type;
      for (const edge of workspace.importers(from)) {
        if (!JAVA.test(edge.from_path)) continue;
        const importer = edge.from_path;
        const text = workspace.read(importer);
        if (text === undefined) continue;
        const line = text.split('\n')[edge.line - 1] ?? '';
        const importerPkg = moving.has(importer) ? packages.get(`\0new:${importer}`)! : packageOf(importer);
        const match = IMPORT_LINE.exec(line);
        if (match && !isImplicit(edge.specifier, text, edge.line)) {
          const spec = match[2]!.replace(/\s+/g, '');
          if (match[3] && spec === oldPkg) {
            // `import old.pkg.*;` no longer reaches the type: import it by name where it is used
            if (new RegExp(`\\b${type}\\b`).test(stripImports(text)) && importerPkg !== newPkg)
              insert(importer, `import ${newPkg}.${type};`);
            continue;
          }
          if (spec === oldName || spec.startsWith(`${oldName}.`)) {
            const col = line.indexOf(oldPkg ? `${oldPkg}.` : spec);
            if (col < 0 || !oldPkg) {
              unedited.push({
                path: importer,
                line: edge.line,
                certainty: 'high',
                reason: 'an import this engine cannot rewrite',
                text: line.trim(),
              });
              continue;
            }
            edits.push({
              path: importer,
              span: { startLine: edge.line, startCol: col, endLine: edge.line, endCol: col + oldPkg.length },
              oldText: oldPkg,
              newText: newPkg,
              certainty: 'high',
            });
          }
          continue;
        }
        // Same-package use without an import: the type is in another package now.
        if (importerPkg !== newPkg && newPkg !== '') insert(importer, `import ${newPkg}.${type};`);
      }
      // Fully qualified uses in code (`old.pkg.Type x = new old.pkg.Type()`).
      if (oldPkg) {
        const pattern = new RegExp(`(?<![\\w$.])${oldName.replaceAll('.', '\\.')}(?![\\w$])`, 'g');
        for (const file of workspace.files()) {
          if (!JAVA.test(file.path)) continue;
          const lines = (workspace.read(file.path) ?? '').split('\n');
          lines.forEach((text, i) => {
            if (/^\s*(import|package)\b/.test(text)) return;
            for (const m of text.matchAll(pattern)) {
              edits.push({
                path: file.path,
                span: { startLine: i + 1, startCol: m.index, endLine: i + 1, endCol: m.index + oldPkg.length },
                oldText: oldPkg,
                newText: newPkg,
                certainty: 'medium',
              });
            }
          });
        }
      }
    }
    for (const [path, lines] of inserts) edits.push(importInsertion(path, workspace.read(path) ?? '', [...lines]));
    return { edits: distinct(edits), unedited, warnings };
  }
}

/**
 * The package a file moving `from` → `to` belongs to: its source root kept, the rest of the directory as the package.
 */
function newPackageOf(from: string, to: string, oldPkg: string): string {
  const fromDir = dirOf(from);
  const tail = oldPkg.replaceAll('.', '/');
  const root =
    oldPkg === ''
      ? fromDir
      : fromDir === tail
        ? ''
        : fromDir.endsWith(`/${tail}`)
          ? fromDir.slice(0, -tail.length - 1)
          : null;
  const toDir = dirOf(to);
  if (root !== null && (root === '' || toDir === root || toDir.startsWith(`${root}/`)))
    return (root === '' ? toDir : toDir.slice(root.length + 1)).split('/').filter(Boolean).join('.');
  const conventional = CONVENTIONAL_ROOT.exec(toDir);
  if (conventional) return toDir.slice(conventional[0].length).split('/').filter(Boolean).join('.');
  throw new Error(
    `cannot tell the package of ${to}: it is outside ` +
      `${from}'s source root (${root ?? 'unknown'}) and in no src/<set>/java directory`,
  );
}

/** An implicit (same-package) import edge: its line holds no import statement naming it. */
function isImplicit(specifier: string, text: string, line: number): boolean {
  const source = text.split('\n')[line - 1] ?? '';
  return !(IMPORT_LINE.test(source) && source.replace(/\s+/g, '').includes(specifier.replace(/\.\*$/, '')));
}

/** The text without its import lines: does the code itself name a type? */
function stripImports(text: string): string {
  return text
    .split('\n')
    .filter((line) => !/^\s*(import|package)\b/.test(line))
    .join('\n');
}

/** One insertion of import lines: after the last import, else after the package line, else at the top. */
function importInsertion(path: string, text: string, lines: string[]): RefactorEdit {
  const rows = text.split('\n');
  let after = -1;
  rows.forEach((row, i) => {
    if (/^\s*import\s/.test(row)) after = i;
  });
  const pkg = packageLine(text);
  const block = [...lines].sort().join('\n');
  if (after >= 0) {
    const end = rows[after]!.length;
    return {
      path,
      span: { startLine: after + 1, startCol: end, endLine: after + 1, endCol: end },
      oldText: '',
      newText: `\n${block}`,
      certainty: 'high',
    };
  }
  if (pkg) {
    const row = rows.findIndex((r, i) => i >= pkg.line - 1 && r.includes(';'));
    const end = rows[row]!.length;
    return {
      path,
      span: { startLine: row + 1, startCol: end, endLine: row + 1, endCol: end },
      oldText: '',
      newText: `\n\n${block}`,
      certainty: 'high',
    };
  }
  return {
    path,
    span: { startLine: 1, startCol: 0, endLine: 1, endCol: 0 },
    oldText: '',
    newText: `${block}\n\n`,
    certainty: 'high',
  };
}

/** Edits deduplicated by file and position (a reference found twice is edited once). */
function distinct(edits: RefactorEdit[]): RefactorEdit[] {
  const seen = new Set<string>();
  return edits.filter((edit) => {
    const key = `${edit.path}\0${edit.span.startLine}\0${edit.span.startCol}\0${edit.span.endCol}\0${edit.newText}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
