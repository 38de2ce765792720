import { expect } from 'chai';
import { canonicalToolOf } from '../../src/index.js';

describe('canonicalToolOf', () => {
  const table: [string, string][] = [
    ['Bash', 'shell'],
    ['Read', 'read'],
    ['Write', 'write'],
    ['Edit', 'edit'],
    ['MultiEdit', 'edit'],
    ['NotebookEdit', 'edit'],
    ['Grep', 'search'],
    ['Glob', 'search'],
    ['LS', 'search'],
    ['WebFetch', 'fetch'],
    ['WebSearch', 'fetch'],
    ['mcp__github__create_issue', 'mcp'],
    ['shell', 'shell'],
    ['bash', 'shell'],
    ['fetch', 'fetch'],
    ['shell_command', 'shell'],
    ['apply_patch', 'edit'],
    ['run_shell_command', 'shell'],
    ['read_file', 'read'],
    ['replace', 'edit'],
    ['google_web_search', 'fetch'],
    ['mcp_github_list_issues', 'mcp'],
    ['view', 'read'],
    ['create', 'write'],
    ['Shell', 'shell'],
    ['StrReplace', 'edit'],
    ['CallMcpTool', 'mcp'],
    ['Task', 'other'],
    ['', 'other'],
    ['toString', 'other'],
    ['__proto__', 'other'],
  ];
  for (const [name, kind] of table)
    it(`${JSON.stringify(name)} → ${kind}`, () => expect(canonicalToolOf(name)).to.equal(kind));
});
