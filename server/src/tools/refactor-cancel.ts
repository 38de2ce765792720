import { z } from 'zod';
import { refactorService } from '../refactor/refactor-context.js';
import { defineTool } from './tool.js';

const input = z
  .object({
    refactor_id: z.string().min(1).describe('Id of the pending preview to discard'),
  })
  .strict();

export const refactorCancelTool = defineTool({
  name: 'refactor_cancel',
  group: 'Refactor',
  readOnly: false,
  brief: 'Discards a pending refactor preview; nothing in the repository changes.',
  description: 'Discards a pending refactor preview. Nothing in the repository changes.',
  inputSchema: input,
  outputSchema: z
    .object({ refactor_id: z.string(), cancelled: z.literal(true), display_to_user: z.string() })
    .passthrough(),
  returns: '`refactor_id`, `cancelled: true` and `display_to_user`.',
  whenToUse: 'When a preview is wrong, stale (E_PREVIEW_STALE) or blocked by a collision; then make a new one.',
  related: ['refactor_rename', 'refactor_move', 'refactor_commit'],
  errors: ['E_PREVIEW_NOT_FOUND', 'E_READ_ONLY_SESSION'],
  example: { refactor_id: 'rf_3f9a1c0b2d4e' },
  needsIndex: false,
  async handler(args, ctx) {
    const service = refactorService(ctx);
    service.get(args.refactor_id);
    service.delete(args.refactor_id);
    return {
      refactor_id: args.refactor_id,
      cancelled: true,
      display_to_user: `Refactor ${args.refactor_id} discarded; nothing was changed.`,
    };
  },
});
