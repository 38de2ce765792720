import { Command, Option } from 'clipanion';
import { AgentgovCommand, EXIT, jsonOption } from './base.js';

export class TrustCommand extends AgentgovCommand {
  static override paths = [['trust']];
  static override usage = Command.Usage({
    category: 'Governance',
    description: "Trust a project's agentgov.yaml, so the plugins and rule files it names load",
    details:
      "A project's `./agentgov.yaml` comes with the repository, so the plugins " +
      'and risk rule files it names are not loaded until you trust it — like `direnv ' +
      'allow`. Trust is kept per config file and its content (SHA-256) in `$AGENTGOV_HOME/trust.json` ' +
      '(0600): after an edit, trust it again. Settings that loosen safety (`gate.on_unavailable: ' +
      'allow`) are never taken from a project config, trusted or not; put them ' +
      'in your own config. `--revoke` forgets the trust.',
    examples: [
      ['Trust the project in the current directory', '$0 trust'],
      ['Trust another project', '$0 trust ~/src/app'],
      ['Forget it', '$0 trust ~/src/app --revoke'],
    ],
  });

  target = Option.String({ name: 'PATH', required: false });
  revoke = Option.Boolean('--revoke', false, {
    description: 'Forget the trust instead of granting it (default: false)',
  });

  override json = jsonOption('one JSON object {file, trusted, sha256}');

  async run(): Promise<number> {
    const { projectConfigOf, setTrust } = await import('../config-trust.js');
    const file = projectConfigOf(this.target ?? '.');
    const result = setTrust(file, { revoke: this.revoke });
    if (this.json) {
      this.writeJson({ file, trusted: !this.revoke, sha256: this.revoke ? null : result.sha256 });
      return EXIT.OK;
    }
    this.context.stdout.write(
      this.revoke
        ? `no longer trusted: ${file}\n`
        : `trusted ${file} (sha256 ${result.sha256}); its plugins and rule files load from now on, until it changes\n`,
    );
    return EXIT.OK;
  }
}
