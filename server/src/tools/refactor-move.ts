import { existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import {
  AgentgovError,
  type FileMove,
  type RefactorEdit,
  type RefactorEngine,
  type UneditedReference,
} from '@agentgov/core';
import { simpleGit } from 'simple-git';
import { z } from 'zod';
import { unparsedFilesMentioning, unparsedWarning } from '../index/parse-health.js';
import { refactorService, requireRecon } from '../refactor/refactor-context.js';
import { refactorPreviewSchema, renderPreview, type RefactorPreviewResult } from '../refactor/refactor-preview.js';
import { storePreview } from '../refactor/preview-builder.js';
import { uneditedForMove } from '../refactor/unedited-references.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    from_path: z.string().min(1).describe('Repository-relative file or directory to move'),
    to_path: z.string().min(1).describe('Repository-relative destination; must not exist yet'),
    justification: z.string().min(1).describe('Why the move is made. Recorded with the call'),
    include_comments: z
      .boolean()
      .default(true)
      .describe('Also offer path mentions in comments. Low certainty, where the language engine finds them'),
  })
  .strict();

/** True when git tracks the path (a file, or any file under a directory). */
async function tracked(root: string, path: string): Promise<boolean> {
  try {
    return (await simpleGit(root).raw(['ls-files', '--', path])).trim().length > 0;
  } catch {
    return false;
  }
}

export const refactorMoveTool = defineTool({
  name: 'refactor_move',
  group: 'Refactor',
  readOnly: false,
  brief:
    'Previews moving a file or directory and rewriting every import that reaches it; writes nothing until ' +
    'refactor_commit. Needs a prior recon in the session.',
  description:
    'Previews moving a file or directory and rewriting every import that reaches ' +
    'it (relative specifiers with or without extension, `.js` specifiers of `.ts` ' +
    'sources, index files, tsconfig paths, re-exports, dynamic import() and require(), ' +
    "Python absolute/relative/aliased imports) plus the moved files' own relative " +
    'imports. Writes nothing; refactor_commit applies it (git mv for tracked ' +
    'files).',
  inputSchema: input,
  outputSchema: refactorPreviewSchema,
  returns:
    '`refactor_id`, `preview.moves` (from, to, git), `preview.edits` (per file: ' +
    'hunks with `id`, `old`, `new`, `line`, `column`, `range`, `certainty`), ' +
    '`preview.unedited` (importers and attribute uses of the moved modules left ' +
    'unedited, each with `reason`), `preview.warnings`, `preview.pending_review`, ' +
    '`preview.counts`, `preview.verification_required`, `display_to_user`.',
  whenToUse:
    'To move or rename a module or directory without breaking its importers, ' +
    'after recon (recon_impact on the file shows its importers).',
  related: ['recon', 'recon_impact', 'refactor_commit', 'refactor_cancel', 'refactor_rename'],
  errors: [
    'E_INDEX_NOT_READY',
    'E_RECON_REQUIRED',
    'E_READ_ONLY_SESSION',
    'E_NOT_FOUND',
    'E_DESTINATION_EXISTS',
    'E_PATH_OUTSIDE_REPO',
  ],
  example: {
    from_path: 'src/util/clamp.ts',
    to_path: 'src/math/clamp.ts',
    justification: 'clamp belongs with the math helpers',
  },
  needsIndex: true,
  pathArguments: ['from_path', 'to_path'],
  async handler(args, ctx): Promise<RefactorPreviewResult> {
    requireRecon(ctx, 'refactor_move');
    const service = refactorService(ctx);
    const from = ctx.resolveRepoPath(args.from_path);
    const to = ctx.resolveRepoPath(args.to_path);
    if (!existsSync(from.absolute) || from.relative === '')
      throw new AgentgovError('E_NOT_FOUND', `${args.from_path} does not exist`, { path: args.from_path });
    if (existsSync(to.absolute))
      throw new AgentgovError('E_DESTINATION_EXISTS', `${to.relative} already exists; a move never overwrites`, {
        path: to.relative,
      });
    const directory = statSync(from.absolute).isDirectory();
    if (directory && (to.relative + '/').startsWith(from.relative + '/'))
      throw new AgentgovError('E_INVALID_ARGUMENT', `cannot move ${from.relative} into itself`, {
        from_path: from.relative,
        to_path: to.relative,
      });

    const moving: FileMove[] = directory
      ? service.workspace
          .files()
          .filter((f) => f.path.startsWith(`${from.relative}/`))
          .map((f) => ({ from: f.path, to: `${to.relative}${f.path.slice(from.relative.length)}` }))
      : [{ from: from.relative, to: to.relative }];
    const byEngine = new Map<RefactorEngine, FileMove[]>();
    for (const move of moving) {
      const engine = service.engineOf(move.from);
      if (engine) byEngine.set(engine, [...(byEngine.get(engine) ?? []), move]);
    }
    const edits: RefactorEdit[] = [];
    const unedited: UneditedReference[] = [];
    const warnings: string[] = [];
    for (const [engine, files] of byEngine) {
      const plan = await engine.move(
        { from: from.relative, to: to.relative, files, includeComments: args.include_comments },
        service.workspace,
      );
      edits.push(...plan.edits);
      unedited.push(...(plan.unedited ?? []));
      warnings.push(...(plan.warnings ?? []));
    }
    // a file that did not parse and names the moved module: its imports may be missing from the index
    const stem = basename(from.relative).replace(/\.[^.]+$/, '');
    const unparsed = unparsedWarning(unparsedFilesMentioning(ctx.index, stem), stem);
    if (unparsed) warnings.push(unparsed);
    for (const broken of ctx.index.parseErrors().filter((f) => moving.some((m) => m.from === f.path))) {
      const at = `line ${broken.first_line}:${broken.first_col + 1}`;
      const why = 'its own imports past that point may be missing from the index and left as they are.';
      warnings.push(`${broken.path} did not parse (syntax error at ${at}): ${why}`);
    }
    const gitMoves = new Set<string>();
    if (await tracked(ctx.repoRoot, from.relative)) gitMoves.add(from.relative);
    const leftOut = uneditedForMove(service.workspace, moving, edits, unedited);
    return storePreview(service, {
      kind: 'move',
      edits,
      moves: [{ from: from.relative, to: to.relative }],
      movedFiles: moving.map((m) => m.from),
      gitMoves,
      collisions: [],
      unedited: leftOut,
      warnings,
      engines: [...byEngine.keys()].map((e) => e.name),
      summary:
        `Move ${from.relative}${directory ? '/' : ''} to ` +
        `${to.relative}${directory ? `/ (${moving.length} indexed files)` : ''}`,
    });
  },
  render: renderPreview,
});
