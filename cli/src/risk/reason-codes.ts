/**
 * The reason-code catalog: every `reason_code` the shipped rules and the engine can answer,
 * with a title and its meaning. docs/risk.md documents this table; tests check that every
 * shipped rule uses a code from it. Rules from config or plugins may add codes of their own.
 */
export interface ReasonCodeEntry {
  title: string;
  meaning: string;
}

export const REASON_CODES = {
  no_risk_detected: {
    title: 'No risk detected',
    meaning: 'No rule matched; the call looks routine (read-only commands, edits inside the project).',
  },
  parse_incomplete: {
    title: 'Command only partly readable',
    meaning:
      'The shell text has syntax errors; it was scored on the parts that parsed, and nothing dangerous was seen there.',
  },
  assessment_error: {
    title: 'Assessment failed',
    meaning:
      'The engine hit an internal error on this call; it answers `ask` rather than ' +
      'guess, and the evidence names the error.',
  },
  command_unreadable: {
    title: 'Command not read in full',
    meaning:
      'The command is longer than 64 KiB, has more than 2,000 parts, nests deeper ' +
      'than 6 levels or took more than its time budget (30 ms of CPU) to read; ' +
      'what was not read could do anything, so the answer is at least `ask`.',
  },
  invalid_arguments: {
    title: 'Unreadable tool arguments',
    meaning:
      'The call carries no readable command or path (missing, not a string, under ' +
      'a key the engine does not read, a `file:` URL of another host); nothing ' +
      'could be checked, so the answer is `ask`.',
  },
  destructive_delete_critical: {
    title: 'Delete of /, home or a system path',
    meaning:
      'A recursive or forced delete targets the filesystem root, the home directory, ' +
      'a system directory or everything under one.',
  },
  destructive_delete_project_root: {
    title: 'Delete of the whole project',
    meaning: 'A recursive delete targets the project root itself or a directory containing it.',
  },
  destructive_delete_outside_project: {
    title: 'Delete outside the project',
    meaning: 'A recursive forced delete targets a path outside the project root (temporary directories excepted).',
  },
  destructive_delete_unresolved: {
    title: 'Delete of a path known only at run time',
    meaning:
      'A recursive forced delete targets a path that cannot be resolved before ' +
      'running (variables, xargs/find input, unknown directory).',
  },
  destructive_delete: {
    title: 'Destructive file operation',
    meaning: 'Files outside the project are deleted, shredded or overwritten in a way that may not be recoverable.',
  },
  git_history_loss: {
    title: 'Git history loss',
    meaning:
      'The command can destroy commits or refs: force push, reset --hard, branch -D, filter-branch, reflog expiry.',
  },
  git_worktree_discard: {
    title: 'Uncommitted work discarded',
    meaning:
      'The command throws away uncommitted changes or untracked files: checkout ' +
      '-- paths, restore, clean -f, stash drop/clear, switch --discard-changes.',
  },
  download_and_execute: {
    title: 'Download and execute',
    meaning: 'Code fetched from the network is piped or handed straight to a shell or interpreter.',
  },
  raw_device_write: {
    title: 'Raw device write',
    meaning: 'Data is written directly to a block device, destroying the filesystem on it.',
  },
  filesystem_format: {
    title: 'Filesystem format or partitioning',
    meaning: 'A disk is formatted, partitioned or wiped (mkfs, fdisk, wipefs …).',
  },
  fork_bomb: {
    title: 'Fork bomb',
    meaning: 'A function that recursively spawns itself in the background until the system runs out of processes.',
  },
  privilege_escalation: {
    title: 'Privilege escalation',
    meaning: 'The command runs as root or another user, or makes a file setuid/root-owned.',
  },
  permission_weakening: {
    title: 'Permissions changed on system paths',
    meaning:
      'Permissions or attributes of /, home or system paths are changed, or whole ' +
      'trees outside the project are made world-writable.',
  },
  persistence: {
    title: 'Persistence',
    meaning:
      'The command installs something that runs later or at login: cron, shell ' +
      'rc files, systemd/launchd services, autostart entries.',
  },
  secret_access: {
    title: 'Secret access',
    meaning:
      'A credential store is read or copied: SSH keys, .env files, cloud credentials, ' +
      'kube config, /etc/shadow, token files.',
  },
  exfiltration: {
    title: 'Data exfiltration',
    meaning: 'Local data is sent to a remote host: netcat/socat, curl/wget uploads, scp/rsync of secrets.',
  },
  package_publish: {
    title: 'Package publishing',
    meaning: 'A package or image is published to a public registry (npm, PyPI, crates.io, RubyGems, Docker).',
  },
  broad_process_kill: {
    title: 'Broad process kill',
    meaning: 'Processes are killed by name or en masse (killall, pkill, kill -1), which may take down unrelated work.',
  },
  system_power: { title: 'Shutdown or reboot', meaning: 'The machine is shut down, rebooted or halted.' },
  system_path_write: {
    title: 'Write to a system path',
    meaning: 'A file under a system directory (/etc, /usr, /bin, /boot …) is written or edited.',
  },
  write_outside_project: {
    title: 'Write outside the project',
    meaning: 'A file outside the project root (and outside temporary directories) is written or edited.',
  },
  read_outside_project: { title: 'Read outside the project', meaning: 'A file outside the project root is read.' },
  dynamic_code_execution: {
    title: 'Code known only at run time',
    meaning:
      'A shell or interpreter runs code that is only known at run time (`bash -c ' +
      '{}` under xargs/parallel, `eval` of a variable).',
  },
  interpreter_dangerous_call: {
    title: 'Dangerous call in an interpreter one-liner',
    meaning: 'Inline code (python -c, node -e, perl -e, ruby -e) deletes trees, spawns shells or changes the system.',
  },
  infrastructure_destroy: {
    title: 'Infrastructure destruction',
    meaning: 'Cloud or cluster resources are destroyed (terraform destroy, kubectl delete, aws s3 rm --recursive …).',
  },
  global_install: {
    title: 'Global package install',
    meaning: 'A package is installed or removed system-wide rather than in the project.',
  },
  shell_escape: {
    title: 'Shell escape',
    meaning:
      'A program opens a shell through one of its command channels (awk system(), ' +
      'find -exec, vim :!, a pager, git/ssh settings, tar/zip/rsync options) or ' +
      'an interpreter one-liner replaces itself with a shell.',
  },
  reverse_shell: {
    title: 'Reverse or bind shell',
    meaning:
      'A shell is wired to a network connection: its input comes from, or its output ' +
      'goes to, a socket (netcat, telnet, openssl s_client, /dev/tcp, gawk /inet, ' +
      'interpreter sockets).',
  },
  metadata_access: {
    title: 'Cloud metadata or local admin endpoint',
    meaning:
      'A request goes to a cloud metadata endpoint (instance credentials), a link-local ' +
      'address, or an admin API on this machine (Docker, kubelet, etcd …).',
  },
  governance_tampering: {
    title: 'Governance tampering',
    meaning:
      "An agent's hook settings (where the gate hook is installed) or agentgov's " +
      'own state ($AGENTGOV_HOME, agentgov.yaml) are changed, moved or removed: ' +
      'the call could switch the gate off.',
  },
  history_tampering: {
    title: 'Shell history tampering',
    meaning: 'Shell history is cleared or disabled, hiding what ran.',
  },
  supply_chain: {
    title: 'Code from an unvetted package source',
    meaning:
      'A package manager installs or runs a package from a URL, a VCS repository ' +
      'or a registry/index other than the default one, or is configured to; the ' +
      "package's install code runs on this machine.",
  },
  access_grant: {
    title: 'Cloud or cluster access granted',
    meaning:
      'An IAM policy, role binding, access key or service-account key is created ' +
      'or attached: someone (or something) gets permissions it did not have.',
  },
  public_exposure: {
    title: 'Resource exposed to the internet',
    meaning:
      'Storage is made public (bucket ACL or policy, public access block removed) ' +
      'or a firewall or security group is opened to 0.0.0.0/0.',
  },
  remote_execution: {
    title: 'Commands run on remote machines',
    meaning:
      'A control plane runs commands on other machines (aws ssm send-command, az ' +
      'vm run-command, ansible -m shell, salt cmd.run, pssh).',
  },
  audit_tampering: {
    title: 'Audit logging stopped',
    meaning:
      'Audit or security logging is stopped or deleted (CloudTrail stop-logging, ' +
      'GuardDuty detector deleted, log sinks deleted, audit rules cleared).',
  },
  agent_controls_off: {
    title: "Agent's permission checks switched off",
    meaning:
      'A coding agent is started with its permission checks or sandbox off (--dangerously-skip-permissions, ' +
      '--yolo), or settings and instruction files are written that make it approve ' +
      'tools by itself.',
  },
  runs_file: {
    title: 'Runs a file that could not be judged',
    meaning:
      'The call runs a script, manifest or build file (npm scripts, a Makefile, ' +
      'conftest.py, ./x.sh) that is too large or could not be read at gate time: ' +
      'what it does is unknown, so the answer is `ask`.',
  },
} as const satisfies Record<string, ReasonCodeEntry>;

export type ReasonCode = keyof typeof REASON_CODES;

export function isReasonCode(code: string): code is ReasonCode {
  return Object.hasOwn(REASON_CODES, code);
}
