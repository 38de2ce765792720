/**
 * The error catalog: one source of truth for tool errors, `describe(action: "error")`, CLI
 * messages and docs/errors.md. Later capabilities add their codes here.
 */
export interface ErrorCatalogEntry {
  /** What the error means, in one sentence. */
  meaning: string;
  /** Typical causes. */
  causes: string[];
  /** What the caller should do next (an agent calling a tool). */
  remediation: string;
  /**
   * What to do next when the CLI reports it, where that differs (the CLI hints at CLI commands, never at MCP tools).
   */
  cliRemediation?: string;
}

export const ERROR_CATALOG = {
  E_INDEX_NOT_READY: {
    meaning: 'The repository index is still being built, so index-backed tools cannot answer yet.',
    causes: [
      'The server just started on a repository that has no index yet',
      'The index was corrupt or of an old schema and is being rebuilt',
    ],
    remediation:
      'Wait and retry; `details.progress` shows files done out of the total, and ' +
      'progress notifications report it as it advances. The call already waited ' +
      '`details.waited_ms` (`server.index.wait_ms`); `agentgov serve --wait-for-index` ' +
      'makes calls wait for the first build.',
  },
  E_DEADLINE_EXCEEDED: {
    meaning: 'A bounded step stopped at its time bound before it finished.',
    causes: ['A language service searched a large project for references longer than the bound allows'],
    remediation:
      'The tool answers without that step and says so; retry later (language services ' +
      'stay warm between calls) or narrow the target.',
  },
  E_READ_ONLY_SESSION: {
    meaning: 'The session is research-only, so tools that change the repository are blocked.',
    causes: ['An earlier `recon` call in this session set `read_only: true`'],
    remediation: 'Call `recon` with `read_only: false` to switch the session to read-write, then retry.',
  },
  E_RECON_REQUIRED: {
    meaning: 'This tool needs a prior `recon` call in the same session.',
    causes: ['`refactor_rename` or `refactor_move` was called before any `recon` in this session'],
    remediation: 'Call `recon` with a task describing the change first, then retry the refactor.',
  },
  E_INVALID_ARGUMENT: {
    meaning: 'An argument is missing, of the wrong type, out of range, or not allowed.',
    causes: [
      'A required parameter is missing',
      'A parameter has the wrong type',
      'An unknown parameter was passed',
      'A value is empty or too large',
    ],
    remediation:
      'Fix the argument named in `details`; `describe` with `action: "tool"` lists ' +
      'every parameter with its type and default.',
    cliRemediation:
      'Fix the option or argument named in the message; `agentgov <command> --help` ' +
      'lists every option with its default.',
  },
  E_PATH_OUTSIDE_REPO: {
    meaning: 'A path argument resolves outside the repository, which tools never touch.',
    causes: [
      'The path is absolute and outside the repository root',
      'The path climbs out with `..`',
      'A symlink points outside the repository',
    ],
    remediation: 'Pass a repository-relative path that stays inside the repository.',
    cliRemediation: 'Pass a path inside the repository given with `--repo`.',
  },
  E_NOT_FOUND: {
    meaning: 'The named symbol, file, ref or item does not exist.',
    causes: ['A typo in a symbol or path', 'The file was deleted or not indexed', 'An unknown git ref or epoch'],
    remediation: 'Check the name or path the message gives; `describe` with action "tool" says what the tool accepts.',
    cliRemediation:
      'Check the name or path the message gives; `agentgov <command> --help` says what the command accepts.',
  },
  E_NOT_A_GIT_REPOSITORY: {
    meaning: 'The repository is not a git checkout, so there are no git refs to compare.',
    causes: ['The server runs on a plain directory (no `.git`)', 'git is not installed or cannot read the repository'],
    remediation:
      'Compare index epochs instead (`base: "epoch:N"`), or make the directory ' +
      'a git repository (`git init`, then commit).',
  },
  E_PREVIEW_STALE: {
    meaning:
      'A file in the refactor preview changed after the preview was made, so applying it could corrupt the file.',
    causes: ['The file was edited after `refactor_rename`/`refactor_move` produced the preview'],
    remediation: 'Cancel this preview with `refactor_cancel` and create a new one.',
  },
  E_PREVIEW_NOT_FOUND: {
    meaning: 'No pending refactor preview has this id.',
    causes: [
      'The id is wrong',
      'The preview was already committed or cancelled',
      'The preview expired after 30 minutes idle',
    ],
    remediation: 'Create a new preview with `refactor_rename` or `refactor_move`.',
  },
  E_SYMBOL_AMBIGUOUS: {
    meaning: 'The symbol name is bound to several definitions, so the refactor does not know which one you mean.',
    causes: [
      'A bare name (`parse`) is defined in several classes, modules or files',
      'A qualified name exists in several files',
    ],
    remediation:
      'Retry with one of the `details.candidates[].symbol` values (a qualified ' +
      'name, or `path:Qualified.name` when that is not unique).',
  },
  E_INVALID_NAME: {
    meaning: 'The new name is not a valid identifier of the language, or is a reserved keyword.',
    causes: [
      'The name contains characters an identifier may not hold (spaces, dashes, a leading digit)',
      'The name is a keyword (`class`, `def`, `return`, ...)',
      'The name equals the current name',
    ],
    remediation: 'Pick a valid identifier that is not a keyword of the language named in `details.language`.',
  },
  E_RENAME_COLLISION: {
    meaning:
      'The new name is already bound where the renamed symbol is visible, so applying ' +
      'the rename would change what the code means.',
    causes: [
      'A variable, function, class or import of the new name exists in a scope the renamed binding is visible in',
      'The class already has a member of the new name',
    ],
    remediation:
      'Cancel the preview with `refactor_cancel` and choose another name; `details.collisions` ' +
      'lists where the name is taken.',
  },
  E_REVIEW_REQUIRED: {
    meaning:
      'The refactor preview has medium- or low-certainty hunks nobody accepted, ' +
      'so applying it could change code that is not the symbol.',
    causes: [
      'A rename matched a member of that name on a value whose type is unknown (medium)',
      'A rename matched the word in a comment, string or docstring (low)',
    ],
    remediation:
      'Look at the hunks (`refactor_commit` with `inspect_path`), then call `refactor_commit` ' +
      'again with `accept: { hunks: [...] }`, `accept: { files: [...] }` or `accept: ' +
      '{ certainty: "medium" | "low" }`, and `drop_unaccepted: true` to apply only ' +
      'the high and accepted hunks.',
  },
  E_DESTINATION_EXISTS: {
    meaning: 'The destination of a move already exists; a move never overwrites a file.',
    causes: [
      '`to_path` names an existing file or directory',
      'A file of the moved directory would land on an existing file',
    ],
    remediation: 'Choose a destination that does not exist yet, or move or delete the existing file first.',
  },
  E_REFACTOR_UNSUPPORTED: {
    meaning: 'No refactor engine covers the file, or the engine refuses to rename that symbol.',
    causes: [
      'The file is in a language whose language pack brings no refactor engine',
      'The symbol is declared outside the repository (a library or the standard library)',
    ],
    remediation: 'Rename it by hand, or rename a symbol declared inside the repository.',
  },
  E_APPLY_FAILED: {
    meaning: 'Applying a refactor failed part-way, so every file was restored to its content before the commit.',
    causes: ['A target file or directory is not writable', 'The disk is full', '`git mv` failed'],
    remediation:
      'Fix the cause named in `details` (permissions, space), then retry `refactor_commit` ' +
      'with the same id; nothing was changed.',
  },
  E_INTERNAL: {
    meaning: 'An unexpected internal error occurred; the request was not completed.',
    causes: ['A bug in agentgov or a plugin'],
    remediation: 'Retry once; if it persists, report it with the server log under $AGENTGOV_HOME/logs.',
  },
  E_ADDRESS_UNAVAILABLE: {
    meaning: 'The server could not listen on the requested address.',
    causes: ['Another process already listens on that port', 'The port needs privileges the process does not have'],
    remediation: 'Pick another port with `--http 127.0.0.1:PORT`, or stop the process that holds it.',
  },
  E_CONFIG_INVALID: {
    meaning: 'The configuration file is malformed or does not match the configuration schema.',
    causes: ['YAML syntax error', 'A value of the wrong type', 'An unknown key'],
    remediation: 'Run `agentgov config validate` to list every problem with its key path and line:column.',
  },
  E_PLUGIN_LOAD: {
    meaning: 'A plugin named in the configuration could not be loaded, so start-up stopped.',
    causes: [
      'The package is not installed or the path does not exist',
      'The module has no default export of a plugin',
      'Its options fail its schema',
      'Its `apply` threw',
    ],
    remediation:
      'Fix the plugin entry named in the message (install the package, correct ' +
      'the path or the options), then start again.',
  },
  E_PLUGIN_FAILED: {
    meaning: 'A plugin threw while one of its hook taps ran.',
    causes: ['A bug in the plugin', 'The plugin received input it does not handle'],
    remediation: 'See the plugin and hook named in the message; disable the plugin or fix it.',
  },
  E_PLUGIN_CONFLICT: {
    meaning: 'Two providers with the same name were registered in one registry.',
    causes: ['Two plugins register a retriever, sink, framework, ... of the same name', 'A plugin is listed twice'],
    remediation: 'Remove one of the plugins, or rename the provider.',
  },
  E_GATE_IN_USE: {
    meaning: 'Another running `agentgov watch` already serves the gate socket, so this one cannot start its gate.',
    causes: [
      '`agentgov watch` is already running for this $AGENTGOV_HOME',
      'Another user or process owns the socket path',
    ],
    remediation: 'Stop the other watch (or use it), or give this one its own $AGENTGOV_HOME.',
  },
  E_ADDRESS_IN_USE: {
    meaning: 'The Score API or the dashboard could not bind its address because something else is listening there.',
    causes: ['Another `agentgov score`, `watch` or `dashboard` is running', 'Another program uses the port'],
    remediation:
      'Stop the other program, choose another address with `--listen HOST:PORT` ' +
      '(`score.listen`, `dashboard.listen`), or run watch with `--no-score`.',
  },
  E_SCORE_TOKEN_REQUIRED: {
    meaning:
      'The Score API or the dashboard was asked to listen on a non-loopback address ' +
      'without a token, which would expose it to the network unauthenticated.',
    causes: [
      '`--listen`, `score.listen` or `dashboard.listen` names an address other ' +
        'than localhost/127.0.0.1/::1 and its token (`score.token`, `dashboard.token`) ' +
        'is not set',
    ],
    remediation:
      'Set the token in the config (`score.token` or `dashboard.token`; clients ' +
      'then send `Authorization: Bearer <token>`), or listen on a loopback address.',
  },
  E_DB_MISSING: {
    meaning: 'The governance database (system.db) does not exist yet.',
    causes: [
      'Nothing has been ingested yet: neither `agentgov replay` nor `agentgov watch` has run',
      '`--db` or config `governance.db` points at the wrong file',
      '$AGENTGOV_HOME differs from the one used when ingesting',
    ],
    remediation:
      'Run `agentgov replay PATH --adapter NAME` or `agentgov watch` first, or pass the right file with `--db PATH`.',
  },
  E_DB_UNAVAILABLE: {
    meaning: 'The governance database exists but cannot be opened, migrated or read.',
    causes: [
      'The file is not a SQLite database or is corrupt',
      'No permission to read or write it',
      'It was written by a newer agentgov with another schema',
    ],
    remediation: 'Check the path and its permissions; move a corrupt file aside and let agentgov create a new one.',
  },
  E_CAPTURE_UNREADABLE: {
    meaning: 'A capture file or directory cannot be read.',
    causes: ['The path does not exist', 'No permission to read it', 'A directory holds no .jsonl/.json captures'],
    remediation: 'Pass an existing capture file or a directory of .jsonl/.json captures that you can read.',
  },
  E_SETTINGS_INVALID: {
    meaning: "An agent's settings file is not valid JSON (or not the expected shape), so it was left untouched.",
    causes: [
      'The file was edited by hand and has a syntax error',
      '`hooks` or `hooks.PreToolUse` has an unexpected type',
    ],
    remediation: 'Fix the file named in the message (it was not modified), then run the command again.',
  },
  E_TEST_RUNNER_MISSING: {
    meaning: "The project's test runner could not be found or started, so no tests ran.",
    causes: [
      'No test-runner plugin recognises the project (no .mocharc, vitest.config, ' +
        'pytest.ini/pyproject.toml, or test script)',
      'The runner named in the message is not installed in the project (e.g. `npm ' +
        'install` or the Python virtual environment is missing)',
    ],
    remediation:
      'Install the runner named in the message in the project (`npm install`, `pip ' +
      'install pytest coverage`), then retry.',
  },
  E_TEST_CONFIG_INVALID: {
    meaning: "The test runner rejected the project's test configuration, so no tests ran.",
    causes: [
      'A syntax error in `.mocharc.*`, `vitest.config.*`, `pytest.ini`, `pyproject.toml` or `setup.cfg`',
      'The config names a missing file, reporter or plugin',
    ],
    remediation:
      'Fix the config file named in `details`, run the command in `details.command` ' +
      "yourself to see the runner's own message, then retry.",
  },
  E_COMMIT_FAILED: {
    meaning:
      "git did not make the checkpoint commit; the message says why in git's own " +
      'words. Nothing was committed, and the index is as it was.',
    causes: [
      'A hook refused the commit: the message names it (pre-commit, commit-msg, …), its exit status and its output',
      'A hook did not finish within server.checkpoint.hook_timeout_s and was stopped',
      'git has no user identity (user.name / user.email)',
      'Signing the commit failed (commit.gpgsign with gpg or ssh)',
      'The repository is not a git work tree, or another git process holds a lock (index.lock)',
    ],
    remediation:
      "Fix what the message names (the hook's complaint, the identity, the signing " +
      'key), then run checkpoint again; `details.output` is what git and the hook ' +
      'printed.',
  },
  E_GIT_OPERATION_IN_PROGRESS: {
    meaning:
      'A merge, rebase, cherry-pick, revert or bisect is in progress, so checkpoint ' +
      'did not lint, test or commit: its auto-fixes and its commit would land in ' +
      'the middle of it.',
    causes: [
      'A merge or rebase stopped on a conflict',
      'A cherry-pick or revert is waiting to be continued',
      'A bisect session was started and not reset',
    ],
    remediation:
      'Finish the operation (resolve, then `git commit` or `git <operation> --continue`) ' +
      'or abort it (`git merge --abort`, `git rebase --abort`, `git cherry-pick ' +
      '--abort`, `git revert --abort`, `git bisect reset`), then run checkpoint ' +
      'again.',
  },
  E_PUSH_FAILED: {
    meaning: 'The checkpoint committed locally but did not push; the local commit stays.',
    causes: [
      'origin has commits the branch lacks (rejected, non-fast-forward)',
      'The repository has no remote named origin, or the branch has no upstream on origin',
      'HEAD is detached',
      'The remote could not be reached',
    ],
    remediation:
      'Pull with rebase and push again (never forced), or set the upstream with ' +
      '`git push -u origin BRANCH`; `details.commit` is the local commit.',
  },
  E_HOOK_BROKEN: {
    meaning:
      'An agent hook command, run exactly as the agent runs it on a probe call, ' +
      'did not exit 0 or 2 with an answer that asks or denies.',
    causes: [
      'The agentgov or Node binary named in the command moved or was removed',
      'The build output is missing (`npm run build`)',
      '`gate.on_unavailable: allow` or a rule override lets the probe through',
    ],
    remediation:
      'Read the message (it says what the hook did), fix it, then run `agentgov ' +
      'init <agent>` again; `agentgov doctor` re-checks installed hooks.',
  },
} as const satisfies Record<string, ErrorCatalogEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CATALOG, code);
}

export function errorCodes(): ErrorCode[] {
  return Object.keys(ERROR_CATALOG) as ErrorCode[];
}
