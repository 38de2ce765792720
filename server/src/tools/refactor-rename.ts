import { AgentgovError } from '@agentgov/core';
import { z } from 'zod';
import { refactorService, requireRecon } from '../refactor/refactor-context.js';
import { refactorPreviewSchema, renderPreview, type RefactorPreviewResult } from '../refactor/refactor-preview.js';
import { unparsedFilesMentioning, unparsedWarning } from '../index/parse-health.js';
import { storePreview, withinContexts } from '../refactor/preview-builder.js';
import { resolveSymbol } from '../refactor/symbol-lookup.js';
import { uneditedForRename } from '../refactor/unedited-references.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    symbol: z
      .string()
      .min(1)
      .max(500)
      .describe(
        'Symbol name, qualified name or `path:Qualified.name` (not path:line:col). ' +
          'A bare name (`clamp`), a qualified name (`Meter.read`, `pkg.core.run`), ' +
          'or `path:Qualified.name` when the qualified name exists in several files',
      ),
    new_name: z.string().min(1).max(200).describe('The new name. A valid identifier of the language, not a keyword'),
    justification: z.string().min(1).describe('Why the rename is made. Recorded with the call'),
    include_comments: z
      .boolean()
      .default(true)
      .describe('Also offer mentions in comments, strings and docstrings. Low certainty'),
    contexts: z
      .array(z.string().min(1))
      .optional()
      .describe('Limit the edits to these files or directories. Repository-relative; all files when omitted'),
  })
  .strict();

export const refactorRenameTool = defineTool({
  name: 'refactor_rename',
  group: 'Refactor',
  readOnly: false,
  brief:
    'Previews renaming a symbol (function, class, method, variable, type) everywhere it is used; writes ' +
    'nothing until refactor_commit. Needs a prior recon in the session.',
  description:
    'Previews renaming a symbol across the whole repository, with the exact edits ' +
    'an editor would make: TypeScript/JavaScript through the TypeScript language ' +
    'service over every tsconfig/jsconfig project (workspace packages imported ' +
    "by name included) and the files none includes, Python through the index's " +
    'scope and import resolution. Lists every reference the index knows that ' +
    'the preview leaves unedited, with why. Writes nothing; refactor_commit applies ' +
    'the preview.',
  inputSchema: input,
  outputSchema: refactorPreviewSchema,
  returns:
    '`refactor_id`, `preview.edits` (per file: hunks with `id`, `old`, `new`, ' +
    '`line`, `column`, exact `range`, `certainty`: high = resolved, medium = ' +
    'same name but unresolved, low = comment/string), `preview.pending_review` ' +
    '(medium/low hunk ids refactor_commit needs accepted), `preview.unedited` ' +
    '(references to the symbol the preview leaves unedited, each with `reason`), ' +
    '`preview.warnings`, `preview.collisions` (the new name already taken; the ' +
    'commit is then refused), `preview.counts`, `preview.verification_required`, ' +
    '`display_to_user`.',
  whenToUse:
    'To rename a function, class, method, variable, type or property everywhere ' +
    'it is used, after recon (and recon_impact when unsure). Review medium/low ' +
    'hunks with refactor_commit inspect_path, then refactor_commit.',
  related: ['recon', 'recon_impact', 'refactor_commit', 'refactor_cancel', 'refactor_move'],
  errors: [
    'E_INDEX_NOT_READY',
    'E_RECON_REQUIRED',
    'E_READ_ONLY_SESSION',
    'E_NOT_FOUND',
    'E_SYMBOL_AMBIGUOUS',
    'E_INVALID_NAME',
    'E_REFACTOR_UNSUPPORTED',
    'E_PATH_OUTSIDE_REPO',
  ],
  example: {
    symbol: 'Meter.read',
    new_name: 'sample',
    justification: 'read is ambiguous next to the file reader',
    include_comments: true,
  },
  needsIndex: true,
  pathArguments: ['contexts'],
  async handler(args, ctx): Promise<RefactorPreviewResult> {
    requireRecon(ctx, 'refactor_rename');
    const service = refactorService(ctx);
    const { symbol, engine } = await resolveSymbol(service, args.symbol, (path) => ctx.resolveRepoPath(path).relative);
    const newName = args.new_name.trim();
    const invalid =
      newName === symbol.name
        ? `'${newName}' is already the name of ${symbol.qualifiedName}`
        : engine.checkIdentifier(newName);
    if (invalid)
      throw new AgentgovError('E_INVALID_NAME', invalid, {
        new_name: newName,
        language: service.languageOf(symbol.path) ?? null,
        engine: engine.name,
      });
    const plan = await engine.rename({ symbol, newName, includeComments: args.include_comments }, service.workspace);
    const contexts = args.contexts?.map((path) => ctx.resolveRepoPath(path).relative);
    const edits = withinContexts(plan.edits, contexts);
    const kept = new Set(edits);
    const unedited = uneditedForRename({
      workspace: service.workspace,
      symbol,
      engine: engine.name,
      edits,
      outsideContexts: plan.edits.filter((edit) => !kept.has(edit)),
      includeComments: args.include_comments,
      fromEngine: plan.unedited ?? [],
    });
    return storePreview(service, {
      kind: 'rename',
      edits,
      moves: [],
      movedFiles: [],
      gitMoves: new Set(),
      collisions: plan.collisions,
      unedited,
      warnings: [
        ...(plan.warnings ?? []),
        ...[unparsedWarning(unparsedFilesMentioning(ctx.index, symbol.name), symbol.name)].filter((w) => w !== null),
      ],
      engines: [engine.name],
      summary: `Rename ${symbol.qualifiedName} (${symbol.path}:${symbol.line}) to ${newName}`,
    });
  },
  render: renderPreview,
});
