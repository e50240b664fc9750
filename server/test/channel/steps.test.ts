import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSteps, type Step } from '../../src/channel/steps.ts';

interface State {
  seen: string[];
  note?: string;
}

type Outcome = { kind: 'delivered'; note: string } | { kind: 'held'; reason: string };

/** A step that records that it ran and lets the item go on. */
function pass(name: string, note?: string): Step<State, Outcome> {
  return {
    name,
    run(state) {
      state.seen.push(name);
      if (note !== undefined) state.note = note;
      return undefined;
    },
  };
}

/**
 * The runner behind every channel's pipeline: steps run in order until one returns an outcome,
 * and the ending names that step; a throw is a bug and is not turned into an outcome.
 */
describe('runSteps', () => {
  it('lets an item go on through steps that return nothing, keeping what they added', async () => {
    const state: State = { seen: [] };
    const ending = await runSteps<State, Outcome>(
      [
        pass('load', 'from load'),
        pass('check'),
        {
          name: 'send',
          run: async (s) => {
            s.seen.push('send');
            return { kind: 'delivered', note: s.note ?? 'none' };
          },
        },
      ],
      state,
    );
    assert.deepEqual(state.seen, ['load', 'check', 'send']);
    assert.deepEqual(ending, { step: 'send', outcome: { kind: 'delivered', note: 'from load' } });
  });

  it('ends the item at the first step with an outcome, naming it, and runs no later step', async () => {
    const state: State = { seen: [] };
    const ending = await runSteps<State, Outcome>(
      [
        pass('load'),
        {
          name: 'suppression',
          run: (s) => {
            s.seen.push('suppression');
            return { kind: 'held', reason: 'address suppressed' };
          },
        },
        pass('send'),
      ],
      state,
    );
    assert.deepEqual(ending, {
      step: 'suppression',
      outcome: { kind: 'held', reason: 'address suppressed' },
    });
    assert.deepEqual(state.seen, ['load', 'suppression']);
  });

  it('lets an exception out as it is, without running later steps', async () => {
    const state: State = { seen: [] };
    const boom = new Error('bug in a step');
    await assert.rejects(
      runSteps<State, Outcome>(
        [
          pass('load'),
          {
            name: 'broken',
            run: async () => {
              throw boom;
            },
          },
          pass('send'),
        ],
        state,
      ),
      (error) => error === boom,
    );
    assert.deepEqual(state.seen, ['load']);
  });

  it('throws when no step ends the item, listing the steps', async () => {
    await assert.rejects(
      runSteps<State, Outcome>([pass('a'), pass('b')], { seen: [] }),
      /no step ended the item \(steps: a → b\)/,
    );
  });
});
