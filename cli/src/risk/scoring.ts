import type { RiskAction, RiskLevel } from '@agentgov/core';

/** Score bands: low 0–24, medium 25–49, high 50–74, critical 75–100. */
export function levelForScore(score: number): RiskLevel {
  if (score >= 75) return 'critical';
  if (score >= 50) return 'high';
  if (score >= 25) return 'medium';
  return 'low';
}

/** The default action of each level: low allow, medium warn, high ask, critical deny. */
const ACTION_OF_LEVEL: Record<RiskLevel, RiskAction> = { low: 'allow', medium: 'warn', high: 'ask', critical: 'deny' };

export function actionForScore(score: number): RiskAction {
  return ACTION_OF_LEVEL[levelForScore(score)];
}

const SEVERITY: Record<RiskAction, number> = { allow: 0, warn: 1, ask: 2, deny: 3 };

export function actionSeverity(action: RiskAction): number {
  return SEVERITY[action];
}
