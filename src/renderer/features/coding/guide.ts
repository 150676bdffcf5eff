/**
 * Where a coding project stands, step by step (codebook → coders → sample → code → agreement → reconcile →
 * share): each step done, the current one, or still to do, from what the project holds. Pure: the counts in,
 * the steps out.
 */
import type { CodingTab } from '../../lib/routes';

export type StepState = 'done' | 'current' | 'todo';

export interface GuideStep {
  id: 'codebook' | 'coders' | 'sample' | 'code' | 'agreement' | 'reconcile' | 'share';
  label: string;
  tab: CodingTab;
  state: StepState;
}

export interface ProjectStand {
  codebooks: number;
  /** coders of any kind (people and models) */
  coders: number;
  /** the chosen sample's progress per assigned coder; null when there is no sample */
  progress: ReadonlyArray<{ assigned: number; done: number }> | null;
  /** the coder at this computer chose to see agreement */
  revealed: boolean;
  /** disagreements nobody decided yet; null when not known (agreement not seen) */
  undecided: number | null;
  /** a share package was made (its citation is kept) */
  shared: boolean;
}

const STEPS: ReadonlyArray<Omit<GuideStep, 'state'>> = [
  { id: 'codebook', label: 'Codebook', tab: 'codebook' },
  { id: 'coders', label: 'Coders', tab: 'coders' },
  { id: 'sample', label: 'Sample', tab: 'samples' },
  { id: 'code', label: 'Code', tab: 'code' },
  { id: 'agreement', label: 'Agreement', tab: 'agreement' },
  { id: 'reconcile', label: 'Reconcile', tab: 'reconcile' },
  { id: 'share', label: 'Share', tab: 'files' },
];

export function guideSteps(p: ProjectStand): GuideStep[] {
  const coded = p.progress !== null && p.progress.length > 0 && p.progress.every((c) => c.done >= c.assigned);
  const done: Record<GuideStep['id'], boolean> = {
    codebook: p.codebooks > 0,
    // agreement needs two coders at least
    coders: p.coders >= 2,
    sample: p.progress !== null,
    code: coded,
    agreement: coded && p.revealed,
    reconcile: coded && p.revealed && p.undecided === 0,
    share: p.shared,
  };
  let current = false;
  return STEPS.map((s) => {
    if (done[s.id]) return { ...s, state: 'done' };
    if (current) return { ...s, state: 'todo' };
    current = true;
    return { ...s, state: 'current' };
  });
}
