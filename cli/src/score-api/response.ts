import type { Assessment } from '@agentgov/core';

/** A 4xx answer of the Score API: its status, a stable snake_case code and a message. */
export class ScoreHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ScoreHttpError';
  }
}

export interface ScoreResponse {
  risk_assessment: { score: number; level: string };
  recommendation: { action: string; reason_code: string };
  evidence: Assessment['evidence'];
  stage: 'assessed';
}

export function scoreResponse(assessment: Assessment): ScoreResponse {
  return {
    risk_assessment: { score: assessment.score, level: assessment.level },
    recommendation: { action: assessment.action, reason_code: assessment.reason_code },
    evidence: assessment.evidence,
    stage: 'assessed',
  };
}
