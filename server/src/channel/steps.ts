/**
 * A channel's pipeline as a list of named steps. A step looks at the item's state and either lets
 * it go on (returns undefined; it may have added to the state) or ends it with an outcome. The
 * runner returns the outcome with the name of the step that decided it, so every end of every
 * item can be traced to one step.
 */
export interface Step<State, Outcome> {
  readonly name: string;
  run(state: State): Promise<Outcome | undefined> | Outcome | undefined;
}

export interface Ending<Outcome> {
  step: string;
  outcome: Outcome;
}

export async function runSteps<State, Outcome>(
  steps: readonly Step<State, Outcome>[],
  state: State,
): Promise<Ending<Outcome>> {
  for (const step of steps) {
    const outcome = await step.run(state);
    if (outcome !== undefined) return { step: step.name, outcome };
  }
  throw new Error(`no step ended the item (steps: ${steps.map((s) => s.name).join(' → ')})`);
}
