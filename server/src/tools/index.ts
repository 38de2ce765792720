import { checkpointTool } from './checkpoint.js';
import { blastRadiusTool } from './blast-radius.js';
import { coveringTestsTool } from './covering-tests.js';
import { coverageImportTool } from './coverage-import.js';
import { describeTool } from './describe.js';
import { graphCommunitiesTool } from './graph-communities.js';
import { graphCyclesTool } from './graph-cycles.js';
import { reconScoutTool } from './recon-scout.js';
import { reconTool } from './recon.js';
import { reconRawSignalsTool } from './recon-raw-signals.js';
import { reconImpactTool } from './recon-impact.js';
import { refactorCancelTool } from './refactor-cancel.js';
import { refactorCommitTool } from './refactor-commit.js';
import { refactorMoveTool } from './refactor-move.js';
import { refactorRenameTool } from './refactor-rename.js';
import { reconLineCoverageTool } from './recon-line-coverage.js';
import { semanticDiffTool } from './semantic-diff.js';
import type { AnyToolDefinition } from './tool.js';

/**
 * Every tool of the server, in the order tools/list and `describe` show them. A new tool is one
 * import and one entry here; dev-only tools (`devOnly: true`) are filtered by `listedTools`.
 */
export const TOOLS: readonly AnyToolDefinition[] = [
  describeTool,
  reconScoutTool,
  reconTool,
  reconRawSignalsTool,
  reconImpactTool,
  semanticDiffTool,
  graphCyclesTool,
  graphCommunitiesTool,
  refactorRenameTool,
  refactorMoveTool,
  refactorCommitTool,
  refactorCancelTool,
  checkpointTool,
  blastRadiusTool,
  coveringTestsTool,
  reconLineCoverageTool,
  coverageImportTool,
];

/** The tools a server lists: dev-only tools only with `--dev-mode`. */
export function listedTools(devMode: boolean, tools: readonly AnyToolDefinition[] = TOOLS): AnyToolDefinition[] {
  return tools.filter((tool) => devMode || !tool.devOnly);
}

export type { AnyToolDefinition, SessionState, ToolContext, ToolDefinition, ToolGroup } from './tool.js';
export { defineTool, TOOL_GROUPS } from './tool.js';
