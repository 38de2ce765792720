import { ERROR_CATALOG, errorCodes, type ErrorCatalogEntry } from './catalog.js';

/** docs/errors.md, rendered from the catalog so the docs never drift from the code. */
export function renderErrorCatalogMarkdown(): string {
  const lines = [
    '# Error codes',
    '',
    '<!-- generated from core/src/errors/catalog.ts by `npm run docs:generate`; do not edit -->',
    '',
    'Tool errors are MCP error results whose structured content is `{ error: ' +
      '{ code, message, remediation, details } }`;',
    'the CLI prints `error [CODE]: message` and a hint. `describe` with `action: "error"` decodes any code below.',
    "The remediation below is each code's default: where the place that raised the error knows more, the error",
    'carries a remediation for that occurrence instead (the git ref that was not found and the refs that exist,',
    'the nearest defined names, the path that does not exist).',
    '',
  ];
  for (const code of errorCodes()) {
    const entry: ErrorCatalogEntry = ERROR_CATALOG[code];
    lines.push(
      `## ${code}`,
      '',
      entry.meaning,
      '',
      '**Causes**',
      '',
      ...entry.causes.map((c) => `- ${c}`),
      '',
      `**Remediation**: ${entry.remediation}`,
      '',
      ...(entry.cliRemediation ? [`**From the CLI**: ${entry.cliRemediation}`, ''] : []),
    );
  }
  return lines.join('\n');
}
